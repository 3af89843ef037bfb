/* gelucheck/subject_abi.h — the C ABI of a `lib:` subject (docs/subjects.md, "The C ABI").
 *
 * A shared library checked with `gelucheck check lib:PATH` exports any of these functions; every
 * symbol is optional: gelucheck checks what is there and says what is not.
 *
 *   void gelu_<form>_<dt>(const T *x, T *y, size_t n);                         forward
 *   void gelu_<form>_backward_<dt>(const T *x, const T *dy, T *dx, size_t n);  VJP
 *
 *   form: tanh (0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))) | erf (x·Φ(x))
 *   dt:   f64 (double) | f32 (float) | bf16 | f16 (uint16_t bit patterns: bfloat16, IEEE binary16)
 *
 * The forward writes y[i] = gelu(x[i]); the backward writes dx[i] = dy[i] · gelu'(x[i]) (the
 * vector-Jacobian product of the elementwise map; the derivative is the backward with dy = 1).
 * Arrays are contiguous, n elements each, never overlapping; n may be 0. The functions must not
 * write x or dy, nor anything beyond the n elements of y or dx; gelucheck detects both.
 *
 * Two further symbols are optional extensions:
 *   const char *gelucheck_subject_describe(void);   one line naming the library and its version,
 *                                                   recorded in every report
 *   int gelucheck_subject_provides(const char *op); asked for each function found, by its op
 *                                                   name ("tanh.forward.f32"): 0 withdraws it (a
 *                                                   kernel this machine cannot run)
 */
#ifndef GELUCHECK_SUBJECT_ABI_H
#define GELUCHECK_SUBJECT_ABI_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define GELUCHECK_SUBJECT_EXPORT __attribute__((visibility("default")))
#else
#define GELUCHECK_SUBJECT_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The two signatures, per element type. */
typedef void gelucheck_forward_f64_fn(const double *x, double *y, size_t n);
typedef void gelucheck_forward_f32_fn(const float *x, float *y, size_t n);
typedef void gelucheck_forward_u16_fn(const uint16_t *x, uint16_t *y, size_t n);
typedef void gelucheck_backward_f64_fn(const double *x, const double *dy, double *dx, size_t n);
typedef void gelucheck_backward_f32_fn(const float *x, const float *dy, float *dx, size_t n);
typedef void gelucheck_backward_u16_fn(const uint16_t *x, const uint16_t *dy, uint16_t *dx,
                                       size_t n);

GELUCHECK_SUBJECT_EXPORT gelucheck_forward_f64_fn gelu_tanh_f64;
GELUCHECK_SUBJECT_EXPORT gelucheck_forward_f32_fn gelu_tanh_f32;
GELUCHECK_SUBJECT_EXPORT gelucheck_forward_u16_fn gelu_tanh_bf16;
GELUCHECK_SUBJECT_EXPORT gelucheck_forward_u16_fn gelu_tanh_f16;
GELUCHECK_SUBJECT_EXPORT gelucheck_forward_f64_fn gelu_erf_f64;
GELUCHECK_SUBJECT_EXPORT gelucheck_forward_f32_fn gelu_erf_f32;
GELUCHECK_SUBJECT_EXPORT gelucheck_forward_u16_fn gelu_erf_bf16;
GELUCHECK_SUBJECT_EXPORT gelucheck_forward_u16_fn gelu_erf_f16;

GELUCHECK_SUBJECT_EXPORT gelucheck_backward_f64_fn gelu_tanh_backward_f64;
GELUCHECK_SUBJECT_EXPORT gelucheck_backward_f32_fn gelu_tanh_backward_f32;
GELUCHECK_SUBJECT_EXPORT gelucheck_backward_u16_fn gelu_tanh_backward_bf16;
GELUCHECK_SUBJECT_EXPORT gelucheck_backward_u16_fn gelu_tanh_backward_f16;
GELUCHECK_SUBJECT_EXPORT gelucheck_backward_f64_fn gelu_erf_backward_f64;
GELUCHECK_SUBJECT_EXPORT gelucheck_backward_f32_fn gelu_erf_backward_f32;
GELUCHECK_SUBJECT_EXPORT gelucheck_backward_u16_fn gelu_erf_backward_bf16;
GELUCHECK_SUBJECT_EXPORT gelucheck_backward_u16_fn gelu_erf_backward_f16;

/* Optional extensions (see above). */
typedef const char *gelucheck_subject_describe_fn(void);
typedef int gelucheck_subject_provides_fn(const char *op);
GELUCHECK_SUBJECT_EXPORT gelucheck_subject_describe_fn gelucheck_subject_describe;
GELUCHECK_SUBJECT_EXPORT gelucheck_subject_provides_fn gelucheck_subject_provides;

#ifdef __cplusplus
}
#endif

#endif /* GELUCHECK_SUBJECT_ABI_H */
