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

namespace {
std::unique_ptr<Subject> open_peer(std::string_view spec, const OpenOptions& opt);
}  // namespace

std::unique_ptr<Subject> open(std::string_view spec, const OpenOptions& opt) {
  if (spec.empty()) throw SpecError(SpecError::Kind::usage, "empty subject spec");
  if (std::unique_ptr<Subject> s = open_builtin(spec)) return s;
  if (std::unique_ptr<Subject> s = open_peer(spec, opt)) return s;
  if (spec.rfind("npy:", 0) == 0) return open_npy(spec.substr(4));
  if (spec.rfind("cmd:", 0) == 0) return open_cmd(spec.substr(4), opt);
  if (spec.rfind("lib:", 0) == 0) return open_lib(spec.substr(4), opt);
  throw SpecError(SpecError::Kind::usage,
                  "unknown subject \"" + std::string(spec) +
                      "\" (want accurate, naive, reference, broken:NAME, torch[:LAYOUT], onednn, "
                      "lib:PATH, cmd:COMMAND or npy:DIR)");
}

namespace {

bool readable(const std::string& p) { return !p.empty() && access(p.c_str(), R_OK) == 0; }

// Where an installation keeps its data and libraries, relative to the directory of its
// executables (GNUInstallDirs: "../share", "../lib" or "../lib/x86_64-linux-gnu").
#ifndef GELUCHECK_BIN_TO_DATADIR
#define GELUCHECK_BIN_TO_DATADIR "../share"
#endif
#ifndef GELUCHECK_BIN_TO_LIBDIR
#define GELUCHECK_BIN_TO_LIBDIR "../lib"
#endif

// The first readable path: beside the running executable (an installation: `installed` under the
// installation's data or library directory), else the build tree's.
std::string locate(const std::string& installed, const char* build) {
  const std::string beside = process::self_dir() + "/" + installed;
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

namespace {

std::string torch_adapter() {
  return locate(GELUCHECK_BIN_TO_DATADIR "/gelucheck/adapters/python/torch_subject.py",
                (std::string(GELUCHECK_ADAPTERS_SOURCE_DIR) + "/python/torch_subject.py").c_str());
}
std::string onednn_library() {
  return locate(GELUCHECK_BIN_TO_LIBDIR "/libgelucheck_onednn.so", GELUCHECK_ONEDNN_BUILD_PATH);
}

// A peer by its short name: the subject behind it is the adapter's (cmd: or lib:), but reports
// name it as the user did, and its description names the adapter's file, not where this
// installation keeps it.
class Named final : public Subject {
 public:
  Named(std::string name, std::string path, std::unique_ptr<Subject> inner)
      : name_(std::move(name)), path_(std::move(path)), inner_(std::move(inner)) {}
  std::string spec() const override { return name_; }
  std::string describe() const override {
    std::string d = inner_->describe();
    const std::string file = path_.substr(path_.rfind('/') + 1);
    for (std::size_t at; !path_.empty() && (at = d.find(path_)) != std::string::npos;)
      d.replace(at, path_.size(), file);
    return d;
  }
  Capabilities capabilities() const override { return inner_->capabilities(); }
  ClaimSet claims() const override { return inner_->claims(); }
  Status call(const Call& c) override { return inner_->call(c); }
  std::vector<double> recorded_inputs(const Op& op) const override { return inner_->recorded_inputs(op); }

 private:
  std::string name_, path_;
  std::unique_ptr<Subject> inner_;
};

// torch[:batch|element|strided] (one thread) and onednn (OMP_NUM_THREADS as the caller set it).
std::unique_ptr<Subject> open_peer(std::string_view spec, const OpenOptions& opt) {
  if (spec == "onednn") {
    const std::string lib = onednn_library();
    if (lib.empty())
      throw SpecError(SpecError::Kind::unavailable,
                      "onednn: libgelucheck_onednn.so was not built (oneDNN, libdnnl-dev, was not "
                      "found when gelucheck was configured)");
    return std::make_unique<Named>("onednn", lib, open_lib(lib, opt));
  }
  if (spec != "torch" && spec.rfind("torch:", 0) != 0) return nullptr;
  const std::string layout = spec == "torch" ? "batch" : std::string(spec.substr(6));
  if (layout != "batch" && layout != "element" && layout != "strided")
    throw SpecError(SpecError::Kind::usage,
                    "torch:" + layout + ": the layouts are batch, element and strided");
  const std::string python = GELUCHECK_PYTHON_BUILD_PATH, adapter = torch_adapter();
  if (adapter.empty() || !has_module(python, "torch") || !has_module(python, "numpy"))
    throw SpecError(SpecError::Kind::unavailable,
                    "torch: needs " + python + " with torch and numpy (python3-torch, "
                    "python3-numpy) and the adapter torch_subject.py");
  return std::make_unique<Named>(std::string(spec), adapter,
                                 open_cmd(python + " " + adapter + " --layout " + layout +
                                              " --threads 1",
                                          opt));
}

}  // namespace

std::vector<std::string> peer_specs() {
  std::vector<std::string> v;
  if (!torch_adapter().empty() && has_module(GELUCHECK_PYTHON_BUILD_PATH, "torch") &&
      has_module(GELUCHECK_PYTHON_BUILD_PATH, "numpy"))
    v.push_back("torch");
  if (!onednn_library().empty()) v.push_back("onednn");
  return v;
}

}  // namespace gelucheck::subject
