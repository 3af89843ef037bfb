// libgelucheck_ggml.so — ggml's CPU GELU as a lib: subject (gelucheck/subject_abi.h): ggml_gelu
// (the tanh form) and ggml_gelu_erf (the erf form), forward, for each element type ggml's CPU
// backend computes them in (f32 and f16; bf16 when it can), from the prebuilt libraries of the
// npm package @node-llama-cpp/linux-x64.
//
// Nothing of ggml is linked: libggml-base.so and one CPU variant, libggml-cpu-VARIANT.so, are
// dlopen()ed from the package's directory on first use, and each function is resolved by name
// with the type ggml's header gives it (include/, vendored). The variant is chosen as ggml's
// backend loader chooses it: each variant exports ggml_backend_score() (0 when this CPU lacks an
// instruction it was built for) and ggml_backend_init() (its backend registry entry); by default
// the one with the highest score runs. The environment set by the peer (subjects/src/
// peer_ggml.cpp) can ask for another:
//   GELUCHECK_GGML_VARIANT  one of kVariants (the default: the best this CPU runs)
//   GELUCHECK_GGML_THREADS  the CPU backend's thread count (default 1)
//   GELUCHECK_GGML_DIR      the package's directory of libraries (default: the one configured)
//
// Each call copies x into a backend buffer, computes a one-node graph (the op on a 1-D view of
// the first n elements) with the CPU backend and copies the result into y. The buffers are
// cached per (form, element type, length class: n rounded up to a power of two); the tensors and
// graph of a call are built in a small reused arena, which costs nothing next to the compute.
//
// The ABI has no error channel: a ggml call that fails (a NULL, a status other than success, or
// GGML_ABORT inside ggml) is reported on stderr and the process aborts, so gelucheck reports the
// call as crashed and quotes that line. gelucheck_subject_provides() first tries each op on 16
// elements in a forked child, so that an element type ggml's CPU backend aborts on is withdrawn
// instead: the CPU device's supports_op answers yes for every unary op whatever its type.
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "gelucheck/subject_abi.h"
#include "ggml-backend.h"

#ifndef GELUCHECK_GGML_DIR
#define GELUCHECK_GGML_DIR ""
#endif

namespace {

// The CPU variants the package ships, by increasing instruction set (as ggml names them).
const char* const kVariants[] = {"x64",        "sse42",       "sandybridge", "ivybridge",
                                 "piledriver", "haswell",     "skylakex",    "cannonlake",
                                 "cascadelake", "cooperlake", "icelake",     "alderlake",
                                 "sapphirerapids", "zen4"};

enum class Form { tanh, erf };

// libggml-base.so's functions the adapter calls, typed by the header's declarations.
struct Api {
#define GELUCHECK_GGML_FNS(X)                                                                   \
  X(ggml_version) X(ggml_commit) X(ggml_init) X(ggml_free) X(ggml_tensor_overhead)              \
  X(ggml_graph_overhead_custom) X(ggml_new_tensor_1d) X(ggml_view_1d) X(ggml_gelu)              \
  X(ggml_gelu_erf) X(ggml_new_graph_custom) X(ggml_build_forward_expand) X(ggml_get_data)       \
  X(ggml_status_to_string) X(ggml_backend_reg_dev_get) X(ggml_backend_reg_get_proc_address)     \
  X(ggml_backend_dev_init) X(ggml_backend_alloc_ctx_tensors) X(ggml_backend_tensor_alloc)       \
  X(ggml_backend_view_init) X(ggml_backend_tensor_set) X(ggml_backend_tensor_get)               \
  X(ggml_backend_graph_compute)
#define GELUCHECK_GGML_MEMBER(name) decltype(&::name) name = nullptr;
  GELUCHECK_GGML_FNS(GELUCHECK_GGML_MEMBER)
};

// A variant's entry points for ggml's backend loader (GGML_BACKEND_DL): not in the public headers.
using ScoreFn = int (*)();
using InitFn = ggml_backend_reg_t (*)();

// Buffers for one (form, type, length class): x and the result, `cap` elements each.
struct Buffers {
  ggml_context* ctx = nullptr;
  ggml_tensor* x = nullptr;
  ggml_tensor* y = nullptr;
  ggml_backend_buffer_t buffer = nullptr;
};

struct Ggml {
  std::mutex mu;
  bool ready = false;
  std::string error;  // why nothing can run (set by init: a missing library, a variant asked
                      // for that this CPU cannot run)
  Api api;
  std::string variant;
  std::vector<std::string> runnable;  // the variants whose score is not 0
  int threads = 1;
  ggml_backend_t backend = nullptr;
  std::map<std::tuple<Form, ggml_type, size_t>, Buffers> cache;
  std::vector<unsigned char> arena;
  std::map<std::string, bool> probed;  // op name -> computes
};

Ggml& g() {
  static Ggml s;
  return s;
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "libgelucheck_ggml: %s\n", what.c_str());
  std::abort();
}

std::string dir() {
  const char* d = std::getenv("GELUCHECK_GGML_DIR");
  return d && *d ? d : GELUCHECK_GGML_DIR;
}

int threads_from_env() {
  const char* t = std::getenv("GELUCHECK_GGML_THREADS");
  const int v = t ? std::atoi(t) : 1;
  return v >= 1 && v <= 1024 ? v : 1;
}

// Loads base and variant, and creates the CPU backend; on failure says why in s.error.
void init_locked(Ggml& s) {
  if (s.ready || !s.error.empty()) return;
  // On GGML_ABORT, ggml would attach a debugger to print a backtrace; the harness's report of the
  // crash quotes ggml's own message line, and a debugger would only make the crash slow.
  setenv("GGML_NO_BACKTRACE", "1", 0);
  const std::string d = dir();
  if (d.empty()) {
    s.error = "no ggml library directory (GELUCHECK_GGML_DIR unset, none configured)";
    return;
  }
  void* base = dlopen((d + "/libggml-base.so").c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!base) {
    s.error = std::string("cannot load libggml-base.so: ") + dlerror();
    return;
  }
#define GELUCHECK_GGML_RESOLVE(name)                                                 \
  s.api.name = reinterpret_cast<decltype(&::name)>(dlsym(base, #name));              \
  if (!s.api.name) {                                                                 \
    s.error = "libggml-base.so has no " #name;                                       \
    return;                                                                          \
  }
  GELUCHECK_GGML_FNS(GELUCHECK_GGML_RESOLVE)

  // Every variant's score, as ggml_backend_load_best() compares them: the first of the highest.
  int best_score = 0;
  std::string best;
  for (const char* v : kVariants) {
    void* h = dlopen((d + "/libggml-cpu-" + v + ".so").c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) continue;
    const auto score = reinterpret_cast<ScoreFn>(dlsym(h, "ggml_backend_score"));
    const int sc = score ? score() : 0;
    if (sc > 0) s.runnable.emplace_back(v);
    if (sc > best_score) best_score = sc, best = v;
    dlclose(h);
  }
  const char* asked = std::getenv("GELUCHECK_GGML_VARIANT");
  s.variant = asked && *asked ? asked : best;
  bool known = false;
  for (const char* v : kVariants) known = known || s.variant == v;
  if (!known) {
    s.error = s.variant.empty() ? "this CPU can run no CPU variant of ggml"
                                : "unknown CPU variant \"" + s.variant + "\"";
    return;
  }
  bool runs = false;
  for (const std::string& v : s.runnable) runs = runs || v == s.variant;
  if (!runs) {
    s.error = "this CPU cannot run the " + s.variant + " build of ggml (its score is 0)";
    return;
  }
  void* cpu = dlopen((d + "/libggml-cpu-" + s.variant + ".so").c_str(), RTLD_NOW | RTLD_LOCAL);
  const auto reg_init = cpu ? reinterpret_cast<InitFn>(dlsym(cpu, "ggml_backend_init")) : nullptr;
  const ggml_backend_reg_t reg = reg_init ? reg_init() : nullptr;
  const ggml_backend_dev_t dev = reg ? s.api.ggml_backend_reg_dev_get(reg, 0) : nullptr;
  s.backend = dev ? s.api.ggml_backend_dev_init(dev, nullptr) : nullptr;
  if (!s.backend) {
    s.error = "cannot create the CPU backend of libggml-cpu-" + s.variant + ".so";
    return;
  }
  s.threads = threads_from_env();
  const auto set_threads = reinterpret_cast<ggml_backend_set_n_threads_t>(
      s.api.ggml_backend_reg_get_proc_address(reg, "ggml_backend_set_n_threads"));
  if (!set_threads) {
    s.error = "the CPU backend has no ggml_backend_set_n_threads";
    return;
  }
  set_threads(s.backend, s.threads);
  // Enough for a call's three tensors and its one-node graph (no_alloc: metadata only).
  s.arena.resize(4 * s.api.ggml_tensor_overhead() + s.api.ggml_graph_overhead_custom(4, false) +
                 1024);
  s.ready = true;
}

Ggml& ready() {
  Ggml& s = g();
  init_locked(s);
  if (!s.ready) fail(s.error);
  return s;
}

size_t element_size(ggml_type t) { return t == GGML_TYPE_F32 ? 4 : 2; }

const Buffers& buffers(Ggml& s, Form form, ggml_type type, size_t n) {
  const size_t cap = std::bit_ceil(n);
  const auto key = std::make_tuple(form, type, cap);
  if (auto it = s.cache.find(key); it != s.cache.end()) return it->second;
  Buffers b;
  const ggml_init_params p{2 * s.api.ggml_tensor_overhead(), nullptr, true};
  b.ctx = s.api.ggml_init(p);
  if (!b.ctx) fail("ggml_init failed");
  b.x = s.api.ggml_new_tensor_1d(b.ctx, type, static_cast<int64_t>(cap));
  b.y = s.api.ggml_new_tensor_1d(b.ctx, type, static_cast<int64_t>(cap));
  if (b.x && b.y) b.buffer = s.api.ggml_backend_alloc_ctx_tensors(b.ctx, s.backend);
  if (!b.buffer)
    fail("cannot allocate two tensors of " + std::to_string(cap) + " elements");
  return s.cache.emplace(key, b).first->second;
}

void check(const Ggml& s, ggml_status st, const char* what) {
  if (st != GGML_STATUS_SUCCESS) fail(std::string(what) + ": " + s.api.ggml_status_to_string(st));
}

// y = the op over x's n elements (n > 0), computed by the CPU backend; s.mu is held.
void compute(Ggml& s, const char* what, Form form, ggml_type type, const void* x, void* y,
             size_t n) {
  const Buffers& b = buffers(s, form, type, n);
  const ggml_init_params p{s.arena.size(), s.arena.data(), true};
  ggml_context* ctx = s.api.ggml_init(p);
  if (!ctx) fail(std::string(what) + ": ggml_init failed");
  ggml_tensor* xv = s.api.ggml_view_1d(ctx, b.x, static_cast<int64_t>(n), 0);
  ggml_tensor* out = xv ? (form == Form::tanh ? s.api.ggml_gelu(ctx, xv) : s.api.ggml_gelu_erf(ctx, xv))
                        : nullptr;
  ggml_cgraph* graph = out ? s.api.ggml_new_graph_custom(ctx, 4, false) : nullptr;
  if (!graph) fail(std::string(what) + ": cannot build the graph");
  check(s, s.api.ggml_backend_view_init(xv), what);
  // The result goes into the cached y buffer (the op's own tensor has no memory: no_alloc).
  check(s, s.api.ggml_backend_tensor_alloc(b.buffer, out, s.api.ggml_get_data(b.y)), what);
  s.api.ggml_build_forward_expand(graph, out);
  const size_t bytes = n * element_size(type);
  s.api.ggml_backend_tensor_set(b.x, x, 0, bytes);
  check(s, s.api.ggml_backend_graph_compute(s.backend, graph), what);
  s.api.ggml_backend_tensor_get(out, y, 0, bytes);
  s.api.ggml_free(ctx);
}

void forward(const char* what, Form form, ggml_type type, const void* x, void* y, size_t n) {
  if (n == 0) return;
  std::lock_guard<std::mutex> lock(g().mu);
  compute(ready(), what, form, type, x, y, n);
}

// Whether the op computes: tried on 16 elements in a child process, since ggml's CPU backend
// aborts on an element type it has no kernel for. Cached; s.mu is not held across the fork.
bool computes(const std::string& op, Form form, ggml_type type) {
  Ggml& s = g();
  {
    std::lock_guard<std::mutex> lock(s.mu);
    init_locked(s);
    if (!s.ready) return false;
    if (auto it = s.probed.find(op); it != s.probed.end()) return it->second;
  }
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 2);
    std::vector<uint16_t> x(32), y(32);  // 16 elements of 4 bytes or 32 of 2: all zero bits
    compute(s, op.c_str(), form, type, x.data(), y.data(), 16);
    _exit(0);
  }
  int status = 0;
  const bool ok = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
                  WEXITSTATUS(status) == 0;
  if (!ok) {
    const std::string how = pid < 0               ? "could not fork"
                            : WIFSIGNALED(status) ? "died by signal " + std::to_string(WTERMSIG(status))
                                                  : "exited with an error";
    std::fprintf(stderr,
                 "libgelucheck_ggml: %s withdrawn: ggml's CPU backend (%s) fails on it (a trial "
                 "on 16 elements %s)\n",
                 op.c_str(), s.variant.c_str(), how.c_str());
  }
  std::lock_guard<std::mutex> lock(s.mu);
  s.probed[op] = ok;
  return ok;
}

const char* type_name(ggml_type t) {
  return t == GGML_TYPE_F32 ? "f32" : t == GGML_TYPE_F16 ? "f16" : "bf16";
}

}  // namespace

extern "C" {

void gelu_tanh_f32(const float* x, float* y, size_t n) { forward("gelu_tanh_f32", Form::tanh, GGML_TYPE_F32, x, y, n); }
void gelu_erf_f32(const float* x, float* y, size_t n) { forward("gelu_erf_f32", Form::erf, GGML_TYPE_F32, x, y, n); }
void gelu_tanh_f16(const uint16_t* x, uint16_t* y, size_t n) { forward("gelu_tanh_f16", Form::tanh, GGML_TYPE_F16, x, y, n); }
void gelu_erf_f16(const uint16_t* x, uint16_t* y, size_t n) { forward("gelu_erf_f16", Form::erf, GGML_TYPE_F16, x, y, n); }
void gelu_tanh_bf16(const uint16_t* x, uint16_t* y, size_t n) { forward("gelu_tanh_bf16", Form::tanh, GGML_TYPE_BF16, x, y, n); }
void gelu_erf_bf16(const uint16_t* x, uint16_t* y, size_t n) { forward("gelu_erf_bf16", Form::erf, GGML_TYPE_BF16, x, y, n); }

// Whether `op` ("tanh.forward.f16", ...) computes here; only forwards are exported.
int gelucheck_subject_provides(const char* op) {
  const std::string s = op;
  const Form form = s.rfind("tanh.", 0) == 0 ? Form::tanh : Form::erf;
  const std::string dt = s.substr(s.rfind('.') + 1);
  const ggml_type type = dt == "f32" ? GGML_TYPE_F32 : dt == "f16" ? GGML_TYPE_F16 : GGML_TYPE_BF16;
  return computes(s, form, type) ? 1 : 0;
}

// "ggml 0.23.0 (commit 5b4ebc5) CPU variant zen4, threads 1; gelu = ...; not provided: ...;
// this CPU runs the variants x64 sse42 ...": which kernel ran, and what else could have.
const char* gelucheck_subject_describe(void) {
  static const std::string d = [] {
    Ggml& s = g();
    {
      std::lock_guard<std::mutex> lock(s.mu);
      init_locked(s);
    }
    std::string runs;
    for (const std::string& v : s.runnable) runs += " " + v;
    const std::string tail = "; this CPU runs the variants" + runs;
    if (!s.ready) return "ggml: " + s.error + tail;
    std::string yes, no;
    for (ggml_type t : {GGML_TYPE_F32, GGML_TYPE_F16, GGML_TYPE_BF16}) {
      const std::string n = type_name(t);
      const bool ok = computes("tanh.forward." + n, Form::tanh, t) &&
                      computes("erf.forward." + n, Form::erf, t);
      std::string& list = ok ? yes : no;
      list += list.empty() ? n : ", " + n;
    }
    return "ggml " + std::string(s.api.ggml_version()) + " (commit " + s.api.ggml_commit() +
           ") CPU variant " + s.variant + ", threads " + std::to_string(s.threads) +
           "; gelu = ggml_gelu (the tanh form), gelu_erf = ggml_gelu_erf (the erf form), forward, " +
           yes + "; not provided: " + (no.empty() ? "" : no + " (ggml's CPU backend aborts on it), ") +
           "the backward (ggml has no GELU backward op), f64 (its GELU kernels are f32 and f16), ggml_gelu_quick "
           "(x·σ(1.702x), neither form)" + tail;
  }();
  return d.c_str();
}

}  // extern "C"
