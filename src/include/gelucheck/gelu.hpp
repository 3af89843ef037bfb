// gelucheck/gelu.hpp — the library under test: GELU in double and float, mirroring Lean's
// `GeluForm` (docs/properties.md, "The Lean theorems"). Two paths side by side:
//   Path::accurate — the default; stable formulas, error bounds written next to the code;
//   Path::naive    — the textbook formulas exactly as docs/functions.md writes them, kept ONLY to be
//                    measured against (loses all relative accuracy for negative x, NaN at ±inf).
// No function here reads the MPFR reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "gelucheck/common.hpp"

namespace gelucheck {

enum class Path { accurate, naive };

// GeluForm.scalar and GeluForm.scalarDeriv.
double scalar(Form form, double x, Path path = Path::accurate);
float scalar(Form form, float x, Path path = Path::accurate);
double scalar_deriv(Form form, double x, Path path = Path::accurate);
float scalar_deriv(Form form, float x, Path path = Path::accurate);

// A strided view of an n-dimensional array of T: element (i0, …, ik) is at
// data[i0*strides[0] + … + ik*strides[k]] (strides in elements, any sign). Rank 0 (empty shape)
// is a scalar; any zero dimension makes it empty.
template <class T>
struct View {
  T* data = nullptr;
  std::vector<std::size_t> shape;
  std::vector<std::ptrdiff_t> strides;
  std::size_t size() const;                                   // product of shape (1 at rank 0)
  static View contiguous(T* data, std::vector<std::size_t> shape);  // row-major strides
};

// GeluForm.map: out[i] = scalar(x[i]) for every index; shapes must be equal (else
// std::invalid_argument, nothing written). x and out may be the same memory (in place) or
// disjoint; partially overlapping views are refused.
void map(Form form, View<const double> x, View<double> out, Path path = Path::accurate);
void map(Form form, View<const float> x, View<float> out, Path path = Path::accurate);

// GeluForm.hasVJP: grad_input[i] = grad_output[i] * scalarDeriv(x[i]); x is the ORIGINAL input
// (not the forward output); neither x nor grad_output is written. Shapes must match.
void backward(Form form, View<const double> x, View<const double> grad_output,
              View<double> grad_input, Path path = Path::accurate);
void backward(Form form, View<const float> x, View<const float> grad_output,
              View<float> grad_input, Path path = Path::accurate);

// GeluForm.pdiv_map: the (i, j) entry of the Jacobian of map at the flat vector x.
double pdiv(Form form, std::span<const double> x, std::size_t i, std::size_t j,
            Path path = Path::accurate);
float pdiv(Form form, std::span<const float> x, std::size_t i, std::size_t j,
           Path path = Path::accurate);
// The dense n×n Jacobian, row-major, for small n (refuses n > 4096).
std::vector<double> jacobian(Form form, std::span<const double> x, Path path = Path::accurate);
std::vector<float> jacobian(Form form, std::span<const float> x, Path path = Path::accurate);

// binary16 and bfloat16 (fmt = Format::binary16 or Format::bfloat16; anything else is
// std::invalid_argument), values carried as their 16-bit encodings. The accurate path is
// CORRECTLY ROUNDED for every input, by a table per function built at first use from the long
// double kernel with a rounding proof per entry (src/gelu_half.cpp); the naive path is the float
// textbook formula rounded again (claims nothing). backward: dx = RN_fmt(dy * the rounded
// derivative), one rounding. NaN in, the same NaN (quieted) out.
std::uint16_t scalar16(Form form, Format fmt, std::uint16_t x, Path path = Path::accurate);
std::uint16_t scalar_deriv16(Form form, Format fmt, std::uint16_t x, Path path = Path::accurate);
void map(Form form, Format fmt, View<const std::uint16_t> x, View<std::uint16_t> out, Path path = Path::accurate);
void backward(Form form, Format fmt, View<const std::uint16_t> x, View<const std::uint16_t> grad_output,
              View<std::uint16_t> grad_input, Path path = Path::accurate);

// Threads for map and backward over large arrays: off (1) by default, or GELUCHECK_THREADS=n in
// the environment at the first call. With n > 1, views that are all contiguous with at least
// 2^16 elements are split into n ranges; the results are the same bits whatever n is (elementwise).
// Not synchronized: set it before calls run, not during.
void set_threads(unsigned n);
unsigned threads();

}  // namespace gelucheck
