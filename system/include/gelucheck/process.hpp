// gelucheck/process.hpp — the ONE way gelucheck runs a child process: the property suite,
// gnuplot, a `cmd:` subject, the host of a `lib:` subject, the fuzzers' runs in tests.
//
// Every child gets a process group of its own, registered with the cleanup registry
// (cleanup.hpp), so SIGINT/SIGTERM/SIGHUP to gelucheck end the whole tree it started; no child
// outlives gelucheck. Every wait has a deadline; a child past it is killed (SIGKILL to its group).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gelucheck::process {

// How a child ended.
struct Exit {
  enum class Kind { exited, signalled, timed_out, not_started } kind = Kind::not_started;
  int code = 0;     // exit status (exited) or signal number (signalled)
  std::string why;  // words for a report: "exited with status 3", "killed by signal 11 (SIGSEGV)"
  bool ok() const { return kind == Kind::exited && code == 0; }
  // The shell's convention: the status, 128 + signal, or -1 (not started / timed out).
  int shell_status() const;
};

struct Spec {
  std::vector<std::string> argv;      // argv[0]: a path, or a name looked up in PATH
  std::string cwd;                    // empty: ours
  std::vector<std::string> env;       // "NAME=value", replacing or adding to our environment
};

// Runs a child to completion with stdin from /dev/null and stdout+stderr appended to `log`
// (empty: /dev/null); kills it (whole group) when `timeout` passes (Kind::timed_out). Whatever
// the child left running in its group is killed when it ends.
Exit run(const Spec& spec, const std::string& log,
         std::optional<std::chrono::milliseconds> timeout = std::nullopt);

// A child we talk to over pipes: its stdin and stdout are ours; its stderr goes to a file (or is
// inherited when stderr_log is empty). Reads and writes take a deadline; nothing blocks forever.
class Child {
 public:
  // Starts the child. On failure to start, alive() is false, and error() and poll() say why
  // (Exit::Kind::not_started).
  Child(const Spec& spec, const std::string& stderr_log = "");
  ~Child();  // kills the group (SIGKILL) if still running, and reaps it
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  bool alive() const;
  pid_t pid() const;

  // Write all of `n` bytes / read exactly `n` bytes / read one line (without the '\n', at most
  // max_line bytes), each before `deadline`. False on EOF, error, a too-long line or the deadline;
  // then error() says which ("timed out", "end of stream", "line too long", strerror). A missed
  // deadline does not kill the child: the caller decides (kill(), or finish() for a last word).
  // A write to a child that has closed its stdin fails with "end of stream" (no SIGPIPE).
  // A failed read_exact may have written part of `data`.
  bool write_all(const void* data, std::size_t n, std::chrono::steady_clock::time_point deadline);
  bool read_exact(void* data, std::size_t n, std::chrono::steady_clock::time_point deadline);
  bool read_line(std::string& line, std::chrono::steady_clock::time_point deadline,
                 std::size_t max_line = 1 << 20);
  const std::string& error() const;
  bool timed_out() const;  // the last failed operation hit its deadline

  // Closes our end of its stdin, waits up to `grace` for it to exit, then kills the group
  // (Kind::timed_out when it had to be killed). Whatever else still runs in its group is killed
  // when it ends, however it ends.
  Exit finish(std::chrono::milliseconds grace = std::chrono::milliseconds(2000));
  // Kills the group now and reaps the child.
  Exit kill();
  // How it ended, once it has (polls without blocking; std::nullopt while it runs).
  std::optional<Exit> poll();

 private:
  struct Impl;
  Impl* impl_;
};

// The directory of the running executable (/proc/self/exe), to find programs installed beside it.
std::string self_dir();

}  // namespace gelucheck::process
