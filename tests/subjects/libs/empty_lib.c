/* A shared library exporting none of the subject ABI (a C++ library without extern "C" looks like
 * this to dlsym): opening it as a lib: subject must fail with a message. */
int gelu_tanh(double x);
int gelu_tanh(double x) { return x > 0; }
