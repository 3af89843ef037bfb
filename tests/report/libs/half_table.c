/* A binary32 erf-form GELU that computes in binary16: the value is evaluated in double and its
   result rounded to _Float16, as a kernel that looks its input up in a binary16 table would give.
   The report's diagnosis must say "every binary32 result ... is a binary16 value". */
#include <math.h>
#include <stddef.h>

void gelu_erf_f32(const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const double v = (double)x[i];
    y[i] = (float)(_Float16)(0.5 * v * erfc(-v / sqrt(2.0)));
  }
}
