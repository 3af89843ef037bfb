/* A binary32 tanh-form GELU typed with 0.0447 for 0.044715, otherwise evaluated in double and
   rounded once: the report's diagnosis must name the mistyped constant. */
#include <math.h>
#include <stddef.h>

void gelu_tanh_f32(const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const double v = (double)x[i];
    y[i] = (float)(v / (1.0 + exp(-2.0 * 0.7978845608028654 * (v + 0.0447 * v * v * v))));
  }
}
