/* A binary32 erf-form GELU that rounds its input to binary16 first (as a kernel with a binary16
   lookup table indexed by the input would), then evaluates in double and rounds once. Its results
   are not all binary16 values; what gives it away is that inputs which round to one binary16
   value get one result. */
#include <math.h>
#include <stddef.h>

void gelu_erf_f32(const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const double v = (double)(_Float16)x[i];
    y[i] = (float)(0.5 * v * erfc(-v / sqrt(2.0)));
  }
}

/* Its tanh form does so only over [-10, 10], as a binary16 table over that interval would, and
   beyond it evaluates at x itself: most neighbouring pairs that round to one binary16 value get
   one result, not all. */
void gelu_tanh_f32(const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const double v = fabs(x[i]) <= 10 ? (double)(_Float16)x[i] : (double)x[i];
    const double u = 0.7978845608028654 * (v + 0.044715 * v * v * v);
    y[i] = (float)(v / (1.0 + exp(-2.0 * u)));
  }
}
