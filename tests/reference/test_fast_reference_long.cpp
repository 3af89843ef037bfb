// Long tier: the fast reference over every binary32 input. Three parts (gtest filters select):
//   EveryInput.FallbackCounts     every non-NaN binary32 input of the four functions through
//                                 round_batch (all cores): how many the MPFR fallback decided.
//   EveryInput.TargetsAgree       every such input on every Highway target this CPU runs: the
//                                 same results, bit for bit, as on the best.
//   Strided.AgreesWithMpfr        every S-th binary32 bit pattern (S = GELUCHECK_FASTREF_STRIDE,
//                                 default 4099: ~1.05 million inputs a function) compared with
//                                 enclose(), all four functions, bit for bit.
//   SubRange.AgreesWithMpfr       every binary32 input in [a, b] (GELUCHECK_FASTREF_RANGE="a:b",
//                                 default -9:-8, the erf tail; both zeros when it holds 0) for
//                                 GELUCHECK_FASTREF_FUNCTION ("erf.value" by default; "all" for
//                                 the four) against enclose().
// Figures and times: docs/reference.md, "The fast reference".
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <hwy/targets.h>

#include "fast_compare.hpp"
#include "gelucheck/fast_reference.hpp"

namespace gelucheck {
namespace {

struct Fn {
  Form form;
  Quantity q;
};
constexpr Fn kAll[] = {{Form::tanh, Quantity::value},
                       {Form::tanh, Quantity::derivative},
                       {Form::erf, Quantity::value},
                       {Form::erf, Quantity::derivative}};

double as_double(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

unsigned threads() { return std::max(1u, std::thread::hardware_concurrency()); }

// Runs body(begin, end) over [0, n) in chunks on every core.
template <class Body>
void parallel_chunks(std::uint64_t n, std::uint64_t chunk, Body body) {
  std::atomic<std::uint64_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads(); ++t)
    pool.emplace_back([&] {
      for (;;) {
        const std::uint64_t b = next.fetch_add(chunk);
        if (b >= n) return;
        body(b, std::min(n, b + chunk));
      }
    });
  for (auto& th : pool) th.join();
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(EveryInput, FallbackCounts) {
  for (const Fn& fn : kAll) {
    const auto t0 = std::chrono::steady_clock::now();
    std::atomic<std::uint64_t> fast{0}, fallback{0};
    parallel_chunks(1ull << 32, 1 << 16, [&](std::uint64_t b, std::uint64_t e) {
      std::vector<double> xs;
      xs.reserve(e - b);
      for (std::uint64_t i = b; i < e; ++i) {
        const double x = as_double(static_cast<std::uint32_t>(i));
        if (!std::isnan(x)) xs.push_back(x);
      }
      std::vector<ref::Rounded> out(xs.size());
      ref::FastStats st;
      ref::round_batch(fn.form, fn.q, Format::binary32, xs, out, &st);
      fast += st.fast;
      fallback += st.fallback;
    });
    EXPECT_EQ(fast + fallback, 4278190082ull);  // 2^32 - 2^24 + 2 non-NaN patterns
    std::printf("%s %s: %llu inputs, %llu by the MPFR fallback, %.0f s on %u threads\n",
                name(fn.form).data(), name(fn.q).data(),
                static_cast<unsigned long long>(fast + fallback),
                static_cast<unsigned long long>(fallback.load()), seconds_since(t0), threads());
    std::fflush(stdout);  // one line a function, seen as it comes
  }
}

// Every Highway target this CPU runs gives the best target's results, bit for bit (every field,
// and which inputs it leaves to the MPFR fallback), on every non-NaN binary32 input of the four
// functions: each lane gets the operations one input gets alone whatever the vector width, and the
// one operation that differs (the exact product: fused where the target has FMA, Dekker's
// elsewhere) is exact either way. So the whole-range comparison with MPFR, made on one target
// (records/fastref-every-input), holds for every target that agrees here.
TEST(EveryInput, TargetsAgree) {
  const std::vector<std::int64_t> targets = ref::testing::fast_path_targets();
  ASSERT_FALSE(targets.empty());
  if (targets.size() == 1) GTEST_SKIP() << "only one target on this CPU";
  for (const Fn& fn : kAll) {
    const auto t0 = std::chrono::steady_clock::now();
    std::atomic<std::uint64_t> count{0}, differ{0};
    std::mutex mu;
    std::vector<std::string> bad;
    parallel_chunks(1ull << 32, 1 << 12, [&](std::uint64_t b, std::uint64_t e) {
      std::vector<double> xs;
      for (std::uint64_t i = b; i < e; ++i) {
        const double x = as_double(static_cast<std::uint32_t>(i));
        if (!std::isnan(x)) xs.push_back(x);
      }
      const std::size_t n = xs.size();
      struct Out {
        std::vector<double> f[5];
        std::vector<std::int64_t> sc, fl;
        std::vector<unsigned char> ok;
      };
      std::vector<Out> outs(targets.size());
      for (std::size_t t = 0; t < targets.size(); ++t) {
        Out& o = outs[t];
        for (auto& v : o.f) v.resize(n);
        o.sc.resize(n);
        o.fl.resize(n);
        o.ok.resize(n);
        ASSERT_TRUE(ref::testing::fast_path_on(
            targets[t], fn.form, fn.q, Format::binary32, xs,
            {o.f[0].data(), o.f[1].data(), o.f[2].data(), o.f[3].data(), o.f[4].data(), o.sc.data(), o.fl.data()},
            o.ok.data()));
      }
      auto same = [](double a, double c) {
        std::uint64_t u, v;
        std::memcpy(&u, &a, 8);
        std::memcpy(&v, &c, 8);
        return u == v;
      };
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t t = 1; t < targets.size(); ++t) {
          const Out& a = outs[0];
          const Out& o = outs[t];
          bool eq = a.ok[i] == o.ok[i];
          if (eq && a.ok[i])
            for (int k = 0; k < 5; ++k) eq = eq && same(a.f[k][i], o.f[k][i]);
          if (eq && a.ok[i]) eq = a.sc[i] == o.sc[i] && a.fl[i] == o.fl[i];
          if (eq) continue;
          ++differ;
          std::lock_guard<std::mutex> lock(mu);
          if (bad.size() < 20)
            bad.push_back(std::string(name(fn.form)) + " " + std::string(name(fn.q)) + " x = " + hexfloat(xs[i]) +
                          ": target " + hwy::TargetName(targets[t]) + " differs from " + hwy::TargetName(targets[0]));
        }
      count += n;
    });
    for (const std::string& m : bad) ADD_FAILURE() << m;
    std::printf("%s %s: %llu inputs on %zu targets (", name(fn.form).data(), name(fn.q).data(),
                static_cast<unsigned long long>(count.load()), targets.size());
    for (std::size_t t = 0; t < targets.size(); ++t) std::printf("%s%s", t ? ", " : "", hwy::TargetName(targets[t]));
    std::printf("), %llu differences, %.0f s\n", static_cast<unsigned long long>(differ.load()), seconds_since(t0));
    std::fflush(stdout);
  }
}

// Compares every input i of `inputs` (given by index) with enclose(); at most 20 messages.
template <class Input>
void agree(const Fn& fn, std::uint64_t n, Input input) {
  const auto t0 = std::chrono::steady_clock::now();
  std::mutex mu;
  std::vector<std::string> bad;
  std::atomic<std::uint64_t> count{0}, fallback{0};
  parallel_chunks(n, 4096, [&](std::uint64_t b, std::uint64_t e) {
    std::vector<double> xs;
    for (std::uint64_t i = b; i < e; ++i) {
      const double x = input(i);
      if (!std::isnan(x)) xs.push_back(x);
    }
    std::vector<ref::Rounded> out(xs.size());
    ref::FastStats st;
    ref::round_batch(fn.form, fn.q, Format::binary32, xs, out, &st);
    fallback += st.fallback;
    count += xs.size();
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const std::string m = compare(fn.form, fn.q, Format::binary32, xs[i], out[i]);
      if (!m.empty()) {
        std::lock_guard<std::mutex> lock(mu);
        if (bad.size() < 20) bad.push_back(m);
      }
    }
  });
  for (const std::string& m : bad) ADD_FAILURE() << m;
  std::printf("%s %s: %llu inputs compared with MPFR, %zu disagreements, %llu fallbacks, %.0f s\n",
              name(fn.form).data(), name(fn.q).data(),
              static_cast<unsigned long long>(count.load()), bad.size(),
              static_cast<unsigned long long>(fallback.load()), seconds_since(t0));
  std::fflush(stdout);
}

TEST(Strided, AgreesWithMpfr) {
  const char* env = std::getenv("GELUCHECK_FASTREF_STRIDE");
  const std::uint64_t stride = env ? std::strtoull(env, nullptr, 10) : 4099;
  ASSERT_GT(stride, 0u);
  for (const Fn& fn : kAll)
    agree(fn, ((1ull << 32) + stride - 1) / stride,
          [&](std::uint64_t i) { return as_double(static_cast<std::uint32_t>(i * stride)); });
}

TEST(SubRange, AgreesWithMpfr) {
  const char* range = std::getenv("GELUCHECK_FASTREF_RANGE");
  const std::string r = range ? range : "-9:-8";
  const auto colon = r.find(':');
  ASSERT_NE(colon, std::string::npos) << "GELUCHECK_FASTREF_RANGE is a:b";
  const auto a = parse_real(r.substr(0, colon)), b = parse_real(r.substr(colon + 1));
  ASSERT_TRUE(a && b && *a <= *b);
  const float lo = static_cast<float>(*a), hi = static_cast<float>(*b);
  // the inputs in [lo, hi] in increasing order: by their ordered integer keys
  auto key = [](float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return (u >> 31) ? static_cast<std::int64_t>(0x80000000u) - static_cast<std::int64_t>(u & 0x7fffffffu)
                     : static_cast<std::int64_t>(0x80000000u) + u;
  };
  const std::int64_t k0 = key(lo), k1 = key(hi);
  auto from_key = [](std::int64_t k) {
    const std::int64_t d = k - static_cast<std::int64_t>(0x80000000u);
    const std::uint32_t u = d >= 0 ? static_cast<std::uint32_t>(d)
                                   : (0x80000000u | static_cast<std::uint32_t>(-d));
    return as_double(u);
  };
  // ±0 share one key; -0 (its own input, with its own results) is added after the keys when the
  // range holds zero, so that ranges tiling the keys cover all 2^32 - 2^24 + 2 non-NaN inputs.
  const std::int64_t zero = 0x80000000u;
  const std::uint64_t keys = static_cast<std::uint64_t>(k1 - k0 + 1);
  const std::uint64_t n = keys + (k0 <= zero && zero <= k1 ? 1 : 0);
  const char* which = std::getenv("GELUCHECK_FASTREF_FUNCTION");
  const std::string w = which ? which : "erf.value";
  for (const Fn& fn : kAll) {
    const std::string id = std::string(name(fn.form)) + "." + std::string(name(fn.q));
    if (w != "all" && w != id) continue;
    agree(fn, n, [&](std::uint64_t i) {
      return i < keys ? from_key(k0 + static_cast<std::int64_t>(i)) : -0.0;
    });
  }
}

}  // namespace
}  // namespace gelucheck
