// map, backward, pdiv and jacobian of gelucheck/gelu.hpp over strided views.
//
// Elementwise means elementwise: every element's bits are those of the scalar function
// (scalar / scalar_deriv of gelu_scalar.cpp) at that element's x — never dependent on i, the shape,
// the strides, the alignment, the position in the loop or the thread count. The accurate path runs
// whole rows (the innermost dimension) through detail::accurate_block (vector code, gelu_simd.cpp,
// whose lanes are independent and bit-identical to the scalar function), gathering strided rows
// into a buffer; the naive path calls the scalar function per element.
// tests/library/array_test.cpp and simd_test.cpp check it bit for bit.
//
// Threads (off by default, set_threads or GELUCHECK_THREADS): views that are all contiguous and
// row-major with at least kThreadMin elements are split into that many equal ranges, one per
// thread; elementwise results do not depend on the split.
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
#include <thread>

#include <cstdlib>

#include "gelucheck/gelu.hpp"
#include "gelucheck/gelu_kernel.hpp"

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
template struct View<std::uint16_t>;
template struct View<const std::uint16_t>;

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

// Calls row(offset_0, offset_1, offset_2) for every row (every multi-index of all dimensions but
// the innermost), in row-major order, with the element offsets of the row's first element in up
// to three views of the same shape. Rank 0 is one row of one element.
template <class F>
void for_each_row(const std::vector<std::size_t>& shape, const std::ptrdiff_t* s0, const std::ptrdiff_t* s1,
                  const std::ptrdiff_t* s2, F&& row) {
  const std::size_t rank = shape.size();
  for (std::size_t d : shape)
    if (d == 0) return;
  if (rank <= 1) {
    row(0, 0, 0);
    return;
  }
  std::vector<std::size_t> idx(rank, 0);
  std::ptrdiff_t o0 = 0, o1 = 0, o2 = 0;
  const std::size_t last = rank - 1;
  for (;;) {
    row(o0, o1, o2);
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

// The innermost dimension's length and strides (1 and 1 at rank 0).
std::size_t inner_size(const std::vector<std::size_t>& shape) { return shape.empty() ? 1 : shape.back(); }
std::ptrdiff_t inner_stride(const std::vector<std::ptrdiff_t>& strides) { return strides.empty() ? 1 : strides.back(); }

template <class T>
bool is_contiguous(const View<T>& v) {
  std::ptrdiff_t s = 1;
  for (std::size_t k = v.shape.size(); k-- > 0;) {
    if (v.shape[k] > 1 && v.strides[k] != s) return false;
    s *= static_cast<std::ptrdiff_t>(v.shape[k]);
  }
  return true;
}

// ---- threads ---------------------------------------------------------------------------------
// Below kThreadMin elements a thread costs more than it saves (starting one is ~20 us; the
// accurate binary32 path does 2^16 elements in ~100 us on one core).
constexpr std::size_t kThreadMin = std::size_t{1} << 16;

unsigned initial_threads() {
  if (const char* e = std::getenv("GELUCHECK_THREADS")) {
    const long v = std::strtol(e, nullptr, 10);
    if (v >= 1 && v <= 256) return static_cast<unsigned>(v);
  }
  return 1;
}
unsigned& thread_count() {
  static unsigned n = initial_threads();
  return n;
}

// Runs f(lo, hi) over [0, n) split into equal ranges, one per thread (multiples of 256 elements,
// the vector block, so each thread's blocks start where a one-thread run's would).
template <class F>
void parallel_ranges(std::size_t n, F&& f) {
  const unsigned t = thread_count();
  if (t <= 1 || n < kThreadMin) {
    f(std::size_t{0}, n);
    return;
  }
  const std::size_t per = (n / t + 255) / 256 * 256;
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < t && i * per < n; ++i)
    pool.emplace_back([&f, i, per, n] { f(i * per, std::min(n, (i + 1) * per)); });
  f(0, std::min(n, per));
  for (auto& th : pool) th.join();
}

// Strided rows go through buffers of kBuf elements. 2048 rather than 256: each accurate_block call of
// the binary32 erf form ends by running erf_f32 on the lanes its direct pass marked (gelu_simd.cpp,
// RunErf32), a vector for a lane or two, ~0.2 ns per element in blocks of 256.
constexpr std::size_t kBuf = 2048;

// out[k * os] = accurate(x[k * xs]) for k < n (strides in elements).
template <class T>
void accurate_row(Form form, Quantity q, const T* x, std::ptrdiff_t xs, T* out, std::ptrdiff_t os, std::size_t n) {
  if (xs == 1 && os == 1) {
    detail::accurate_block(form, q, x, out, n);
    return;
  }
  T xb[kBuf], yb[kBuf];
  for (std::size_t i0 = 0; i0 < n; i0 += kBuf) {
    const std::size_t m = std::min(kBuf, n - i0);
    for (std::size_t j = 0; j < m; ++j) xb[j] = x[static_cast<std::ptrdiff_t>(i0 + j) * xs];
    detail::accurate_block(form, q, xb, yb, m);
    for (std::size_t j = 0; j < m; ++j) out[static_cast<std::ptrdiff_t>(i0 + j) * os] = yb[j];
  }
}

// dx[k * os] = dy[k * gs] * accurate derivative(x[k * xs]): the derivative of a block first (into
// a buffer), then the products, so in-place aliasing of x or dy with dx is safe.
template <class T>
void accurate_backward_row(Form form, const T* x, std::ptrdiff_t xs, const T* dy, std::ptrdiff_t gs, T* dx,
                           std::ptrdiff_t os, std::size_t n) {
  if (xs == 1 && gs == 1 && os == 1) {
    detail::accurate_backward_block(form, x, dy, dx, n);
    return;
  }
  T xb[kBuf], db[kBuf];
  for (std::size_t i0 = 0; i0 < n; i0 += kBuf) {
    const std::size_t m = std::min(kBuf, n - i0);
    const T* xr = x + static_cast<std::ptrdiff_t>(i0) * xs;
    if (xs != 1) {
      for (std::size_t j = 0; j < m; ++j) xb[j] = xr[static_cast<std::ptrdiff_t>(j) * xs];
      xr = xb;
    }
    detail::accurate_block(form, Quantity::derivative, xr, db, m);
    for (std::size_t j = 0; j < m; ++j) {
      const auto k = static_cast<std::ptrdiff_t>(i0 + j);
      dx[k * os] = dy[k * gs] * db[j];
    }
  }
}

template <class T>
void map_impl(Form form, View<const T> x, View<T> out, Path path) {
  check_view(x, "x");
  check_view(out, "out");
  check_same_shape(x, out, "x", "out");
  const std::size_t n = x.size();
  if (n == 0) return;
  check_no_self_overlap(out, "out");
  check_alias(x, out, "x");
  const T* xp = x.data;
  T* op = out.data;
  if (is_contiguous(x) && is_contiguous(out)) {
    parallel_ranges(n, [&](std::size_t lo, std::size_t hi) {
      if (path == Path::accurate) {
        detail::accurate_block(form, Quantity::value, xp + lo, op + lo, hi - lo);
      } else {
        for (std::size_t i = lo; i < hi; ++i) op[i] = scalar(form, xp[i], path);
      }
    });
    return;
  }
  const std::size_t inner = inner_size(x.shape);
  const std::ptrdiff_t ix = inner_stride(x.strides), io = inner_stride(out.strides);
  for_each_row(x.shape, x.strides.data(), out.strides.data(), out.strides.data(),
               [&](std::ptrdiff_t a, std::ptrdiff_t b, std::ptrdiff_t) {
                 if (path == Path::accurate) {
                   accurate_row(form, Quantity::value, xp + a, ix, op + b, io, inner);
                 } else {
                   for (std::size_t i = 0; i < inner; ++i) {
                     const auto ii = static_cast<std::ptrdiff_t>(i);
                     op[b + ii * io] = scalar(form, xp[a + ii * ix], path);
                   }
                 }
               });
}

template <class T>
void backward_impl(Form form, View<const T> x, View<const T> dy, View<T> dx, Path path) {
  check_view(x, "x");
  check_view(dy, "grad_output");
  check_view(dx, "grad_input");
  check_same_shape(x, dx, "x", "grad_input");
  check_same_shape(dy, dx, "grad_output", "grad_input");
  const std::size_t n = x.size();
  if (n == 0) return;
  check_no_self_overlap(dx, "grad_input");
  check_alias(x, dx, "x");
  check_alias(dy, dx, "grad_output");
  const T* xp = x.data;
  const T* gp = dy.data;
  T* op = dx.data;
  // One rounding: the product of grad_output[i] and the (rounded) derivative, in T.
  auto row = [&](std::ptrdiff_t a, std::ptrdiff_t ix, std::ptrdiff_t g, std::ptrdiff_t ig, std::ptrdiff_t o,
                 std::ptrdiff_t io, std::size_t m) {
    if (path == Path::accurate) {
      accurate_backward_row(form, xp + a, ix, gp + g, ig, op + o, io, m);
    } else {
      for (std::size_t i = 0; i < m; ++i) {
        const auto ii = static_cast<std::ptrdiff_t>(i);
        op[o + ii * io] = gp[g + ii * ig] * scalar_deriv(form, xp[a + ii * ix], path);
      }
    }
  };
  if (is_contiguous(x) && is_contiguous(dy) && is_contiguous(dx)) {
    parallel_ranges(n, [&](std::size_t lo, std::size_t hi) {
      const auto l = static_cast<std::ptrdiff_t>(lo);
      row(l, 1, l, 1, l, 1, hi - lo);
    });
    return;
  }
  const std::size_t inner = inner_size(x.shape);
  const std::ptrdiff_t ix = inner_stride(x.strides), ig = inner_stride(dy.strides), io = inner_stride(dx.strides);
  for_each_row(x.shape, x.strides.data(), dy.strides.data(), dx.strides.data(),
               [&](std::ptrdiff_t a, std::ptrdiff_t g, std::ptrdiff_t o) { row(a, ix, g, ig, o, io, inner); });
}

// 16-bit formats: the accurate path looks each element up in its function's table (gelu_half.cpp),
// the naive path calls scalar16; the same checks as above, before the first write.
void check16(Format fmt) {
  if (fmt != Format::binary16 && fmt != Format::bfloat16)
    bad("16-bit map/backward need binary16 or bfloat16, not " + std::string(name(fmt)));
}

void map16_impl(Form form, Format fmt, View<const std::uint16_t> x, View<std::uint16_t> out, Path path) {
  check16(fmt);
  check_view(x, "x");
  check_view(out, "out");
  check_same_shape(x, out, "x", "out");
  if (x.size() == 0) return;
  check_no_self_overlap(out, "out");
  check_alias(x, out, "x");
  const std::uint16_t* table = path == Path::accurate ? detail::half_table(fmt, form, Quantity::value) : nullptr;
  const std::uint16_t* xp = x.data;
  std::uint16_t* op = out.data;
  if (table && is_contiguous(x) && is_contiguous(out)) {
    detail::half_map(table, xp, op, x.size());
    return;
  }
  const std::size_t inner = inner_size(x.shape);
  const std::ptrdiff_t ix = inner_stride(x.strides), io = inner_stride(out.strides);
  for_each_row(x.shape, x.strides.data(), out.strides.data(), out.strides.data(),
               [&](std::ptrdiff_t a, std::ptrdiff_t b, std::ptrdiff_t) {
                 for (std::size_t i = 0; i < inner; ++i) {
                   const auto ii = static_cast<std::ptrdiff_t>(i);
                   const std::uint16_t v = xp[a + ii * ix];
                   op[b + ii * io] = table ? table[v] : scalar16(form, fmt, v, path);
                 }
               });
}

void backward16_impl(Form form, Format fmt, View<const std::uint16_t> x, View<const std::uint16_t> dy,
                     View<std::uint16_t> dx, Path path) {
  check16(fmt);
  check_view(x, "x");
  check_view(dy, "grad_output");
  check_view(dx, "grad_input");
  check_same_shape(x, dx, "x", "grad_input");
  check_same_shape(dy, dx, "grad_output", "grad_input");
  if (x.size() == 0) return;
  check_no_self_overlap(dx, "grad_input");
  check_alias(x, dx, "x");
  check_alias(dy, dx, "grad_output");
  const std::uint16_t* table = path == Path::accurate ? detail::half_table(fmt, form, Quantity::derivative) : nullptr;
  const std::uint16_t *xp = x.data, *gp = dy.data;
  std::uint16_t* op = dx.data;
  if (table && is_contiguous(x) && is_contiguous(dy) && is_contiguous(dx)) {
    detail::half_backward(fmt, table, xp, gp, op, x.size());
    return;
  }
  const std::size_t inner = inner_size(x.shape);
  const std::ptrdiff_t ix = inner_stride(x.strides), ig = inner_stride(dy.strides), io = inner_stride(dx.strides);
  for_each_row(x.shape, x.strides.data(), dy.strides.data(), dx.strides.data(),
               [&](std::ptrdiff_t a, std::ptrdiff_t g, std::ptrdiff_t o) {
                 for (std::size_t i = 0; i < inner; ++i) {
                   const auto ii = static_cast<std::ptrdiff_t>(i);
                   const std::uint16_t v = xp[a + ii * ix];
                   const std::uint16_t d = table ? table[v] : scalar_deriv16(form, fmt, v, path);
                   op[o + ii * io] = detail::half_product(fmt, gp[g + ii * ig], d);
                 }
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
void map(Form form, Format fmt, View<const std::uint16_t> x, View<std::uint16_t> out, Path path) {
  map16_impl(form, fmt, std::move(x), std::move(out), path);
}
void backward(Form form, Format fmt, View<const std::uint16_t> x, View<const std::uint16_t> grad_output,
              View<std::uint16_t> grad_input, Path path) {
  backward16_impl(form, fmt, std::move(x), std::move(grad_output), std::move(grad_input), path);
}
void set_threads(unsigned n) { thread_count() = n == 0 ? 1 : n; }
unsigned threads() { return thread_count(); }
std::vector<float> jacobian(Form form, std::span<const float> x, Path path) { return jacobian_impl(form, x, path); }

}  // namespace gelucheck
