/* gelucheck/gelu_c.h — C entry points for the batch functions of the library under test, for
 * callers in other languages. form: 0 = tanh, 1 = erf; path: 0 = accurate, 1 = naive.
 * f64 = binary64 (double), f32 = binary32 (float), f16 = binary16 and bf16 = bfloat16, the last
 * two as arrays of their 16-bit encodings (uint16_t; accurate = correctly rounded).
 * Contiguous arrays of n elements. Return 0 on success, non-zero on a bad argument (nothing is
 * written then). x and out may alias exactly (in place). */
#ifndef GELUCHECK_GELU_C_H
#define GELUCHECK_GELU_C_H
#include <stddef.h>
#include <stdint.h>
/* The shared library (libgelucheck_gelu.so, target gelucheck_gelu_shared) is built with hidden
 * visibility: these entry points are all it exports. */
#if defined(__GNUC__) || defined(__clang__)
#define GELUCHECK_C_API __attribute__((visibility("default")))
#else
#define GELUCHECK_C_API
#endif
#ifdef __cplusplus
extern "C" {
#endif
GELUCHECK_C_API int gelucheck_map_f64(int form, int path, const double* x, double* out, size_t n);
GELUCHECK_C_API int gelucheck_map_f32(int form, int path, const float* x, float* out, size_t n);
GELUCHECK_C_API int gelucheck_backward_f64(int form, int path, const double* x,
                                           const double* grad_output, double* grad_input, size_t n);
GELUCHECK_C_API int gelucheck_backward_f32(int form, int path, const float* x,
                                           const float* grad_output, float* grad_input, size_t n);
GELUCHECK_C_API int gelucheck_map_f16(int form, int path, const uint16_t* x, uint16_t* out, size_t n);
GELUCHECK_C_API int gelucheck_map_bf16(int form, int path, const uint16_t* x, uint16_t* out, size_t n);
GELUCHECK_C_API int gelucheck_backward_f16(int form, int path, const uint16_t* x,
                                           const uint16_t* grad_output, uint16_t* grad_input, size_t n);
GELUCHECK_C_API int gelucheck_backward_bf16(int form, int path, const uint16_t* x,
                                            const uint16_t* grad_output, uint16_t* grad_input, size_t n);
#ifdef __cplusplus
}
#endif
#endif
