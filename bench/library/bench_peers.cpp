// The library beside its peers, in ONE process on the same arrays: ns per element of GELU forward
// (map) and backward (the VJP) over 4M elements, x uniform in [-8, 8] (seed 42, drawn in binary64
// and rounded to each dtype), dy uniform in [-1, 1] (seed 43), one thread everywhere:
//   accurate, naive   the library's two paths through its C API (gelu_c.h);
//   torch             PyTorch (Debian's python3-torch, embedded: the interpreter runs in this
//                     process, torch.set_num_threads(1)), torch._C._nn.gelu(out=) and
//                     aten::gelu_backward.grad_input on tensors that wrap these very arrays;
//   onednn            oneDNN's eltwise GELU through adapters/onednn (dlopen'ed, f32 and bf16 only);
//   copy              memcpy of x into the output array: the memory-bandwidth bound for scale.
// At the end a table of medians (ns/element) and ratios accurate/torch, accurate/onednn and
// accurate/copy is printed, from this run only (docs/benchmarks.md, "Library vs peers").
//   build/bench/library/bench_peers --benchmark_repetitions=7 --benchmark_enable_random_interleaving=true
#include <Python.h>
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "gelucheck/common.hpp"
#include "gelucheck/gelu_c.h"

namespace {

constexpr std::size_t kN = std::size_t{1} << 22;

struct Dtype {
  const char* name;  // f64 f32 bf16 f16
  gelucheck::Format fmt;
  std::size_t size;
  const char* torch;  // torch dtype, or nullptr (PyTorch 1.13 has no CPU GELU for f16)
  bool onednn;
};
const Dtype kDtypes[] = {{"f64", gelucheck::Format::binary64, 8, "float64", false},
                         {"f32", gelucheck::Format::binary32, 4, "float32", true},
                         {"bf16", gelucheck::Format::bfloat16, 2, "bfloat16", true},
                         {"f16", gelucheck::Format::binary16, 2, nullptr, false}};

// The arrays of one dtype, as raw bytes in that dtype's encoding.
struct Arrays {
  std::vector<unsigned char> x, dy, out;
};

Arrays make_arrays(const Dtype& d) {
  std::mt19937_64 rx(42), rd(43);
  std::uniform_real_distribution<double> ux(-8, 8), ud(-1, 1);
  Arrays a;
  a.x.resize(kN * d.size), a.dy.resize(kN * d.size), a.out.resize(kN * d.size);
  for (std::size_t i = 0; i < kN; ++i) {
    const double xv = gelucheck::round_to_format(ux(rx), d.fmt), dv = gelucheck::round_to_format(ud(rd), d.fmt);
    if (d.size == 8) {
      std::memcpy(&a.x[i * 8], &xv, 8), std::memcpy(&a.dy[i * 8], &dv, 8);
    } else if (d.size == 4) {
      const auto xf = static_cast<float>(xv), df = static_cast<float>(dv);
      std::memcpy(&a.x[i * 4], &xf, 4), std::memcpy(&a.dy[i * 4], &df, 4);
    } else {
      const auto xb = static_cast<std::uint16_t>(*gelucheck::to_bits(xv, d.fmt));
      const auto db = static_cast<std::uint16_t>(*gelucheck::to_bits(dv, d.fmt));
      std::memcpy(&a.x[i * 2], &xb, 2), std::memcpy(&a.dy[i * 2], &db, 2);
    }
  }
  return a;
}

std::map<std::string, Arrays>& arrays() {
  static std::map<std::string, Arrays> m;
  return m;
}

// ---- the library -------------------------------------------------------------------------------
int call_library(const Dtype& d, int form, bool backward, int path, Arrays& a) {
  const void* x = a.x.data();
  const void* dy = a.dy.data();
  void* out = a.out.data();
  const std::string n = d.name;
  if (n == "f64")
    return backward ? gelucheck_backward_f64(form, path, static_cast<const double*>(x), static_cast<const double*>(dy),
                                             static_cast<double*>(out), kN)
                    : gelucheck_map_f64(form, path, static_cast<const double*>(x), static_cast<double*>(out), kN);
  if (n == "f32")
    return backward ? gelucheck_backward_f32(form, path, static_cast<const float*>(x), static_cast<const float*>(dy),
                                             static_cast<float*>(out), kN)
                    : gelucheck_map_f32(form, path, static_cast<const float*>(x), static_cast<float*>(out), kN);
  const auto* x16 = static_cast<const std::uint16_t*>(x);
  const auto* dy16 = static_cast<const std::uint16_t*>(dy);
  auto* o16 = static_cast<std::uint16_t*>(out);
  if (n == "bf16")
    return backward ? gelucheck_backward_bf16(form, path, x16, dy16, o16, kN) : gelucheck_map_bf16(form, path, x16, o16, kN);
  return backward ? gelucheck_backward_f16(form, path, x16, dy16, o16, kN) : gelucheck_map_f16(form, path, x16, o16, kN);
}

// ---- PyTorch, embedded ---------------------------------------------------------------------------
// make(x, dy, out, dtype, form, backward) wraps the three buffers as tensors (no copy) and returns
// a callable that runs one forward or backward into `out`.
const char* kTorchHelper = R"(
import torch
torch.set_num_threads(1)
def make(bx, bdy, bout, dtype, form, backward):
    dt = getattr(torch, dtype)
    x, dy, out = (torch.frombuffer(b, dtype=dt) for b in (bx, bdy, bout))
    approx = 'tanh' if form == 0 else 'none'
    if backward:
        g = torch.ops.aten.gelu_backward.grad_input
        return lambda: g(dy, x, approximate=approx, grad_input=out)
    f = torch._C._nn.gelu
    return lambda: f(x, approximate=approx, out=out)
)";

PyObject* torch_make = nullptr;

bool init_torch() {
  Py_InitializeEx(0);
  if (PyRun_SimpleString(kTorchHelper) != 0) return false;
  PyObject* main = PyImport_AddModule("__main__");
  torch_make = PyObject_GetAttrString(main, "make");
  return torch_make != nullptr;
}

PyObject* memview(std::vector<unsigned char>& v) {
  return PyMemoryView_FromMemory(reinterpret_cast<char*>(v.data()), static_cast<Py_ssize_t>(v.size()), PyBUF_WRITE);
}

// ---- oneDNN, through the adapter's lib: subject ABI --------------------------------------------
void* onednn_lib() {
  static void* h = dlopen(GELUCHECK_ONEDNN_ADAPTER, RTLD_NOW | RTLD_LOCAL);
  return h;
}
using Fwd = void (*)(const void*, void*, std::size_t);
using Bwd = void (*)(const void*, const void*, void*, std::size_t);

// ---- benchmarks ----------------------------------------------------------------------------------
void count(benchmark::State& st) {
  st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * kN));
  st.counters["ns_per_element"] = benchmark::Counter(
      static_cast<double>(kN) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void register_all() {
  for (const Dtype& d : kDtypes) {
    arrays()[d.name] = make_arrays(d);
    Arrays* a = &arrays()[d.name];
    const std::string dt = d.name;
    benchmark::RegisterBenchmark(("copy/" + dt).c_str(), [a](benchmark::State& st) {
      for (auto _ : st) {
        std::memcpy(a->out.data(), a->x.data(), a->x.size());
        benchmark::ClobberMemory();
      }
      count(st);
    });
    for (int form = 0; form < 2; ++form) {
      for (bool bwd : {false, true}) {
        const std::string op = dt + "/" + (form ? "erf" : "tanh") + "/" + (bwd ? "backward" : "forward");
        for (int path = 0; path < 2; ++path) {
          benchmark::RegisterBenchmark(((path ? "naive/" : "accurate/") + op).c_str(),
                                       [=, &d](benchmark::State& st) {
                                         for (auto _ : st) {
                                           if (call_library(d, form, bwd, path, *a) != 0) st.SkipWithError("library call failed");
                                           benchmark::ClobberMemory();
                                         }
                                         count(st);
                                       });
        }
        if (d.torch && torch_make) {
          PyObject* fn = PyObject_CallFunction(torch_make, "NNNsii", memview(a->x), memview(a->dy), memview(a->out),
                                               d.torch, form, bwd ? 1 : 0);
          if (!fn) {
            PyErr_Print();
          } else {
            benchmark::RegisterBenchmark(("torch/" + op).c_str(), [fn](benchmark::State& st) {
              for (auto _ : st) {
                PyObject* r = PyObject_CallNoArgs(fn);
                if (!r) {
                  PyErr_Print();
                  st.SkipWithError("torch call failed");
                  break;
                }
                Py_DECREF(r);
              }
              count(st);
            });
          }
        }
        if (d.onednn && onednn_lib()) {
          const std::string sym = std::string("gelu_") + (form ? "erf" : "tanh") + (bwd ? "_backward_" : "_") + dt;
          void* f = dlsym(onednn_lib(), sym.c_str());
          if (f) {
            benchmark::RegisterBenchmark(("onednn/" + op).c_str(), [=](benchmark::State& st) {
              for (auto _ : st) {
                if (bwd) {
                  Bwd g;
                  std::memcpy(&g, &f, sizeof g);
                  g(a->x.data(), a->dy.data(), a->out.data(), kN);
                } else {
                  Fwd g;
                  std::memcpy(&g, &f, sizeof g);
                  g(a->x.data(), a->out.data(), kN);
                }
                benchmark::ClobberMemory();
              }
              count(st);
            });
          }
        }
      }
    }
  }
}

// Collects each benchmark's ns/element (the median when repeated) and prints the ratio table.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.error_occurred) continue;
      const bool repeated = r.repetitions > 1;
      repeated_ = repeated_ || repeated;
      if (repeated && !(r.run_type == Run::RT_Aggregate && r.aggregate_name == "median")) continue;
      const double ns = r.GetAdjustedCPUTime() * benchmark::GetTimeUnitMultiplier(benchmark::kNanosecond) /
                        benchmark::GetTimeUnitMultiplier(r.time_unit) / static_cast<double>(kN);
      ns_[r.run_name.function_name] = ns;
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    auto get = [&](const std::string& k) { auto it = ns_.find(k); return it == ns_.end() ? -1.0 : it->second; };
    auto cell = [](double v) { return v < 0 ? std::string("—") : fmt(v); };
    auto ratio = [](double a, double b) { return a < 0 || b < 0 ? std::string("—") : fmt(a / b) + "×"; };
    std::printf("\n| dtype, form, direction | accurate | naive | PyTorch | oneDNN | copy | accurate/PyTorch | "
                "accurate/oneDNN | accurate/copy |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Dtype& d : kDtypes)
      for (const char* form : {"tanh", "erf"})
        for (const char* dir : {"forward", "backward"}) {
          const std::string op = std::string(d.name) + "/" + form + "/" + dir;
          const double acc = get("accurate/" + op), tor = get("torch/" + op), one = get("onednn/" + op),
                       cp = get(std::string("copy/") + d.name);
          std::printf("| %s %s %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", d.name, form, dir, cell(acc).c_str(),
                      cell(get("naive/" + op)).c_str(), cell(tor).c_str(), cell(one).c_str(), cell(cp).c_str(),
                      ratio(acc, tor).c_str(), ratio(acc, one).c_str(), ratio(acc, cp).c_str());
        }
    std::printf("\n(ns per element, CPU time, %s over %zu elements; one thread)\n",
                repeated_ ? "medians" : "single runs", kN);
  }

 private:
  static std::string fmt(double v) {
    char b[32];
    std::snprintf(b, sizeof b, v < 10 ? "%.2f" : "%.1f", v);
    return b;
  }
  std::map<std::string, double> ns_;
  bool repeated_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (!init_torch()) std::fprintf(stderr, "bench_peers: PyTorch not available; its rows stay empty\n");
  if (!onednn_lib()) std::fprintf(stderr, "bench_peers: %s not loadable: %s\n", GELUCHECK_ONEDNN_ADAPTER, dlerror());
  register_all();
  RatioReporter rep;
  benchmark::RunSpecifiedBenchmarks(&rep);
  benchmark::Shutdown();
  return 0;
}
