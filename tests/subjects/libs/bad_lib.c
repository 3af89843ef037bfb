/* A lib: subject with one realistic defect per function, each triggered by a chosen input, so
 * that the test sees every way a library can misbehave and gelucheck survive it:
 *   gelu_tanh_f64           segfaults (a write through a null pointer) when some x[i] == 13
 *   gelu_erf_f64            writes one element past the end of y (y[n]) when some x[i] == 5
 *   gelu_tanh_f32           loops forever when some x[i] == 7
 *   gelu_erf_f32            writes x[0] = 0 (into its input) when some x[i] == 3
 *   gelu_tanh_backward_f64  writes dy[n-1] when some x[i] == 2
 *   gelu_tanh_bf16          printf()s to stdout on every call (must not corrupt the protocol)
 *   gelu_erf_bf16           leaves y[1] unwritten
 * Otherwise they return y = x (a wrong GELU; the values do not matter here). */
#include <stdio.h>

#include "gelucheck/subject_abi.h"

static int has(const double *x, size_t n, double v) {
  for (size_t i = 0; i < n; ++i)
    if (x[i] == v) return 1;
  return 0;
}
static int hasf(const float *x, size_t n, float v) {
  for (size_t i = 0; i < n; ++i)
    if (x[i] == v) return 1;
  return 0;
}

void gelu_tanh_f64(const double *x, double *y, size_t n) {
  if (has(x, n, 13)) {
    volatile double *p = 0;
    *p = 1;
  }
  for (size_t i = 0; i < n; ++i) y[i] = x[i];
}
void gelu_erf_f64(const double *x, double *y, size_t n) {
  const size_t end = has(x, n, 5) ? n + 1 : n; /* the off-by-one */
  for (size_t i = 0; i < end; ++i) y[i] = i < n ? x[i] : 0;
}
void gelu_tanh_f32(const float *x, float *y, size_t n) {
  if (hasf(x, n, 7))
    for (volatile int spin = 1; spin;) {
    }
  for (size_t i = 0; i < n; ++i) y[i] = x[i];
}
void gelu_erf_f32(const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = x[i];
  if (hasf(x, n, 3)) ((float *)x)[0] = 0;
}
void gelu_tanh_backward_f64(const double *x, const double *dy, double *dx, size_t n) {
  for (size_t i = 0; i < n; ++i) dx[i] = dy[i];
  if (n > 0 && has(x, n, 2)) ((double *)dy)[n - 1] = 42;
}
void gelu_tanh_bf16(const uint16_t *x, uint16_t *y, size_t n) {
  printf("debug: gelu_tanh_bf16 called with %zu elements\n", n);
  fflush(stdout);
  for (size_t i = 0; i < n; ++i) y[i] = x[i];
}
void gelu_erf_bf16(const uint16_t *x, uint16_t *y, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (i != 1) y[i] = x[i];
}
