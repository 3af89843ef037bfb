/* A binary32 "erf-form" GELU that returns the tanh form (gelu_new) instead, evaluated in double
   and rounded once: faithful to the wrong function. The report's diagnosis must name the form. */
#include <math.h>
#include <stddef.h>

void gelu_erf_f32(const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const double v = (double)x[i];
    const double u = 0.7978845608028654 * (v + 0.044715 * v * v * v);
    y[i] = (float)(v / (1.0 + exp(-2.0 * u)));
  }
}
