// ggml[:VARIANT][,threads=N]: llama.cpp's ggml (ggml_gelu, ggml_gelu_erf on its CPU backend)
// through its lib: adapter (adapters/ggml), over the prebuilt libraries of the npm package
// @node-llama-cpp/linux-x64. VARIANT is one of the package's CPU builds of ggml (by default the
// best this CPU runs, as ggml's own loader picks it); threads= sets the CPU backend's thread count
// (1 unless asked). Both reach the adapter in its environment.
//
// Which variants this CPU runs is known only to ggml (each build's ggml_backend_score()): the
// adapter asks them in its own process and names them in its description (variants() reads it),
// so that no ggml library is loaded into gelucheck's.
#include <algorithm>
#include <iterator>
#include <sstream>

#include "peers.hpp"
#include "process_subject.hpp"

#ifndef GELUCHECK_BIN_TO_LIBDIR
#define GELUCHECK_BIN_TO_LIBDIR "../lib"
#endif
#ifndef GELUCHECK_GGML_BUILD_PATH
#define GELUCHECK_GGML_BUILD_PATH ""
#endif

namespace gelucheck::subject {
namespace {

// The package's CPU variants, by increasing instruction set (the adapter's list).
const char* const kVariants[] = {"x64",        "sse42",       "sandybridge", "ivybridge",
                                 "piledriver", "haswell",     "skylakex",    "cannonlake",
                                 "cascadelake", "cooperlake", "icelake",     "alderlake",
                                 "sapphirerapids", "zen4"};

std::string library() {
  return locate(GELUCHECK_BIN_TO_LIBDIR "/libgelucheck_ggml.so", GELUCHECK_GGML_BUILD_PATH);
}

bool available() { return !library().empty(); }

std::string variant_list() {
  std::string s;
  for (const char* v : kVariants) s += (s.empty() ? "" : ", ") + std::string(v);
  return s;
}

// The words after `key` in the adapter's description, up to the next ',', ';' or '(' (the host
// appends the library's name in parentheses) or the end.
std::string field(const std::string& d, const std::string& key) {
  const std::size_t at = d.find(key);
  if (at == std::string::npos) return "";
  const std::size_t from = at + key.size();
  return d.substr(from, d.find_first_of(",;(", from) - from);
}

std::unique_ptr<Subject> open(const PeerSpec& p, const OpenOptions& opt) {
  std::vector<std::string> env;
  std::string variant;
  for (const std::string& w : p.words) {
    if (const int t = threads_word(p, w)) {
      env.push_back("GELUCHECK_GGML_THREADS=" + std::to_string(t));
    } else if (variant.empty() && std::any_of(std::begin(kVariants), std::end(kVariants),
                                              [&](const char* v) { return w == v; })) {
      variant = w;
      env.push_back("GELUCHECK_GGML_VARIANT=" + w);
    } else {
      throw bad_word(p, w, "one CPU variant, " + variant_list() + ", and threads=N");
    }
  }
  const std::string lib = library();
  if (lib.empty())
    throw SpecError(SpecError::Kind::unavailable,
                    "ggml: libgelucheck_ggml.so was not built (the npm package "
                    "@node-llama-cpp/linux-x64 was not in GELUCHECK_NPM_DIR when gelucheck was "
                    "configured; scripts/setup.sh installs it)");
  try {
    return std::make_unique<Named>(p.spec, lib, open_lib(lib, opt, env));
  } catch (const SpecError& e) {
    // The adapter withdraws every op when it cannot run ggml, and its description, quoted by
    // the handshake's error, says why: for a variant this CPU cannot run, say it plainly.
    if (!variant.empty() && std::string(e.what()).find("cannot run the " + variant + " build") !=
                                std::string::npos)
      throw SpecError(SpecError::Kind::unavailable,
                      p.spec + ": this CPU cannot run the " + variant + " build of ggml");
    throw;
  }
}

// Every variant this CPU runs but the default's (the best), and two threads.
std::vector<std::string> variants() {
  const PeerSpec def{"ggml", {}, "ggml"};
  const std::string d = open(def, {})->describe();
  const std::string chosen = field(d, "CPU variant ");
  std::istringstream runs(field(d, "this CPU runs the variants "));
  std::vector<std::string> v;
  for (std::string w; runs >> w;)
    if (w != chosen) v.push_back("ggml:" + w);
  v.push_back("ggml:threads=2");
  return v;
}

}  // namespace

const Peer kGgmlPeer{"ggml", open, available, variants};

}  // namespace gelucheck::subject
