// Correctly rounded binary64 results per second of ref::correctly_rounded for each of the four
// functions, on x uniform in [-8, 8] and on the negative tail [-38, -8] (fixed seed; 256 points
// cycled). Run: bench_reference [--benchmark_min_time=…]; figures in docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "gelucheck/reference.hpp"

namespace {

using gelucheck::Form;
using gelucheck::Format;
using gelucheck::Quantity;

std::vector<double> uniform(double a, double b) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> d(a, b);
  std::vector<double> xs(256);
  for (double& x : xs) x = d(rng);
  return xs;
}

void run(benchmark::State& state, Form form, Quantity q, double a, double b) {
  const std::vector<double> xs = uniform(a, b);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        gelucheck::ref::correctly_rounded(form, q, xs[i], Format::binary64));
    i = (i + 1) % xs.size();
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK_CAPTURE(run, tanh_value_mid, Form::tanh, Quantity::value, -8, 8);
BENCHMARK_CAPTURE(run, tanh_derivative_mid, Form::tanh, Quantity::derivative, -8, 8);
BENCHMARK_CAPTURE(run, erf_value_mid, Form::erf, Quantity::value, -8, 8);
BENCHMARK_CAPTURE(run, erf_derivative_mid, Form::erf, Quantity::derivative, -8, 8);
BENCHMARK_CAPTURE(run, tanh_value_tail, Form::tanh, Quantity::value, -38, -8);
BENCHMARK_CAPTURE(run, tanh_derivative_tail, Form::tanh, Quantity::derivative, -38, -8);
BENCHMARK_CAPTURE(run, erf_value_tail, Form::erf, Quantity::value, -38, -8);
BENCHMARK_CAPTURE(run, erf_derivative_tail, Form::erf, Quantity::derivative, -38, -8);
