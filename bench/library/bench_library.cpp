// ns/element of map and backward over 1M elements (contiguous, rank 1), accurate vs naive, both
// forms, double and float, x uniform in [-8, 8] (fixed seed 42), grad_output uniform in [-1, 1].
// The counter "ns_per_element" is CPU time / elements.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "gelucheck/gelu.hpp"

namespace {

using gelucheck::Form;
using gelucheck::Path;
using gelucheck::View;

constexpr std::size_t kN = 1 << 20;

template <class T>
std::vector<T> uniform(T a, T b, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(static_cast<double>(a), static_cast<double>(b));
  std::vector<T> v(kN);
  for (auto& e : v) e = static_cast<T>(u(rng));
  return v;
}

// Items processed, and "ns_per_element" = CPU time / (iterations * kN).
void count_elements(benchmark::State& st) {
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * kN));
  st.counters["ns_per_element"] =
      benchmark::Counter(static_cast<double>(kN) * 1e-9, benchmark::Counter::kIsIterationInvariantRate |
                                                           benchmark::Counter::kInvert);
}

template <class T>
void BM_map(benchmark::State& st) {
  const Form f = st.range(0) ? Form::erf : Form::tanh;
  const Path p = st.range(1) ? Path::naive : Path::accurate;
  const auto x = uniform<T>(-8, 8, 42);
  std::vector<T> out(kN);
  for (auto _ : st) {
    gelucheck::map(f, View<const T>::contiguous(x.data(), {kN}), View<T>::contiguous(out.data(), {kN}), p);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  count_elements(st);
}

template <class T>
void BM_backward(benchmark::State& st) {
  const Form f = st.range(0) ? Form::erf : Form::tanh;
  const Path p = st.range(1) ? Path::naive : Path::accurate;
  const auto x = uniform<T>(-8, 8, 42), dy = uniform<T>(-1, 1, 43);
  std::vector<T> dx(kN);
  for (auto _ : st) {
    gelucheck::backward(f, View<const T>::contiguous(x.data(), {kN}), View<const T>::contiguous(dy.data(), {kN}),
                        View<T>::contiguous(dx.data(), {kN}), p);
    benchmark::DoNotOptimize(dx.data());
    benchmark::ClobberMemory();
  }
  count_elements(st);
}

// Args: {form (0 tanh, 1 erf), path (0 accurate, 1 naive)}.
#define GELU_ARGS ArgNames({"erf", "naive"})->ArgsProduct({{0, 1}, {0, 1}})->Unit(benchmark::kMillisecond)
BENCHMARK(BM_map<double>)->GELU_ARGS;
BENCHMARK(BM_map<float>)->GELU_ARGS;
BENCHMARK(BM_backward<double>)->GELU_ARGS;
BENCHMARK(BM_backward<float>)->GELU_ARGS;

}  // namespace
