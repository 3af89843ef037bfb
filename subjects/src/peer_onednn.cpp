// onednn[:isa=ISA][,threads=N]: oneDNN's eltwise GELU through its lib: adapter
// (adapters/onednn). isa= caps the instruction set its JIT may use (oneDNN's ONEDNN_MAX_CPU_ISA:
// its AVX2 kernel on an AVX-512 machine); threads= sets its OpenMP thread count
// (OMP_NUM_THREADS), which otherwise is the caller's.
#include <algorithm>
#include <cctype>

#include "peers.hpp"
#include "process_subject.hpp"

#ifndef GELUCHECK_BIN_TO_LIBDIR
#define GELUCHECK_BIN_TO_LIBDIR "../lib"
#endif
#ifndef GELUCHECK_ONEDNN_BUILD_PATH
#define GELUCHECK_ONEDNN_BUILD_PATH ""
#endif

namespace gelucheck::subject {
namespace {

std::string library() {
  return locate(GELUCHECK_BIN_TO_LIBDIR "/libgelucheck_onednn.so", GELUCHECK_ONEDNN_BUILD_PATH);
}

bool available() { return !library().empty(); }

// oneDNN 2.x's names for ONEDNN_MAX_CPU_ISA, lowest first, with the x86 feature each needs
// (__builtin_cpu_supports); the JIT eltwise kernels exist for each.
struct Isa {
  const char* name;
  bool (*here)();
};
const Isa kIsas[] = {
    {"sse41", [] { return bool(__builtin_cpu_supports("sse4.1")); }},
    {"avx", [] { return bool(__builtin_cpu_supports("avx")); }},
    {"avx2", [] { return bool(__builtin_cpu_supports("avx2")); }},
    {"avx512_core", [] {
       return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
              __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
     }},
    // Its bfloat16 instructions: oneDNN's bf16 kernels without them emulate the conversions.
    {"avx512_core_bf16", [] {
       return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bf16");
     }},
};

std::unique_ptr<Subject> open(const PeerSpec& p, const OpenOptions& opt) {
  std::vector<std::string> env;
  for (const std::string& w : p.words) {
    if (const int t = threads_word(p, w)) {
      env.push_back("OMP_NUM_THREADS=" + std::to_string(t));
    } else if (w.rfind("isa=", 0) == 0 &&
               std::any_of(std::begin(kIsas), std::end(kIsas),
                           [&](const Isa& i) { return w.substr(4) == i.name; })) {
      std::string up = w.substr(4);
      for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      env.push_back("ONEDNN_MAX_CPU_ISA=" + up);
    } else {
      throw bad_word(p, w, "isa=sse41|avx|avx2|avx512_core|avx512_core_bf16 and threads=N");
    }
  }
  const std::string lib = library();
  if (lib.empty())
    throw SpecError(SpecError::Kind::unavailable,
                    "onednn: libgelucheck_onednn.so was not built (oneDNN, libdnnl-dev, was not "
                    "found when gelucheck was configured)");
  return std::make_unique<Named>(p.spec, lib, open_lib(lib, opt, env));
}

// Each ISA this CPU has below its best (the default runs the best), and two threads.
std::vector<std::string> variants() {
  std::vector<std::string> v;
  for (const Isa& i : kIsas)
    if (i.here()) v.push_back(std::string("onednn:isa=") + i.name);
  if (!v.empty()) v.pop_back();
  v.push_back("onednn:threads=2");
  return v;
}

}  // namespace

const Peer kOnednnPeer{"onednn", open, available, variants};

}  // namespace gelucheck::subject
