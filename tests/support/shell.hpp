// For tests that need the shell's redirections and pipes (a file or a directory on stdin, stdout
// on /dev/full, `echo 1 | ...`): the command line runs as `/bin/sh -c COMMAND` through
// process::run (gelucheck/process.hpp), the one way gelucheck runs a child — its own process
// group, killed with all it started when the time limit passes, so a hung program fails its test
// instead of stalling CTest until its global timeout.
#pragma once

#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "gelucheck/process.hpp"

namespace gelucheck::testing {

struct ShellOutcome {
  int code = -1;       // the exit status; -1 when killed, past the limit or not started
  std::string output;  // what COMMAND wrote to stdout (beyond its own redirections)
  std::string errors;  // ... and to stderr
  std::string why;     // process::Exit::why: "exited with status 3", "timed out after ...", ...
};

// Two minutes: the commands of these tests take well under a second each here; the margin is for
// sanitizer builds and a loaded machine.
inline constexpr std::chrono::seconds kShellLimit{120};

// Runs COMMAND with stdin from /dev/null (unless COMMAND redirects it).
inline ShellOutcome shell(const std::string& command, std::chrono::seconds limit = kShellLimit) {
  namespace fs = std::filesystem;
  std::string dir = (fs::temp_directory_path() / "gelucheck-shell-XXXXXX").string();
  ShellOutcome r;
  if (::mkdtemp(dir.data()) == nullptr) {
    r.why = "cannot make a scratch directory";
    return r;
  }
  const fs::path out = fs::path(dir) / "stdout", err = fs::path(dir) / "stderr";
  // process::run sends the child's stdout and stderr to one file; the shell's first command
  // sends its stderr (and so COMMAND's) to a second one. "$1" is err, passed as an argument so
  // that no quoting is needed.
  const process::Exit e = process::run(
      {{"/bin/sh", "-c", "exec 2>\"$1\"\n" + command, "sh", err.string()}, "", {}}, out.string(),
      std::chrono::milliseconds(limit));
  r.code = e.kind == process::Exit::Kind::exited ? e.code : -1;
  r.why = e.why;
  auto slurp = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  r.output = slurp(out);
  r.errors = slurp(err);
  std::error_code ec;
  fs::remove_all(dir, ec);
  return r;
}

}  // namespace gelucheck::testing
