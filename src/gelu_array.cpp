// map, backward, pdiv and jacobian of gelucheck/gelu.hpp over strided views.
//
// Elementwise means elementwise: every element goes through the same scalar function
// (scalar / scalar_deriv of gelu_scalar.cpp) with no vector code and no state, so the bits of
// element i depend on x[i] only — never on i, the shape, the strides, the alignment or the
// position in the loop. tests/library/array_test.cpp checks it bit for bit.
//
// Checks happen before the first write: shapes (rank and extents), strides (one per dimension),
// null data with a non-zero size, offsets that overflow, outputs that overlap themselves, and
// outputs that partially overlap an input (exact aliasing — same data pointer, same strides —
// is allowed: in place). The overlap test is conservative: two views whose address ranges
// intersect are refused unless they alias exactly (e.g. interleaved even/odd views).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "gelucheck/gelu.hpp"

namespace gelucheck {

template <class T>
std::size_t View<T>::size() const {
  std::size_t n = 1;
  for (std::size_t d : shape) n *= d;
  return n;
}

template <class T>
View<T> View<T>::contiguous(T* data, std::vector<std::size_t> shape) {
  View v;
  v.data = data;
  v.strides.assign(shape.size(), 1);
  std::ptrdiff_t s = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {
    v.strides[k] = s;
    s *= static_cast<std::ptrdiff_t>(std::max<std::size_t>(shape[k], 1));
  }
  v.shape = std::move(shape);
  return v;
}

template struct View<double>;
template struct View<float>;
template struct View<const double>;
template struct View<const float>;

namespace {

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("gelucheck: " + what); }

// Element offsets (in elements) of the lowest and highest addressed elements of a non-empty view.
struct Extent {
  std::ptrdiff_t lo = 0, hi = 0;
};

// Validates a view and returns its element count; `name` names it in the message.
template <class T>
std::size_t check_view(const View<T>& v, const char* name) {
  if (v.strides.size() != v.shape.size())
    bad(std::string(name) + ": " + std::to_string(v.strides.size()) + " strides for rank " +
        std::to_string(v.shape.size()));
  std::size_t n = 1;
  for (std::size_t d : v.shape)
    if (__builtin_mul_overflow(n, d, &n)) bad(std::string(name) + ": element count overflows");
  if (n == 0) return 0;
  if (v.data == nullptr) bad(std::string(name) + ": null data with " + std::to_string(n) + " elements");
  std::ptrdiff_t span = 0;
  for (std::size_t k = 0; k < v.shape.size(); ++k) {
    std::ptrdiff_t reach;
    if (v.shape[k] > static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()) ||
        __builtin_mul_overflow(static_cast<std::ptrdiff_t>(v.shape[k] - 1),
                               v.strides[k] < 0 ? -v.strides[k] : v.strides[k], &reach) ||
        __builtin_add_overflow(span, reach, &span) ||
        __builtin_mul_overflow(span, static_cast<std::ptrdiff_t>(sizeof(T)), &reach))
      bad(std::string(name) + ": offsets overflow");
  }
  return n;
}

template <class T>
Extent extent(const View<T>& v) {
  Extent e;
  for (std::size_t k = 0; k < v.shape.size(); ++k) {
    std::ptrdiff_t r = static_cast<std::ptrdiff_t>(v.shape[k] - 1) * v.strides[k];
    (r < 0 ? e.lo : e.hi) += r;
  }
  return e;
}

// A sufficient condition for an output view to address each element once: sorted by |stride|,
// every stride of a dimension of extent > 1 jumps past everything the smaller ones reach.
template <class T>
void check_no_self_overlap(const View<T>& v, const char* name) {
  std::vector<std::pair<std::ptrdiff_t, std::size_t>> dims;
  for (std::size_t k = 0; k < v.shape.size(); ++k)
    if (v.shape[k] > 1) dims.emplace_back(v.strides[k] < 0 ? -v.strides[k] : v.strides[k], v.shape[k]);
  std::sort(dims.begin(), dims.end());
  std::ptrdiff_t reach = 0;  // highest offset reached by the dimensions so far
  for (auto [s, n] : dims) {
    if (s <= reach) bad(std::string(name) + ": the view overlaps itself (a stride of " + std::to_string(s) + ")");
    reach += s * static_cast<std::ptrdiff_t>(n - 1);
  }
}

// Refuses views that share memory without being the same view (exact aliasing is fine).
template <class A, class B>
void check_alias(const View<A>& in, const View<B>& out, const char* in_name) {
  const auto a = reinterpret_cast<std::uintptr_t>(in.data), b = reinterpret_cast<std::uintptr_t>(out.data);
  Extent ea = extent(in), eb = extent(out);
  const auto sz = static_cast<std::intptr_t>(sizeof(A));
  const std::uintptr_t alo = a + static_cast<std::uintptr_t>(ea.lo * sz), ahi = a + static_cast<std::uintptr_t>((ea.hi + 1) * sz);
  const std::uintptr_t blo = b + static_cast<std::uintptr_t>(eb.lo * sz), bhi = b + static_cast<std::uintptr_t>((eb.hi + 1) * sz);
  if (ahi <= blo || bhi <= alo) return;  // disjoint
  bool same = a == b;
  for (std::size_t k = 0; same && k < in.shape.size(); ++k)
    same = in.shape[k] <= 1 || in.strides[k] == out.strides[k];
  if (!same) bad(std::string("output partially overlaps ") + in_name + " (only exact aliasing is allowed)");
}

template <class A, class B>
void check_same_shape(const View<A>& a, const View<B>& b, const char* an, const char* bn) {
  if (a.shape != b.shape) {
    auto str = [](const std::vector<std::size_t>& s) {
      std::string r = "[";
      for (std::size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
      return r + "]";
    };
    bad(std::string("shape mismatch: ") + an + " " + str(a.shape) + " vs " + bn + " " + str(b.shape));
  }
}

// Calls f(offset_0, offset_1, offset_2) for every multi-index, in row-major order, with the
// element offsets of up to three views of the same shape.
template <class F>
void for_each_index(const std::vector<std::size_t>& shape, const std::ptrdiff_t* s0, const std::ptrdiff_t* s1,
                    const std::ptrdiff_t* s2, F&& f) {
  const std::size_t rank = shape.size();
  for (std::size_t d : shape)
    if (d == 0) return;
  if (rank == 0) {
    f(0, 0, 0);
    return;
  }
  std::vector<std::size_t> idx(rank, 0);
  std::ptrdiff_t o0 = 0, o1 = 0, o2 = 0;
  const std::size_t last = rank - 1, inner = shape[last];
  const std::ptrdiff_t i0 = s0[last], i1 = s1[last], i2 = s2[last];
  for (;;) {
    for (std::size_t i = 0; i < inner; ++i) {
      const auto ii = static_cast<std::ptrdiff_t>(i);
      f(o0 + ii * i0, o1 + ii * i1, o2 + ii * i2);
    }
    // Advance the outer dimensions (odometer).
    std::size_t k = last;
    for (;;) {
      if (k == 0) return;
      --k;
      if (++idx[k] < shape[k]) {
        o0 += s0[k];
        o1 += s1[k];
        o2 += s2[k];
        break;
      }
      const auto back = static_cast<std::ptrdiff_t>(shape[k] - 1);
      o0 -= back * s0[k];
      o1 -= back * s1[k];
      o2 -= back * s2[k];
      idx[k] = 0;
    }
  }
}

template <class T>
void map_impl(Form form, View<const T> x, View<T> out, Path path) {
  check_view(x, "x");
  check_view(out, "out");
  check_same_shape(x, out, "x", "out");
  if (x.size() == 0) return;
  check_no_self_overlap(out, "out");
  check_alias(x, out, "x");
  const T* xp = x.data;
  T* op = out.data;
  for_each_index(x.shape, x.strides.data(), out.strides.data(), out.strides.data(),
                 [&](std::ptrdiff_t a, std::ptrdiff_t b, std::ptrdiff_t) { op[b] = scalar(form, xp[a], path); });
}

template <class T>
void backward_impl(Form form, View<const T> x, View<const T> dy, View<T> dx, Path path) {
  check_view(x, "x");
  check_view(dy, "grad_output");
  check_view(dx, "grad_input");
  check_same_shape(x, dx, "x", "grad_input");
  check_same_shape(dy, dx, "grad_output", "grad_input");
  if (x.size() == 0) return;
  check_no_self_overlap(dx, "grad_input");
  check_alias(x, dx, "x");
  check_alias(dy, dx, "grad_output");
  const T* xp = x.data;
  const T* gp = dy.data;
  T* op = dx.data;
  // One rounding: the product of grad_output[i] and the (rounded) derivative, in T.
  for_each_index(x.shape, x.strides.data(), dy.strides.data(), dx.strides.data(),
                 [&](std::ptrdiff_t a, std::ptrdiff_t g, std::ptrdiff_t o) {
                   op[o] = gp[g] * scalar_deriv(form, xp[a], path);
                 });
}

template <class T>
T pdiv_impl(Form form, std::span<const T> x, std::size_t i, std::size_t j, Path path) {
  if (i >= x.size() || j >= x.size())
    throw std::out_of_range("gelucheck::pdiv: index (" + std::to_string(i) + ", " + std::to_string(j) +
                            ") out of range for n = " + std::to_string(x.size()));
  return i == j ? scalar_deriv(form, x[i], path) : T(0);
}

constexpr std::size_t kMaxJacobian = 4096;

template <class T>
std::vector<T> jacobian_impl(Form form, std::span<const T> x, Path path) {
  const std::size_t n = x.size();
  if (n > kMaxJacobian)
    bad("jacobian: n = " + std::to_string(n) + " exceeds " + std::to_string(kMaxJacobian) +
        " (the dense matrix would be n*n; use backward or pdiv)");
  std::vector<T> jac(n * n, T(0));
  for (std::size_t i = 0; i < n; ++i) jac[i * n + i] = scalar_deriv(form, x[i], path);
  return jac;
}

}  // namespace

void map(Form form, View<const double> x, View<double> out, Path path) { map_impl(form, std::move(x), std::move(out), path); }
void map(Form form, View<const float> x, View<float> out, Path path) { map_impl(form, std::move(x), std::move(out), path); }
void backward(Form form, View<const double> x, View<const double> grad_output, View<double> grad_input, Path path) {
  backward_impl(form, std::move(x), std::move(grad_output), std::move(grad_input), path);
}
void backward(Form form, View<const float> x, View<const float> grad_output, View<float> grad_input, Path path) {
  backward_impl(form, std::move(x), std::move(grad_output), std::move(grad_input), path);
}
double pdiv(Form form, std::span<const double> x, std::size_t i, std::size_t j, Path path) {
  return pdiv_impl(form, x, i, j, path);
}
float pdiv(Form form, std::span<const float> x, std::size_t i, std::size_t j, Path path) {
  return pdiv_impl(form, x, i, j, path);
}
std::vector<double> jacobian(Form form, std::span<const double> x, Path path) { return jacobian_impl(form, x, path); }
std::vector<float> jacobian(Form form, std::span<const float> x, Path path) { return jacobian_impl(form, x, path); }

}  // namespace gelucheck
