/* A correct lib: subject: the accurate path of gelucheck's own library (gelucheck/gelu_c.h),
 * exported under the subject ABI for f64 and f32, both forms, forward and backward; plus scalar
 * functions T f(T) for the map syntax (lib:PATH:OP=SYMBOL@scalar). The test compares what comes
 * back through gelucheck-subject-host with the same library called in-process, bit for bit. */
#include "gelucheck/gelu_c.h"
#include "gelucheck/subject_abi.h"

enum { kTanh = 0, kErf = 1, kAccurate = 0 };

void gelu_tanh_f64(const double *x, double *y, size_t n) { gelucheck_map_f64(kTanh, kAccurate, x, y, n); }
void gelu_erf_f64(const double *x, double *y, size_t n) { gelucheck_map_f64(kErf, kAccurate, x, y, n); }
void gelu_tanh_f32(const float *x, float *y, size_t n) { gelucheck_map_f32(kTanh, kAccurate, x, y, n); }
void gelu_erf_f32(const float *x, float *y, size_t n) { gelucheck_map_f32(kErf, kAccurate, x, y, n); }
void gelu_tanh_backward_f64(const double *x, const double *dy, double *dx, size_t n) {
  gelucheck_backward_f64(kTanh, kAccurate, x, dy, dx, n);
}
void gelu_erf_backward_f64(const double *x, const double *dy, double *dx, size_t n) {
  gelucheck_backward_f64(kErf, kAccurate, x, dy, dx, n);
}
void gelu_tanh_backward_f32(const float *x, const float *dy, float *dx, size_t n) {
  gelucheck_backward_f32(kTanh, kAccurate, x, dy, dx, n);
}
void gelu_erf_backward_f32(const float *x, const float *dy, float *dx, size_t n) {
  gelucheck_backward_f32(kErf, kAccurate, x, dy, dx, n);
}

const char *gelucheck_subject_describe(void) { return "good_lib (gelucheck accurate path)"; }

/* Scalar functions with names of their own, for the map. */
GELUCHECK_SUBJECT_EXPORT double my_erf_gelu(double x);
GELUCHECK_SUBJECT_EXPORT double my_erf_gelu_deriv(double x);
GELUCHECK_SUBJECT_EXPORT float my_tanh_gelu_f(float x);
double my_erf_gelu(double x) {
  double y;
  gelucheck_map_f64(kErf, kAccurate, &x, &y, 1);
  return y;
}
double my_erf_gelu_deriv(double x) {
  const double one = 1.0;
  double d;
  gelucheck_backward_f64(kErf, kAccurate, &x, &one, &d, 1);
  return d;
}
float my_tanh_gelu_f(float x) {
  float y;
  gelucheck_map_f32(kTanh, kAccurate, &x, &y, 1);
  return y;
}
