/* A binary32 erf-form GELU that returns +0 below x = -10 (a cut-off written into the kernel) and
   is right elsewhere (evaluated in double, rounded once): the report must say it is a clean cut
   with -10 between the last zero and the first nonzero result. */
#include <math.h>
#include <stddef.h>

void gelu_erf_f32(const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const double v = (double)x[i];
    y[i] = v < -10.0 ? 0.0f : (float)(0.5 * v * erfc(-v / sqrt(2.0)));
  }
}
