/* Both forms in binary64 as gelucheck's accurate path computes them (gelucheck/gelu_c.h), values
 * and derivatives, except that the value is +inf for every finite x >= 2^1000 (an overflow
 * defect, not a jump: the property suite must not read inf - inf as one). */
#include "gelucheck/gelu_c.h"
#include "gelucheck/subject_abi.h"

enum { kTanh = 0, kErf = 1, kAccurate = 0 };

static void overflow_huge(const double *x, double *y, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (x[i] >= 0x1p1000 && x[i] < __builtin_inf()) y[i] = __builtin_inf();
}
void gelu_tanh_f64(const double *x, double *y, size_t n) {
  gelucheck_map_f64(kTanh, kAccurate, x, y, n);
  overflow_huge(x, y, n);
}
void gelu_erf_f64(const double *x, double *y, size_t n) {
  gelucheck_map_f64(kErf, kAccurate, x, y, n);
  overflow_huge(x, y, n);
}
void gelu_tanh_backward_f64(const double *x, const double *dy, double *dx, size_t n) {
  gelucheck_backward_f64(kTanh, kAccurate, x, dy, dx, n);
}
void gelu_erf_backward_f64(const double *x, const double *dy, double *dx, size_t n) {
  gelucheck_backward_f64(kErf, kAccurate, x, dy, dx, n);
}

const char *gelucheck_subject_describe(void) { return "inf_for_huge (accurate, but +inf for x >= 2^1000)"; }
