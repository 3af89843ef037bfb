// onnxruntime[:contrib][,threads=N]: ONNX Runtime's CPU GELU through adapters/onnxruntime/
// gelu_onnxruntime.mjs, run by Node.js over the npm package onnxruntime-node (pinned in
// adapters/npm/, installed by scripts/setup.sh into GELUCHECK_NPM_DIR). By default the opset-20
// ONNX op Gelu; `contrib`, ONNX Runtime's com.microsoft.Gelu and FastGelu instead; threads= sets
// the session's intra-op thread count (1 unless asked).
#include <unistd.h>

#include "peers.hpp"
#include "process_subject.hpp"

#ifndef GELUCHECK_NODE_BUILD_PATH
#define GELUCHECK_NODE_BUILD_PATH ""
#endif
#ifndef GELUCHECK_NPM_BUILD_PATH
#define GELUCHECK_NPM_BUILD_PATH ""
#endif

namespace gelucheck::subject {
namespace {

std::string adapter() { return locate_script("onnxruntime/gelu_onnxruntime.mjs"); }

// The package and its native binding (linux x64, N-API 6: what the package ships for this
// machine), without starting Node: a missing package leaves the peer out of the report.
bool available() {
  const std::string npm = GELUCHECK_NPM_BUILD_PATH;
  const std::string pkg = npm + "/onnxruntime-node";
  static const bool yes =
      !adapter().empty() && access(GELUCHECK_NODE_BUILD_PATH, X_OK) == 0 && !npm.empty() &&
      access((pkg + "/package.json").c_str(), R_OK) == 0 &&
      access((pkg + "/bin/napi-v6/linux/x64/onnxruntime_binding.node").c_str(), R_OK) == 0;
  return yes;
}

std::unique_ptr<Subject> open(const PeerSpec& p, const OpenOptions& opt) {
  bool contrib = false;
  int threads = 1;
  for (const std::string& w : p.words) {
    if (const int t = threads_word(p, w)) {
      threads = t;
    } else if (w == "contrib") {
      contrib = true;
    } else {
      throw bad_word(p, w, "contrib (the com.microsoft ops) and threads=N");
    }
  }
  if (!available())
    throw SpecError(SpecError::Kind::unavailable,
                    "onnxruntime: needs Node.js (" + std::string(GELUCHECK_NODE_BUILD_PATH) +
                        ") and the npm package onnxruntime-node in GELUCHECK_NPM_DIR (" +
                        GELUCHECK_NPM_BUILD_PATH + "; scripts/setup.sh installs it)");
  const std::string path = adapter();
  return std::make_unique<Named>(
      p.spec, path,
      open_cmd(std::string(GELUCHECK_NODE_BUILD_PATH) + " " + path + " --npm " +
                   GELUCHECK_NPM_BUILD_PATH + (contrib ? " --contrib" : "") + " --threads " +
                   std::to_string(threads),
               opt));
}

// Its thread count, and the contrib ops: ONNX Runtime's second GELU kernel beside the ONNX op's.
std::vector<std::string> variants() { return {"onnxruntime:threads=2", "onnxruntime:contrib"}; }

}  // namespace

const Peer kOnnxruntimePeer{"onnxruntime", open, available, variants};

}  // namespace gelucheck::subject
