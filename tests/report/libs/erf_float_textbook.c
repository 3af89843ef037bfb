/* The erf form as a widely used inference library ships it in binary32:
 * 0.5f * x * (1.0f + erff(x * 0.70710678f)), forward only. In the negative tail 1 + erff(z)
 * cancels: the result has flat stretches and steps the wrong way between neighbouring inputs (a
 * monotone defect that independent random pairs almost never see). */
#include <math.h>

#include "gelucheck/subject_abi.h"

void gelu_erf_f32(const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = 0.5f * x[i] * (1.0f + erff(x[i] * 0.70710678f));
}

const char *gelucheck_subject_describe(void) { return "erf_float_textbook (0.5f*x*(1+erff(x/sqrt2)))"; }
