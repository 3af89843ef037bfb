// subject::open(): a spec to a subject (subject.hpp; docs/subjects.md lists the specs).
#include <string>

#include "builtins.hpp"
#include "npy_subject.hpp"
#include "gelucheck/subject.hpp"

namespace gelucheck::subject {

std::unique_ptr<Subject> open(std::string_view spec, const OpenOptions& opt) {
  (void)opt;
  if (spec.empty()) throw SpecError(SpecError::Kind::usage, "empty subject spec");
  if (std::unique_ptr<Subject> s = open_builtin(spec)) return s;
  if (spec.rfind("npy:", 0) == 0) return open_npy(spec.substr(4));
  throw SpecError(SpecError::Kind::usage,
                  "unknown subject \"" + std::string(spec) +
                      "\" (want accurate, naive, reference, broken:NAME, lib:PATH, cmd:COMMAND or "
                      "npy:DIR)");
}

std::vector<std::string> peer_specs() { return {}; }

}  // namespace gelucheck::subject
