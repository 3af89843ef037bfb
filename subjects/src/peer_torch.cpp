// torch[:LAYOUT][,threads=N]: PyTorch's F.gelu through adapters/python/torch_subject.py, run by
// the Python gelucheck was configured with. LAYOUT: batch (default), element, strided; threads 1
// unless asked (its thread count changes the CPU kernel's partitioning of a batch).
#include <unistd.h>

#include <chrono>

#include "gelucheck/process.hpp"
#include "peers.hpp"
#include "process_subject.hpp"

#ifndef GELUCHECK_PYTHON_BUILD_PATH
#define GELUCHECK_PYTHON_BUILD_PATH "/usr/bin/python3"
#endif

namespace gelucheck::subject {
namespace {

std::string adapter() { return locate_script("python/torch_subject.py"); }

// Whether `python` can import `module`, without importing it (find_spec only reads the path):
// a missing PyTorch leaves its peer out instead of failing the report.
bool has_module(const std::string& python, const std::string& module) {
  if (access(python.c_str(), X_OK) != 0) return false;
  const process::Exit e = process::run(
      {{python, "-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec('" + module +
                          "') is None)"},
       "", {}},
      "", std::chrono::milliseconds(20000));
  return e.ok();
}

bool available() {
  static const bool yes = !adapter().empty() && has_module(GELUCHECK_PYTHON_BUILD_PATH, "torch") &&
                          has_module(GELUCHECK_PYTHON_BUILD_PATH, "numpy");
  return yes;
}

std::unique_ptr<Subject> open(const PeerSpec& p, const OpenOptions& opt) {
  std::string layout = "batch";
  int threads = 1;
  for (const std::string& w : p.words) {
    if (const int t = threads_word(p, w)) {
      threads = t;
    } else if (w == "batch" || w == "element" || w == "strided") {
      layout = w;
    } else {
      throw bad_word(p, w, "a layout, batch, element or strided, and threads=N");
    }
  }
  if (!available())
    throw SpecError(SpecError::Kind::unavailable,
                    "torch: needs " + std::string(GELUCHECK_PYTHON_BUILD_PATH) +
                        " with torch and numpy (python3-torch, python3-numpy) and the adapter "
                        "torch_subject.py");
  const std::string path = adapter();
  return std::make_unique<Named>(
      p.spec, path,
      open_cmd(std::string(GELUCHECK_PYTHON_BUILD_PATH) + " " + path + " --layout " + layout +
                   " --threads " + std::to_string(threads),
               opt));
}

std::vector<std::string> variants() {
  return {"torch:element", "torch:strided", "torch:threads=2"};
}

}  // namespace

const Peer kTorchPeer{"torch", open, available, variants};

}  // namespace gelucheck::subject
