// peers.hpp — the real peers by name (torch, onednn, onnxruntime, ggml): other people's GELUs
// reached through an adapter (adapters/), each with its variants (docs/subjects.md, "Peers").
//
// A peer's spec is NAME[:WORD[,WORD...]]: each WORD is one of the peer's options, a plain word
// (torch's layout "element", ggml's CPU variant "haswell") or NAME=VALUE ("threads=2",
// "isa=avx2"). The spec without words is the peer's default; its variants are the specs that
// change one option, those this machine can run (variant_specs in subject.hpp).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gelucheck/subject.hpp"

namespace gelucheck::subject {

struct PeerSpec {
  std::string name;                // "torch"
  std::vector<std::string> words;  // {"strided", "threads=2"}
  std::string spec;                // as given, for messages and reports
};

struct Peer {
  const char* name;
  // Opens the peer with the spec's options. Throws SpecError: usage for an unknown word,
  // unavailable (saying how to install it) when its package or adapter is missing.
  std::unique_ptr<Subject> (*open)(const PeerSpec&, const OpenOptions&);
  // Whether this installation can open it at all (its package and adapter are there).
  bool (*available)();
  // Its variants this machine can run, as specs, without the default.
  std::vector<std::string> (*variants)();
};
// Every peer, in report order.
const std::vector<Peer>& peers();
// The peer a spec names, or null (the spec is no peer's).
const Peer* find_peer(std::string_view spec, PeerSpec* parsed);

// The peers' adapters, one file each (peer_torch.cpp, peer_onednn.cpp, ...).
extern const Peer kTorchPeer, kOnednnPeer, kOnnxruntimePeer, kGgmlPeer;

// --- For the adapters' open functions. ---

// A peer as the user named it: the subject behind it is the adapter's (cmd: or lib:), but
// reports name it by its spec, and its description names the adapter's file, not where this
// installation keeps it.
class Named final : public Subject {
 public:
  Named(std::string name, std::string path, std::unique_ptr<Subject> inner)
      : name_(std::move(name)), path_(std::move(path)), inner_(std::move(inner)) {}
  std::string spec() const override { return name_; }
  std::string describe() const override;
  Capabilities capabilities() const override { return inner_->capabilities(); }
  ClaimSet claims() const override { return inner_->claims(); }
  Status call(const Call& c) override { return inner_->call(c); }
  bool fresh_start() override { return inner_->fresh_start(); }
  std::vector<double> recorded_inputs(const Op& op) const override {
    return inner_->recorded_inputs(op);
  }

 private:
  std::string name_, path_;
  std::unique_ptr<Subject> inner_;
};

// The first readable path: `installed` relative to the running executable's directory (an
// installation), else `build` (this build tree's), else "".
std::string locate(const std::string& installed, const std::string& build);
// A script adapter (adapters/RELATIVE, e.g. "python/torch_subject.py"): the installed copy in
// <prefix>/share/gelucheck/adapters/, else the source tree's; "" when neither is readable.
std::string locate_script(const std::string& relative);
// "threads=N" (1 <= N <= 1024) as N; 0 when `word` is not of that form; throws SpecError
// (usage) for a malformed N.
int threads_word(const PeerSpec& p, const std::string& word);
// A usage error naming the peer's spec, the word and what it accepts.
SpecError bad_word(const PeerSpec& p, const std::string& word, const std::string& accepted);

}  // namespace gelucheck::subject
