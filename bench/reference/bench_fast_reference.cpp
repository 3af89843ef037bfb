// Results per second of the fast reference (ref::round_columns, binary32: what the exhaustive
// sweep calls) and, in the same run, of the MPFR path it falls back to (ref::round_mpfr), for each
// of the four functions on: x uniform in [-8, 8]; the binary32 erf tail [-14.6, -8]; the tail
// [-38, -8]; every binary32 input in sweep order (bit-pattern order, a stride-4099 sample: 1.04
// million inputs); and the sweep's own order (64 runs of 2^14 consecutive patterns, one from every
// 2^26th pattern: every binade, both signs). Fixed seeds; the fast path runs batches of 4096.
// Run: bench_fast_reference [--benchmark_min_time=…]; figures in docs/benchmarks.md, "The fast
// reference".
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "gelucheck/fast_reference.hpp"

namespace {

using gelucheck::Form;
using gelucheck::Format;
using gelucheck::Quantity;
namespace ref = gelucheck::ref;

std::vector<double> uniform(double a, double b, std::size_t n) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> d(a, b);
  std::vector<double> xs(n);
  for (double& x : xs) x = static_cast<float>(d(rng));
  return xs;
}
std::vector<double> sweep_order() {
  std::vector<double> xs;
  for (std::uint64_t b = 0; b < (1ull << 32); b += 4099) {
    const std::uint32_t u = static_cast<std::uint32_t>(b);
    float f;
    std::memcpy(&f, &u, sizeof f);
    if (!std::isnan(f)) xs.push_back(f);
  }
  return xs;
}
std::vector<double> consecutive() {
  std::vector<double> xs;
  for (std::uint64_t b = 0; b < (1ull << 32); b += 1ull << 26)
    for (std::uint64_t p = b; p < b + (1u << 14); ++p) {
      const std::uint32_t u = static_cast<std::uint32_t>(p);
      float f;
      std::memcpy(&f, &u, sizeof f);
      if (!std::isnan(f)) xs.push_back(f);
    }
  return xs;
}
const std::vector<double>& inputs(int set) {
  static const std::vector<double> sets[5] = {uniform(-8, 8, 1 << 16), uniform(-14.6, -8, 1 << 16),
                                              uniform(-38, -8, 1 << 16), sweep_order(), consecutive()};
  return sets[set];
}

void fast(benchmark::State& state, Form form, Quantity q, int set) {
  const std::vector<double>& xs = inputs(set);
  std::vector<double> f[5];
  std::vector<std::int64_t> sc(4096), fl(4096);
  for (auto& v : f) v.resize(4096);
  const ref::RoundedColumns out{f[0].data(), f[1].data(), f[2].data(), f[3].data(), f[4].data(),
                                sc.data(), fl.data()};
  ref::round_columns(form, q, Format::binary32, std::span<const double>(xs.data(), 1), out);  // tables
  std::size_t i = 0;
  ref::FastStats stats;
  for (auto _ : state) {
    if (i + 4096 > xs.size()) i = 0;
    ref::round_columns(form, q, Format::binary32, std::span<const double>(xs.data() + i, 4096), out,
                       &stats);
    benchmark::DoNotOptimize(f[0].data());
    i += 4096;
  }
  state.SetItemsProcessed(state.iterations() * 4096);
  state.counters["fallback_share"] =
      static_cast<double>(stats.fallback) / static_cast<double>(stats.fast + stats.fallback);
}

void mpfr(benchmark::State& state, Form form, Quantity q, int set) {
  const std::vector<double>& all = inputs(set);
  std::vector<double> xs;  // 512 of the set, spread over it
  for (std::size_t k = 0; k < 512; ++k) xs.push_back(all[k * (all.size() / 512)]);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ref::round_mpfr(form, q, Format::binary32, xs[i]));
    i = (i + 1) % xs.size();
  }
  state.SetItemsProcessed(state.iterations());
}

#define GELUCHECK_BENCH_SET(fn, form, q)                                  \
  BENCHMARK_CAPTURE(fast, fn##_mid, form, q, 0);                          \
  BENCHMARK_CAPTURE(mpfr, fn##_mid, form, q, 0);                          \
  BENCHMARK_CAPTURE(fast, fn##_tail32, form, q, 1);                       \
  BENCHMARK_CAPTURE(mpfr, fn##_tail32, form, q, 1);                       \
  BENCHMARK_CAPTURE(fast, fn##_tail, form, q, 2);                         \
  BENCHMARK_CAPTURE(mpfr, fn##_tail, form, q, 2);                         \
  BENCHMARK_CAPTURE(fast, fn##_sweep, form, q, 3);                        \
  BENCHMARK_CAPTURE(mpfr, fn##_sweep, form, q, 3);                        \
  BENCHMARK_CAPTURE(fast, fn##_blocks, form, q, 4);                       \
  BENCHMARK_CAPTURE(mpfr, fn##_blocks, form, q, 4)

GELUCHECK_BENCH_SET(tanh_value, Form::tanh, Quantity::value);
GELUCHECK_BENCH_SET(tanh_derivative, Form::tanh, Quantity::derivative);
GELUCHECK_BENCH_SET(erf_value, Form::erf, Quantity::value);
GELUCHECK_BENCH_SET(erf_derivative, Form::erf, Quantity::derivative);

}  // namespace
