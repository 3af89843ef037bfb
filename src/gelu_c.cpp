// The extern "C" entry points of gelucheck/gelu_c.h. Return codes (nothing is written on error):
//   0 success; 1 bad form or path; 2 null pointer with n > 0; 3 output partially overlaps an input
//   (exact aliasing — the same pointer — is allowed); 4 any other failure (no exception crosses
//   the C boundary). n == 0 succeeds with any pointers.
#include "gelucheck/gelu_c.h"

#include <cstdint>

#include "gelucheck/gelu.hpp"

namespace {

using gelucheck::Form;
using gelucheck::Path;

bool decode(int form, int path, Form& f, Path& p) {
  if (form != 0 && form != 1) return false;
  if (path != 0 && path != 1) return false;
  f = form == 0 ? Form::tanh : Form::erf;
  p = path == 0 ? Path::accurate : Path::naive;
  return true;
}

template <class T, class U>
bool partial_overlap(const T* in, const U* out, std::size_t n) {
  const auto a = reinterpret_cast<std::uintptr_t>(in), b = reinterpret_cast<std::uintptr_t>(out);
  if (a == b) return false;  // exact aliasing: in place
  return a < b + n * sizeof(U) && b < a + n * sizeof(T);
}

// The 16-bit formats are passed to map/backward as an extra Format argument.
template <class T, class... F>
int map_c(int form, int path, const T* x, T* out, std::size_t n, F... fmt) {
  Form f;
  Path p;
  if (!decode(form, path, f, p)) return 1;
  if (n == 0) return 0;
  if (x == nullptr || out == nullptr) return 2;
  if (partial_overlap(x, out, n)) return 3;
  try {
    gelucheck::map(f, fmt..., gelucheck::View<const T>::contiguous(x, {n}), gelucheck::View<T>::contiguous(out, {n}), p);
  } catch (...) {
    return 4;
  }
  return 0;
}

template <class T, class... F>
int backward_c(int form, int path, const T* x, const T* dy, T* dx, std::size_t n, F... fmt) {
  Form f;
  Path p;
  if (!decode(form, path, f, p)) return 1;
  if (n == 0) return 0;
  if (x == nullptr || dy == nullptr || dx == nullptr) return 2;
  if (partial_overlap(x, dx, n) || partial_overlap(dy, dx, n)) return 3;
  try {
    gelucheck::backward(f, fmt..., gelucheck::View<const T>::contiguous(x, {n}), gelucheck::View<const T>::contiguous(dy, {n}),
                        gelucheck::View<T>::contiguous(dx, {n}), p);
  } catch (...) {
    return 4;
  }
  return 0;
}

}  // namespace

extern "C" {
int gelucheck_map_f64(int form, int path, const double* x, double* out, size_t n) { return map_c(form, path, x, out, n); }
int gelucheck_map_f32(int form, int path, const float* x, float* out, size_t n) { return map_c(form, path, x, out, n); }
int gelucheck_backward_f64(int form, int path, const double* x, const double* grad_output, double* grad_input, size_t n) {
  return backward_c(form, path, x, grad_output, grad_input, n);
}
int gelucheck_backward_f32(int form, int path, const float* x, const float* grad_output, float* grad_input, size_t n) {
  return backward_c(form, path, x, grad_output, grad_input, n);
}
int gelucheck_map_f16(int form, int path, const uint16_t* x, uint16_t* out, size_t n) {
  return map_c(form, path, x, out, n, gelucheck::Format::binary16);
}
int gelucheck_map_bf16(int form, int path, const uint16_t* x, uint16_t* out, size_t n) {
  return map_c(form, path, x, out, n, gelucheck::Format::bfloat16);
}
int gelucheck_backward_f16(int form, int path, const uint16_t* x, const uint16_t* grad_output, uint16_t* grad_input,
                           size_t n) {
  return backward_c(form, path, x, grad_output, grad_input, n, gelucheck::Format::binary16);
}
int gelucheck_backward_bf16(int form, int path, const uint16_t* x, const uint16_t* grad_output, uint16_t* grad_input,
                            size_t n) {
  return backward_c(form, path, x, grad_output, grad_input, n, gelucheck::Format::bfloat16);
}
}
