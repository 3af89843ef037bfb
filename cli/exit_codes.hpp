// The exit codes of `gelucheck` (documented in docs/cli.md; scripts rely on them).
#pragma once

#include <cstdio>
#include <string>

namespace gelucheck::cli {
inline constexpr int kExitOk = 0;       // everything done
inline constexpr int kExitBadInput = 1; // at least one input line could not be parsed
inline constexpr int kExitUsage = 2;    // unknown option, bad option value, missing subcommand
inline constexpr int kExitFailure = 3;  // a computation or I/O failure (e.g. ref::ReferenceError)
inline constexpr int kExitGate = 4;     // report --gate: a claim broken or a property failed

// Says "WHO: MSG" on stderr and returns kExitUsage (WHO: e.g. "gelucheck check").
inline int usage_error(const std::string& who, const std::string& msg) {
  std::fprintf(stderr, "%s: %s\n", who.c_str(), msg.c_str());
  return kExitUsage;
}
}  // namespace gelucheck::cli
