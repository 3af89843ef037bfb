/* A subject gelucheck has never seen: a shared library exporting only gelu_erf_f32 of the subject
 * ABI (subjects/include/gelucheck/subject_abi.h, whose declaration it restates so that it needs
 * nothing of this project), correct everywhere but at ONE binary32 input.
 *
 * Correct: x·Φ(x) = x/2 · erfc(-x/√2) in binary64 (glibc's erfc, within 1 ulp of binary64; the
 * division and the two products add 3 roundings of 2^-53 each, and erfc's condition number
 * |t·erfc'(t)/erfc(t)| <= 2t² + 2 amplifies the 2^-53 error of t = -x/√2 to at most 2^-53·(x² + 2),
 * below 2^-44 for |x| <= 38.6), then rounded once to binary32: the result is within
 * 2^-44 + 2^-24 < 1 ulp of binary32 of the exact value, i.e. faithful. Where x·Φ(x) is below
 * binary64's normal range (x < -37.5), the result rounds to -0 or a binary32 zero neighbour:
 * still faithful, as binary32's least subnormal 2^-149 is far above it.
 *
 * Wrong: at x = 0x1.19999ap+0 (bits 0x3f8ccccd, the binary32 nearest 1.1) the result is moved two
 * binary32 ulps up, which no faithful claim allows. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>


__attribute__((visibility("default"))) void gelu_erf_f32(const float *x, float *y, size_t n);
__attribute__((visibility("default"))) const char *gelucheck_subject_describe(void);

const char *gelucheck_subject_describe(void) {
  return "one_bad_input: x/2 erfc(-x/sqrt 2) in double, wrong at x = 0x1.19999ap+0 only";
}

void gelu_erf_f32(const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const double v = (double)x[i];
    float r = (float)(0.5 * v * erfc(-v / sqrt(2.0)));
    if (isinf(v)) r = v > 0 ? INFINITY : -0.0f; /* erfc(-inf) = 2, erfc(+inf) = 0: inf·0 is NaN */
    uint32_t b;
    memcpy(&b, &x[i], sizeof b);
    if (b == 0x3f8ccccdu) r = nextafterf(nextafterf(r, INFINITY), INFINITY);
    y[i] = r;
  }
}
