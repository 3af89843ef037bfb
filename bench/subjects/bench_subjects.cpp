// Speed of out-of-process subjects (docs/benchmarks.md, "Subjects"): calls per second and
// elements per second through cmd: (the Python example, PyTorch's batch layout) and lib: (the
// oneDNN adapter; a library wrapping gelucheck's own accurate path) for batches of 1, 64 and
// 65536 elements. Wall time (UseRealTime): the cost is two processes and the pipes between them.
// A subject that cannot be opened here (no numpy, no torch, no oneDNN) is skipped with a message.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gelucheck/subject.hpp"
#include "process_subject.hpp"

namespace {

using namespace gelucheck;
using namespace gelucheck::subject;

struct Case {
  const char* label;
  std::string spec;  // cmd:... or lib:...
  Op op;
};

std::vector<Case> cases() {
  const std::string py = GELUCHECK_PYTHON;
  const std::string ad = ADAPTERS_DIR;
  std::vector<Case> c = {
      {"cmd_python_example", "cmd:" + py + " " + ad + "/python/examples/my_gelu.py",
       {Form::tanh, Direction::forward, Format::binary64}},
      {"cmd_torch_batch", "cmd:" + py + " " + ad + "/python/torch_subject.py --layout batch --threads 1",
       {Form::tanh, Direction::forward, Format::binary64}},
  };
#ifdef ONEDNN_LIB
  c.push_back({"lib_onednn", std::string("lib:") + ONEDNN_LIB, {Form::erf, Direction::forward, Format::binary32}});
#endif
#ifdef GOOD_LIB
  c.push_back({"lib_accurate", std::string("lib:") + GOOD_LIB, {Form::tanh, Direction::forward, Format::binary64}});
#endif
  return c;
}

// One open subject per case, kept across the benchmark's runs (opening costs the interpreter's
// start, which is not what is measured).
Subject* subject_for(const Case& c, std::string& why) {
  static std::map<std::string, std::unique_ptr<Subject>> open;
  auto it = open.find(c.spec);
  if (it != open.end()) return it->second.get();
  try {
    const std::string_view rest = std::string_view(c.spec).substr(4);
    auto subj = c.spec.rfind("cmd:", 0) == 0 ? open_cmd(rest, {}) : open_lib(rest, {});
    return open.emplace(c.spec, std::move(subj)).first->second.get();
  } catch (const SpecError& e) {
    why = e.what();
    return nullptr;
  }
}

void run(benchmark::State& state, Case c) {
  std::string why;
  Subject* s = subject_for(c, why);
  if (!s) {
    state.SkipWithError(why.c_str());
    return;
  }
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<unsigned char> x(n * element_size(c.op.format)), y(x.size());
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-8, 8);
  for (std::size_t i = 0; i < n; ++i) store(c.op.format, u(rng), x.data(), i);
  for (auto _ : state) {
    const Status st = s->call({c.op, x.data(), nullptr, y.data(), n, 1});
    if (!st.ok()) {
      state.SkipWithError(st.message.c_str());
      return;
    }
  }
  state.counters["calls_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()),
                                                     benchmark::Counter::kIsRate);
  state.counters["elements_per_s"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(n), benchmark::Counter::kIsRate);
}

const bool registered = [] {
  for (const Case& c : cases())
    benchmark::RegisterBenchmark(c.label, run, c)->Arg(1)->Arg(64)->Arg(65536)->UseRealTime();
  return true;
}();

}  // namespace
