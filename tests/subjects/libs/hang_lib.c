/* A lib: subject that hangs at one input in every op it provides: x = 2 (in binary64 and
 * binary32, forward and backward, both forms); elsewhere the textbook GELU in double. For the
 * test of the hang's cost (process_test.cpp) and the figure in docs/benchmarks.md:
 *   gelucheck check lib:./libgelucheck_test_hang_lib.so --claim faithful --gate */
#include <math.h>
#include <stddef.h>

#include "gelucheck/subject_abi.h"

static void hang_at_two(double x) {
  if (x == 2)
    for (volatile int spin = 1; spin;) {
    }
}

static double u(double x) { return 0.7978845608028654 * (x + 0.044715 * x * x * x); }
static double tanh_value(double x) { return 0.5 * x * (1 + tanh(u(x))); }
static double tanh_deriv(double x) {
  const double t = tanh(u(x));
  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * 0.7978845608028654 * (1 + 3 * 0.044715 * x * x);
}
static double erf_value(double x) { return 0.5 * x * (1 + erf(x / sqrt(2.0))); }
static double erf_deriv(double x) {
  return 0.5 * (1 + erf(x / sqrt(2.0))) + x * exp(-0.5 * x * x) / sqrt(2 * M_PI);
}

#define FORWARD(NAME, T, F)                                  \
  void NAME(const T *x, T *y, size_t n) {                    \
    for (size_t i = 0; i < n; ++i) hang_at_two(x[i]);        \
    for (size_t i = 0; i < n; ++i) y[i] = (T)F((double)x[i]); \
  }
#define BACKWARD(NAME, T, F)                                                  \
  void NAME(const T *x, const T *dy, T *dx, size_t n) {                       \
    for (size_t i = 0; i < n; ++i) hang_at_two(x[i]);                         \
    for (size_t i = 0; i < n; ++i) dx[i] = (T)((double)dy[i] * F((double)x[i])); \
  }

FORWARD(gelu_tanh_f64, double, tanh_value)
FORWARD(gelu_erf_f64, double, erf_value)
FORWARD(gelu_tanh_f32, float, tanh_value)
FORWARD(gelu_erf_f32, float, erf_value)
BACKWARD(gelu_tanh_backward_f64, double, tanh_deriv)
BACKWARD(gelu_erf_backward_f64, double, erf_deriv)
BACKWARD(gelu_tanh_backward_f32, float, tanh_deriv)
BACKWARD(gelu_erf_backward_f32, float, erf_deriv)
