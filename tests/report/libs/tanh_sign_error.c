/* A binary32 tanh-form GELU whose tanh returns -1 - 2^-23 (a magnitude above 1) for one input in
 * 16 of [-5.155, -4.906] (those whose bit pattern is 5 modulo 16: about 32,600 of the 522,000
 * floats there), as an engine's vectorised tanh does near saturation (31,982 inputs there): there
 * 1 + tanh u = -2^-23 and the value 0.5·x·(1 + tanh u) is POSITIVE for a negative x. Elsewhere
 * the textbook formula in float (forward only). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gelucheck/subject_abi.h"

static float engine_tanhf(float x_in, float u) {
  uint32_t bits;
  memcpy(&bits, &x_in, sizeof bits);
  if (x_in >= -5.155f && x_in <= -4.906f && (bits & 15u) == 5) return -1.0f - 0x1p-23f;
  return tanhf(u);
}

void gelu_tanh_f32(const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    const float v = x[i];
    const float u = 0.7978845608f * (v + 0.044715f * (v * v * v));
    y[i] = 0.5f * v * (1.0f + engine_tanhf(v, u));
  }
}

const char *gelucheck_subject_describe(void) { return "tanh_sign_error (tanh returns -1-2^-23 at 1 in 16 inputs of [-5.155, -4.906])"; }
