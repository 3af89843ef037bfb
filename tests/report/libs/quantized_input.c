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
