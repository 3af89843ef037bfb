// binary16 and bfloat16 (src/gelu_half.cpp): every entry of the eight tables (all 65,536 inputs ×
// two formats × four functions) is proved at build time of the table (0 unproved) and equals the
// MPFR reference's correct rounding; map/backward over 16-bit views (strided, in place) and the C
// entry points give the scalar16 results, backward one rounding of dy times the rounded
// derivative (its vector loop also on its own); bad arguments are refused with nothing written.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gelucheck/gelu_c.h"
#include "gelucheck/gelu_kernel.hpp"
#include "gelucheck/reference.hpp"
#include "support.hpp"

namespace gelucheck::testing {
namespace {

constexpr Format kHalf[2] = {Format::binary16, Format::bfloat16};

std::uint16_t eval16(const Fn& f, Format fmt, std::uint16_t x) {
  return f.q == Quantity::value ? scalar16(f.form, fmt, x) : scalar_deriv16(f.form, fmt, x);
}

// Exhaustive: all 2^16 encodings of both formats, the four functions, against MPFR.
TEST(LibraryHalf, EveryEntryIsProvedAndCorrectlyRounded) {
  for (Format fmt : kHalf) {
    for (const Fn& f : kFns) {
      EXPECT_EQ(detail::half_unproved(fmt, f.form, f.q), 0) << f.name << " " << name(fmt);
      long checked = 0;
      for (std::uint32_t b = 0; b < 65536; ++b) {
        const auto x16 = static_cast<std::uint16_t>(b);
        const double x = from_bits(x16, fmt);
        const double got = from_bits(eval16(f, fmt, x16), fmt);
        if (std::isnan(x)) {
          ASSERT_TRUE(std::isnan(got)) << f.name << " " << name(fmt) << " NaN input " << b;
          continue;
        }
        const double want = ref::correctly_rounded(f.form, f.q, x, fmt);
        ASSERT_TRUE(same_bits(got, want)) << f.name << " " << name(fmt) << " input " << hex(x) << " expected "
                                          << hex(want) << " got " << hex(got);
        ++checked;
      }
      EXPECT_GT(checked, 60000) << f.name << " " << name(fmt);
    }
  }
}

TEST(LibraryHalf, ArraysAndTheCApiMatchScalar16) {
  std::mt19937 rng(65536);  // fixed seed
  const std::size_t n = 1500;
  std::vector<std::uint16_t> x(n), dy(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<std::uint16_t>(rng()), dy[i] = static_cast<std::uint16_t>(rng());
  x[0] = 0x8000, x[1] = 0x0000;  // -0, +0
  for (Format fmt : kHalf) {
    dy[2] = fmt == Format::binary16 ? 0x3c00 : 0x3f80;  // 1
    for (int form = 0; form < 2; ++form) {
      const Form f = form ? Form::erf : Form::tanh;
      std::vector<std::uint16_t> out(n), dx(n), out_c(n), dx_c(n);
      map(f, fmt, View<const std::uint16_t>::contiguous(x.data(), {n}), View<std::uint16_t>::contiguous(out.data(), {n}));
      backward(f, fmt, View<const std::uint16_t>::contiguous(x.data(), {n}),
               View<const std::uint16_t>::contiguous(dy.data(), {n}), View<std::uint16_t>::contiguous(dx.data(), {n}));
      auto map_c = fmt == Format::binary16 ? gelucheck_map_f16 : gelucheck_map_bf16;
      auto bwd_c = fmt == Format::binary16 ? gelucheck_backward_f16 : gelucheck_backward_bf16;
      ASSERT_EQ(map_c(form, 0, x.data(), out_c.data(), n), 0);
      ASSERT_EQ(bwd_c(form, 0, x.data(), dy.data(), dx_c.data(), n), 0);
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint16_t v = scalar16(f, fmt, x[i]);
        const std::uint16_t d = scalar_deriv16(f, fmt, x[i]);
        // One rounding of the exact product (two 16-bit significands fit in a double).
        const double p = from_bits(dy[i], fmt) * from_bits(d, fmt);
        const double want_dx = round_to_format(p, fmt);
        ASSERT_EQ(out[i], v) << name(fmt) << " input " << hex(from_bits(x[i], fmt));
        ASSERT_EQ(out_c[i], v);
        ASSERT_TRUE(same_bits(from_bits(dx[i], fmt), want_dx))
            << name(fmt) << " input " << hex(from_bits(x[i], fmt)) << " dy " << hex(from_bits(dy[i], fmt))
            << " expected " << hex(want_dx) << " got " << hex(from_bits(dx[i], fmt));
        ASSERT_EQ(dx_c[i], dx[i]);
      }
      EXPECT_EQ(dx[2], scalar_deriv16(f, fmt, x[2]));  // dy = 1
      EXPECT_EQ(out[0], 0x8000);                        // value(-0) = -0
      // Reversed into strided, and in place.
      std::vector<std::uint16_t> str(2 * n, 0xabcd);
      map(f, fmt, View<const std::uint16_t>{x.data() + (n - 1), {n}, {-1}}, View<std::uint16_t>{str.data(), {n}, {2}});
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(str[2 * i], out[n - 1 - i]);
        ASSERT_EQ(str[2 * i + 1], 0xabcd);
      }
      std::vector<std::uint16_t> y = x;
      ASSERT_EQ(map_c(form, 0, y.data(), y.data(), n), 0);
      EXPECT_EQ(y, out);
      // The naive path runs (it claims nothing).
      ASSERT_EQ(map_c(form, 1, x.data(), out_c.data(), n), 0);
    }
  }
  // Bad arguments: nothing written.
  std::vector<std::uint16_t> out(n, 7);
  EXPECT_EQ(gelucheck_map_bf16(2, 0, x.data(), out.data(), n), 1);
  EXPECT_EQ(gelucheck_map_f16(0, 0, nullptr, out.data(), n), 2);
  EXPECT_EQ(gelucheck_backward_bf16(0, 0, x.data(), nullptr, out.data(), n), 2);
  EXPECT_EQ(gelucheck_map_f16(0, 0, out.data(), out.data() + 1, n - 1), 3);
  for (std::uint16_t v : out) EXPECT_EQ(v, 7);
  EXPECT_EQ(gelucheck_map_f16(0, 0, nullptr, nullptr, 0), 0);
  EXPECT_THROW(scalar16(Form::tanh, Format::binary32, 0), std::invalid_argument);
  EXPECT_THROW(map(Form::tanh, Format::binary64, View<const std::uint16_t>::contiguous(x.data(), {n}),
                   View<std::uint16_t>::contiguous(out.data(), {n})),
               std::invalid_argument);
}

// The vector loop of backward (src/gelu_half_simd.cpp) on its own: with ordinary inputs (products
// that are normal floats, and exact zeros) nearly every vector is done by its lanes, and each
// element is one rounding of the exact product, computed here by common's round_to_format. A
// vector it hands back to the scalar loop is marked instead and counted, so a loop that handed
// everything back would fail the count.
std::size_t g_handed_back = 0;
void mark_handed_back(bool, const std::uint16_t*, const std::uint16_t*, const std::uint16_t*, std::uint16_t* dx,
                      std::size_t n) {
  g_handed_back += n;
  for (std::size_t i = 0; i < n; ++i) dx[i] = 0xffff;
}

// map's vector loop gathers 4 bytes at each entry and keeps the low half: every encoding of both
// formats, in order (the last, 0xffff, reads the 2 bytes past the table) and reversed, in a
// separate output and in place, on every instruction set, against the table read directly.
TEST(LibraryHalf, VectorMapIsTheTable) {
  std::vector<std::uint16_t> all(65536);
  for (std::uint32_t b = 0; b < 65536; ++b) all[b] = static_cast<std::uint16_t>(b);
  std::vector<std::uint16_t> reversed(all.rbegin(), all.rend());
  on_every_target([&] {
    for (Format fmt : kHalf)
      for (Form form : {Form::tanh, Form::erf}) {
        const std::uint16_t* table = detail::half_table(fmt, form, Quantity::value);
        for (const std::vector<std::uint16_t>* x : {&all, &reversed}) {
          std::vector<std::uint16_t> out(x->size(), 0xabcd), inplace = *x;
          const std::size_t done = detail::half_map_simd(table, x->data(), out.data(), x->size());
          EXPECT_GE(done, x->size() - 64) << name(fmt) << ": the vector loop did almost nothing";
          detail::half_map(table, inplace.data(), inplace.data(), inplace.size());
          for (std::size_t i = 0; i < x->size(); ++i) {
            const std::uint16_t want = table[(*x)[i]];
            if (i < done) {
              ASSERT_EQ(out[i], want) << name(fmt) << " encoding " << (*x)[i] << " at " << i;
            }
            ASSERT_EQ(inplace[i], want) << name(fmt) << " in place, encoding " << (*x)[i];
          }
        }
      }
  });
}

// The vector loop on its own, on every instruction set (binary16 decodes by F16C on AVX2 and
// AVX-512, by Highway's integer emulation on SSE4 and the portable target, which turns inf and
// NaN encodings into finite values): every lane it stores is one rounding of the exact product.
// Two inputs: ordinary values (most vectors must be done by the vector lanes), and arbitrary
// encodings (subnormals, infinities, NaN, huge and tiny products: at least some vectors must be
// handed back, and the stored ones must still be right).
TEST(LibraryHalf, VectorBackwardLanesAreOneRoundingOfTheProduct) {
  const std::size_t n = 4099;
  on_every_target([&] {
    std::mt19937 rng(1616);  // fixed seed
    for (Format fmt : kHalf) {
      // Random values of fmt with exponents in [-6, 5] and either sign; every 97th one zero.
      auto ordinary = [&](std::size_t i) {
        if (i % 97 == 5) return *to_bits(i % 2 ? -0.0 : 0.0, fmt);
        const double m = 1 + static_cast<double>(rng() % 1024) / 1024;
        const int e = static_cast<int>(rng() % 12) - 6;
        return *to_bits(round_to_format(std::ldexp(rng() % 2 ? -m : m, e), fmt), fmt);
      };
      for (bool arbitrary : {false, true}) {
        std::vector<std::uint16_t> x(n), dy(n), dx(n);
        for (std::size_t i = 0; i < n; ++i) {
          x[i] = static_cast<std::uint16_t>(arbitrary ? rng() : ordinary(i));
          dy[i] = static_cast<std::uint16_t>(arbitrary ? rng() : ordinary(i + 1));
        }
        for (Form form : {Form::tanh, Form::erf}) {
          const std::uint16_t* table = detail::half_table(fmt, form, Quantity::derivative);
          g_handed_back = 0;
          const std::size_t done = detail::half_backward_simd(fmt == Format::bfloat16, table, x.data(), dy.data(),
                                                              dx.data(), n, mark_handed_back);
          EXPECT_GE(done, n - 64) << name(fmt);
          if (arbitrary) EXPECT_GT(g_handed_back, 0u) << name(fmt) << ": no vector was handed back";
          else EXPECT_LT(g_handed_back, n / 10) << name(fmt) << ": the vector lanes did almost nothing";
          std::size_t checked = 0;
          for (std::size_t i = 0; i < done; ++i) {
            if (dx[i] == 0xffff) continue;  // handed back
            const double want = round_to_format(from_bits(dy[i], fmt) * from_bits(table[x[i]], fmt), fmt);
            ASSERT_TRUE(same_bits(from_bits(dx[i], fmt), want))
                << name(fmt) << " x " << hex(from_bits(x[i], fmt)) << " dy " << hex(from_bits(dy[i], fmt))
                << " expected " << hex(want) << " got " << hex(from_bits(dx[i], fmt));
            ++checked;
          }
          EXPECT_GT(checked, n / 4) << name(fmt) << (arbitrary ? " (arbitrary encodings)" : "");
        }
      }
    }
  });
}

}  // namespace
}  // namespace gelucheck::testing
