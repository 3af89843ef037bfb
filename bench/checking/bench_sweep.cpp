// The exhaustive sweep's cost per input (gelucheck::report::exhaustive::run, one worker thread,
// the erf form's value, claim faithful), by subject, in one run: what a wrong subject costs beside
// a right one. Each benchmark sweeps 2^24 consecutive binary32 bit patterns: "mid" is [0.5, 2),
// where the fast reference does most work; "small" is [2^-11, 2^-9). In-process subjects only:
// a lib: subject's host is another process, which one worker thread does not keep to one core
// (its sweep is timed whole, on both cores, in docs/benchmarks.md). Subjects:
//   accurate                          the library's accurate path: right
//   broken:away:2                     the same, every result moved two values away from 0: wrong
//   broken:away:2:erf.value@f32:0,0   the same wrapper confined to an empty range: right, with
//                                     the wrapper's own cost, the twin to compare the wrong one with
// Run: bench_sweep [--benchmark_repetitions=3 …]; figures in docs/benchmarks.md, "Exhaustive
// binary32".
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <utility>

#include "gelucheck/exhaustive.hpp"

namespace {

namespace ex = gelucheck::report::exhaustive;

void sweep(benchmark::State& st, const std::string& spec, std::uint64_t lo, std::uint64_t hi) {
  ex::SweepOptions o;
  o.report.subjects = {spec};
  o.report.claims = {"faithful"};
  o.report.functions = {*gelucheck::parse_function("erf.value")};
  o.report.threads = 1;
  o.range = {lo, hi};
  for (auto _ : st) {
    ex::Sweep s = ex::run(o);
    benchmark::DoNotOptimize(s.inputs);
  }
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * (hi - lo)));
}

constexpr std::uint64_t kMid[2] = {0x3f000000, 0x40000000};    // [0.5, 2)
constexpr std::uint64_t kSmall[2] = {0x3a000000, 0x3b000000};  // [2^-11, 2^-9)

void add(const std::string& label, const std::string& spec) {
  for (const auto& [name, r] : {std::pair{"mid", kMid}, std::pair{"small", kSmall}})
    benchmark::RegisterBenchmark((label + "/" + name).c_str(), [spec, r = r](benchmark::State& st) {
      sweep(st, spec, r[0], r[1]);
    })->Unit(benchmark::kMillisecond)->UseRealTime();
}

}  // namespace

int main(int argc, char** argv) {
  add("accurate", "accurate");
  add("broken_away_2", "broken:away:2");
  add("broken_away_2_confined", "broken:away:2:erf.value@f32:0,0");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
