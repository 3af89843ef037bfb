// subject::open(): a spec to a subject (subject.hpp; docs/subjects.md lists the specs), and the
// peers this installation can measure.
#include <unistd.h>

#include <string>

#include "builtins.hpp"
#include "gelucheck/process.hpp"
#include "gelucheck/subject.hpp"
#include "npy_subject.hpp"
#include "process_subject.hpp"

namespace gelucheck::subject {

std::unique_ptr<Subject> open(std::string_view spec, const OpenOptions& opt) {
  if (spec.empty()) throw SpecError(SpecError::Kind::usage, "empty subject spec");
  if (std::unique_ptr<Subject> s = open_builtin(spec)) return s;
  if (spec.rfind("npy:", 0) == 0) return open_npy(spec.substr(4));
  if (spec.rfind("cmd:", 0) == 0) return open_cmd(spec.substr(4), opt);
  if (spec.rfind("lib:", 0) == 0) return open_lib(spec.substr(4), opt);
  throw SpecError(SpecError::Kind::usage,
                  "unknown subject \"" + std::string(spec) +
                      "\" (want accurate, naive, reference, broken:NAME, lib:PATH, cmd:COMMAND or "
                      "npy:DIR)");
}

namespace {

bool readable(const std::string& p) { return !p.empty() && access(p.c_str(), R_OK) == 0; }

// The first readable path: beside the running executable (an installation: bin/../share, bin/../lib),
// else the build tree's.
std::string locate(const std::string& installed, const char* build) {
  const std::string beside = process::self_dir() + "/../" + installed;
  if (readable(beside)) return beside;
  return readable(build) ? build : "";
}

#ifndef GELUCHECK_PYTHON_BUILD_PATH
#define GELUCHECK_PYTHON_BUILD_PATH "/usr/bin/python3"
#endif
#ifndef GELUCHECK_ADAPTERS_SOURCE_DIR
#define GELUCHECK_ADAPTERS_SOURCE_DIR ""
#endif
#ifndef GELUCHECK_ONEDNN_BUILD_PATH
#define GELUCHECK_ONEDNN_BUILD_PATH ""
#endif

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

}  // namespace

std::vector<std::string> peer_specs() {
  std::vector<std::string> v;
  const std::string python = GELUCHECK_PYTHON_BUILD_PATH;
  const std::string torch = locate("share/gelucheck/adapters/python/torch_subject.py",
                                   (std::string(GELUCHECK_ADAPTERS_SOURCE_DIR) + "/python/torch_subject.py").c_str());
  // One thread, the whole batch as one tensor: the kernel a training step runs, comparable with
  // the single-threaded figures of the library.
  if (!torch.empty() && has_module(python, "torch") && has_module(python, "numpy"))
    v.push_back("cmd:" + python + " " + torch + " --layout batch --threads 1");
  const std::string onednn = locate("lib/libgelucheck_onednn.so", GELUCHECK_ONEDNN_BUILD_PATH);
  if (!onednn.empty()) v.push_back("lib:" + onednn);
  return v;
}

}  // namespace gelucheck::subject
