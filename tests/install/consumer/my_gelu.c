/* The consumer's own GELU: the erf form's value in binary32, exported under gelucheck's subject
 * ABI (gelucheck/subject_abi.h) so that gelucheck_add_check can check it.
 *
 * x·Φ(x) = (x/2)·erfc(-x/√2), evaluated in double from the float x and rounded once to float.
 * Before that rounding the relative error is below 2^-43: x is exact in double; -x·(1/√2) carries
 * at most 2^-52 relative (the constant's and the product's roundings), which erfc's condition
 * number |t·erfc'(t)/erfc(t)| <= 2t² + 2 at t = -x/√2 amplifies by at most ~2^8 over the x where
 * the float result is not zero (x > -14.4, t < 10.2); glibc's erfc adds a few ulps of double and
 * the final product one rounding. A float's half ulp is at least 2^-25 relative, so the one
 * rounding to float lands on a neighbour of the exact value: faithful (< 1 ulp), and that is what
 * the consumer's CMakeLists claims. Defined with MY_GELU_BROKEN, it is the textbook formula in
 * float, 0.5·x·(1 + erf(x/√2)), whose 1 + erf cancels for x below about -2: not faithful. */
#include <math.h>
#include <stddef.h>

#include "gelucheck/subject_abi.h"

void gelu_erf_f32(const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
#ifdef MY_GELU_BROKEN
    y[i] = 0.5f * x[i] * (1.0f + erff(x[i] * 0.70710678f));
#else
    const double xd = x[i];
    /* At -inf the product would be -inf·0: the limit is -0. */
    y[i] = isinf(xd) && xd < 0 ? -0.0f : (float)(0.5 * xd * erfc(-xd * 0.70710678118654752));
#endif
  }
}

const char *gelucheck_subject_describe(void) {
#ifdef MY_GELU_BROKEN
  return "my_gelu (gelucheck's consumer test), broken: textbook formula in float";
#else
  return "my_gelu (gelucheck's consumer test): erf value in binary32 through double";
#endif
}
