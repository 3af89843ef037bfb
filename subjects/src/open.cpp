// subject::open(): a spec to a subject (subject.hpp; docs/subjects.md lists the specs), and the
// peers this installation can measure.
#include <unistd.h>

#include <charconv>
#include <string>

#include "builtins.hpp"
#include "gelucheck/process.hpp"
#include "gelucheck/subject.hpp"
#include "npy_subject.hpp"
#include "peers.hpp"
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
                      "\" (want accurate, naive, reference, broken:NAME, a peer (" + peer_names() +
                      ", docs/subjects.md), lib:PATH, cmd:COMMAND or npy:DIR)");
}

namespace {

bool readable(const std::string& p) { return !p.empty() && access(p.c_str(), R_OK) == 0; }

}  // namespace

std::string locate(const std::string& installed, const std::string& build) {
  const std::string beside = process::self_dir() + "/" + installed;
  if (readable(beside)) return beside;
  return readable(build) ? build : "";
}

#ifndef GELUCHECK_BIN_TO_DATADIR
#define GELUCHECK_BIN_TO_DATADIR "../share"
#endif
#ifndef GELUCHECK_ADAPTERS_SOURCE_DIR
#define GELUCHECK_ADAPTERS_SOURCE_DIR ""
#endif

std::string locate_script(const std::string& relative) {
  return locate(GELUCHECK_BIN_TO_DATADIR "/gelucheck/adapters/" + relative,
                std::string(GELUCHECK_ADAPTERS_SOURCE_DIR) + "/" + relative);
}

std::string Named::describe() const {
  std::string d = inner_->describe();
  const std::string file = path_.substr(path_.rfind('/') + 1);
  for (std::size_t at; !path_.empty() && (at = d.find(path_)) != std::string::npos;)
    d.replace(at, path_.size(), file);
  return d;
}

SpecError bad_word(const PeerSpec& p, const std::string& word, const std::string& accepted) {
  return SpecError(SpecError::Kind::usage,
                   p.spec + ": unknown option \"" + word + "\" (" + p.name + " takes " + accepted + ")");
}

int threads_word(const PeerSpec& p, const std::string& word) {
  if (word.rfind("threads=", 0) != 0) return 0;
  const std::string n = word.substr(8);
  int v = 0;
  const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
  if (ec != std::errc() || end != n.data() + n.size() || v < 1 || v > 1024)
    throw SpecError(SpecError::Kind::usage,
                    p.spec + ": threads=" + n + ": want a thread count from 1 to 1024");
  return v;
}

const std::vector<Peer>& peers() {
  static const std::vector<Peer> v{kTorchPeer, kOnednnPeer, kOnnxruntimePeer, kGgmlPeer};
  return v;
}

const Peer* find_peer(std::string_view spec, PeerSpec* parsed) {
  const std::size_t colon = spec.find(':');
  const std::string_view name = spec.substr(0, colon);
  for (const Peer& p : peers()) {
    if (name != p.name) continue;
    if (parsed) {
      parsed->name = p.name;
      parsed->spec = std::string(spec);
      parsed->words.clear();
      if (colon != std::string_view::npos) {
        std::string_view rest = spec.substr(colon + 1);
        while (true) {
          const std::size_t comma = rest.find(',');
          parsed->words.emplace_back(rest.substr(0, comma));
          if (parsed->words.back().empty())
            throw SpecError(SpecError::Kind::usage, std::string(spec) + ": an empty option");
          if (comma == std::string_view::npos) break;
          rest = rest.substr(comma + 1);
        }
      }
    }
    return &p;
  }
  return nullptr;
}

namespace {

std::unique_ptr<Subject> open_peer(std::string_view spec, const OpenOptions& opt) {
  PeerSpec ps;
  const Peer* p = find_peer(spec, &ps);
  return p ? p->open(ps, opt) : nullptr;
}

}  // namespace

std::vector<std::string> peer_specs() {
  std::vector<std::string> v;
  for (const Peer& p : peers())
    if (p.available()) v.emplace_back(p.name);
  return v;
}

std::vector<std::string> variant_specs(std::string_view spec) {
  PeerSpec ps;
  const Peer* p = find_peer(spec, &ps);
  if (!p)
    throw SpecError(SpecError::Kind::usage,
                    std::string(spec) + ": only a peer (" + peer_names() + ") has variants");
  if (!ps.words.empty())
    throw SpecError(SpecError::Kind::usage,
                    std::string(spec) + ": the variants are of a peer's default: give " + p->name);
  if (!p->available()) (void)p->open(ps, {});  // throws, saying how to install it
  return p->variants();
}

std::string peer_names() {
  std::string s;
  for (const Peer& p : peers()) s += (s.empty() ? "" : ", ") + std::string(p.name);
  return s;
}

}  // namespace gelucheck::subject
