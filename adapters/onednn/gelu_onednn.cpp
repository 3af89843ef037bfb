// libgelucheck_onednn.so — oneDNN's GELU as a lib: subject (gelucheck/subject_abi.h):
// eltwise_forward / eltwise_backward with algorithm eltwise_gelu_tanh (tanh form) and
// eltwise_gelu_erf (erf form), for f32 and bf16, on the CPU engine, through the C++ API of
// oneDNN 2.x (dnnl.hpp).
//
// Each call runs one primitive over the n elements as a 1-D tensor (format tag `a`) wrapping the
// caller's arrays; the backward is eltwise_backward from src (diff_src = diff_dst · f'(src)),
// with diff_dst = dy, created with the forward primitive descriptor as its hint as oneDNN requires.
// Primitives are cached by (algorithm, data type, direction, n): creating one JIT-compiles a
// kernel, which would otherwise dominate every call.
//
// The ABI has no error channel: a primitive oneDNN cannot create or run is reported on stderr
// and the process aborts (gelucheck reports the call as crashed, quoting that line).
// gelucheck_subject_provides() tries each primitive first, so that an op this machine cannot run
// (bf16 on a CPU without the instructions oneDNN needs) is withdrawn instead.
#include <dlfcn.h>
#include <dnnl.hpp>
#include <oneapi/dnnl/dnnl_debug.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "gelucheck/subject_abi.h"

namespace {

using dnnl::algorithm;
using dnnl::memory;

struct Prims {
  dnnl::eltwise_forward::primitive_desc fwd_pd;
  dnnl::primitive prim;  // the forward or the backward
};

struct Engine {
  dnnl::engine eng{dnnl::engine::kind::cpu, 0};
  dnnl::stream strm{eng};
  std::map<std::tuple<algorithm, memory::data_type, bool, memory::dim>, Prims> cache;
  std::mutex mu;
};

Engine& engine() {
  static Engine e;
  return e;
}

// The primitive for one op over n elements (n > 0); throws dnnl::error when oneDNN has none.
const Prims& prims(algorithm alg, memory::data_type dt, bool backward, memory::dim n) {
  Engine& e = engine();
  const auto key = std::make_tuple(alg, dt, backward, n);
  auto it = e.cache.find(key);
  if (it != e.cache.end()) return it->second;
  // Bounded: the checks call with many lengths (invariance under position and length).
  if (e.cache.size() >= 256) e.cache.clear();
  const memory::desc md({n}, dt, memory::format_tag::a);
  Prims p;
  p.fwd_pd = dnnl::eltwise_forward::primitive_desc(
      dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_training, alg, md), e.eng);
  if (backward) {
    const dnnl::eltwise_backward::primitive_desc bwd_pd(dnnl::eltwise_backward::desc(alg, md, md),
                                                        e.eng, p.fwd_pd);
    p.prim = dnnl::eltwise_backward(bwd_pd);
  } else {
    p.prim = dnnl::eltwise_forward(p.fwd_pd);
  }
  return e.cache.emplace(key, std::move(p)).first->second;
}

[[noreturn]] void fail(const char* what, const dnnl::error& err) {
  std::fprintf(stderr, "libgelucheck_onednn: %s: %s (dnnl status %d)\n", what, err.what(),
               static_cast<int>(err.status));
  std::abort();
}

// Runs the op over n elements: x (and dy) read, out written, each wrapped as a memory object.
void run(const char* what, algorithm alg, memory::data_type dt, const void* x, const void* dy,
         void* out, size_t n) {
  if (n == 0) return;
  Engine& e = engine();
  std::lock_guard<std::mutex> lock(e.mu);
  try {
    const auto dn = static_cast<memory::dim>(n);
    const bool bwd = dy != nullptr;
    const Prims& p = prims(alg, dt, bwd, dn);
    const memory::desc md({dn}, dt, memory::format_tag::a);
    // oneDNN takes non-const handles; it reads src and diff_dst only.
    memory src(md, e.eng, const_cast<void*>(x));
    memory res(md, e.eng, out);
    if (bwd) {
      memory diff_dst(md, e.eng, const_cast<void*>(dy));
      p.prim.execute(e.strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DIFF_DST, diff_dst},
                              {DNNL_ARG_DIFF_SRC, res}});
    } else {
      p.prim.execute(e.strm, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, res}});
    }
    e.strm.wait();
  } catch (const dnnl::error& err) {
    fail(what, err);
  }
}

void forward(const char* what, algorithm alg, memory::data_type dt, const void* x, void* y,
             size_t n) {
  run(what, alg, dt, x, nullptr, y, n);
}
void backward(const char* what, algorithm alg, memory::data_type dt, const void* x,
              const void* dy, void* dx, size_t n) {
  run(what, alg, dt, x, dy, dx, n);
}

// The thread count of oneDNN's OpenMP runtime (it changes the kernels' partitioning, and their
// speed a lot on a loaded machine), looked up at run time: the adapter does not link OpenMP itself.
std::string threads() {
  using fn = int (*)();
  if (const auto f = reinterpret_cast<fn>(dlsym(RTLD_DEFAULT, "omp_get_max_threads")))
    return ", OpenMP threads " + std::to_string(f());
  return "";
}

constexpr algorithm kTanh = algorithm::eltwise_gelu_tanh;
constexpr algorithm kErf = algorithm::eltwise_gelu_erf;
constexpr memory::data_type kF32 = memory::data_type::f32;
constexpr memory::data_type kBf16 = memory::data_type::bf16;

}  // namespace

extern "C" {

void gelu_tanh_f32(const float* x, float* y, size_t n) { forward("gelu_tanh_f32", kTanh, kF32, x, y, n); }
void gelu_erf_f32(const float* x, float* y, size_t n) { forward("gelu_erf_f32", kErf, kF32, x, y, n); }
void gelu_tanh_bf16(const uint16_t* x, uint16_t* y, size_t n) { forward("gelu_tanh_bf16", kTanh, kBf16, x, y, n); }
void gelu_erf_bf16(const uint16_t* x, uint16_t* y, size_t n) { forward("gelu_erf_bf16", kErf, kBf16, x, y, n); }

void gelu_tanh_backward_f32(const float* x, const float* dy, float* dx, size_t n) {
  backward("gelu_tanh_backward_f32", kTanh, kF32, x, dy, dx, n);
}
void gelu_erf_backward_f32(const float* x, const float* dy, float* dx, size_t n) {
  backward("gelu_erf_backward_f32", kErf, kF32, x, dy, dx, n);
}
void gelu_tanh_backward_bf16(const uint16_t* x, const uint16_t* dy, uint16_t* dx, size_t n) {
  backward("gelu_tanh_backward_bf16", kTanh, kBf16, x, dy, dx, n);
}
void gelu_erf_backward_bf16(const uint16_t* x, const uint16_t* dy, uint16_t* dx, size_t n) {
  backward("gelu_erf_backward_bf16", kErf, kBf16, x, dy, dx, n);
}

const char* gelucheck_subject_describe(void) {
  static const std::string d = [] {
    const dnnl_version_t* v = dnnl_version();
    return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
           std::to_string(v->patch) + " eltwise gelu_tanh/gelu_erf, cpu engine, ISA " +
           dnnl_cpu_isa2str(static_cast<dnnl_cpu_isa_t>(dnnl::get_effective_cpu_isa())) +
           threads();
  }();
  return d.c_str();
}

// Whether oneDNN can create the primitive for `op` ("tanh.forward.bf16", ...) on this machine.
int gelucheck_subject_provides(const char* op) {
  const std::string s = op;
  const algorithm alg = s.rfind("tanh.", 0) == 0 ? kTanh : kErf;
  const bool bwd = s.find(".backward.") != std::string::npos;
  const memory::data_type dt = s.size() > 5 && s.compare(s.size() - 5, 5, ".bf16") == 0 ? kBf16 : kF32;
  Engine& e = engine();
  std::lock_guard<std::mutex> lock(e.mu);
  try {
    (void)prims(alg, dt, bwd, 16);
    return 1;
  } catch (const dnnl::error& err) {
    std::fprintf(stderr, "libgelucheck_onednn: %s withdrawn: %s\n", op, err.what());
    return 0;
  }
}

}  // extern "C"
