// gelucheck/cleanup.hpp — what must not outlive gelucheck: its child process groups and its
// temporary files and directories. On SIGINT, SIGTERM or SIGHUP the handler (install()) kills
// every registered process group (SIGKILL), removes every registered path, and ends the process
// by the same signal with its default action, so the parent sees "killed by SIGTERM" and a shell
// the status 128 + signal. Normal exits remove them through the owners' destructors.
//
// Temporary directories carry a marker (kTempMarker) so that those left by a run killed with
// SIGKILL — which no handler sees — are recognised and removed by a later run (sweep_stale). Its
// text is one "key value" a line: `pid N`, `start T` (the process's start time, field 22 of
// /proc/N/stat, so that a reused pid is told apart), `host NAME` (gethostname) and `boot ID`
// (/proc/sys/kernel/random/boot_id).
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <string>
#include <vector>

namespace gelucheck::cleanup {

// Installs the signal handlers once (idempotent). Called at the start of gelucheck's main and of
// every program of the suite that starts children or makes temporary paths. A signal that was
// ignored when the program started (nohup, a background job of a non-interactive shell) stays
// ignored.
void install();
// Whether install() has run (the handler is in place for at least one signal).
bool installed();

// Ends the process by `sig` itself, from a signal handler (async-signal-safe): the default action
// restored, the signal unblocked (it is blocked while its handler runs) and raised again, so that
// the parent sees how it ended (a shell: 128 + signal).
[[noreturn]] void die_by_signal(int sig);

// Registration; the returned token unregisters (-1: the table was full, nothing registered).
// Async-signal-safe to run from the handler: fixed-size tables, no allocation there.
int add_process_group(pid_t pgid);
void remove_process_group(int token);
int add_path(const std::string& path);  // removed recursively on a signal
void remove_path(int token);

// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread for its lifetime (they stay pending and
// are handled when it ends). For the few steps that must not be cut in two: starting a child and
// registering its group, making a temporary directory and registering it, swapping a report into
// place. Worker threads are started under one, so the handler always runs on a thread that is
// not itself writing into a temporary directory. The handler, running on another thread, waits
// for the steps under way to end before it kills and removes what is registered, and a step does
// not begin once the handler has begun.
class BlockSignals {
 public:
  BlockSignals();
  ~BlockSignals();
  BlockSignals(const BlockSignals&) = delete;
  BlockSignals& operator=(const BlockSignals&) = delete;

 private:
  sigset_t saved_;
};

inline constexpr const char* kTempMarker = ".gelucheck-temp";
// Makes a fresh directory `parent/.STEM.tmp-XXXXXX` (mkdtemp) holding the marker with our pid,
// registered with add_path; the caller removes it (or renames it into place) and unregisters
// (remove_temp_dir does both). Throws std::runtime_error naming the parent on failure.
struct TempDir {
  std::string path;
  int token = -1;
};
TempDir make_temp_dir(const std::string& parent, const std::string& stem);
// Writes the marker into an existing directory that has become temporary (a previous output,
// swapped out, about to be removed), so that a SIGKILL before its removal leaves it to the sweep.
void mark_temp_dir(const std::string& dir);
// Removes t.path recursively, then unregisters it (in that order: a signal in between still
// removes it). Never throws; t is left empty.
void remove_temp_dir(TempDir& t);
// Removes the temporary directories in `parent` whose marker names a process of this host that
// no longer runs; returns what it removed (for a message). Directories that look like ours
// (`.*.tmp-XXXXXX`) but hold no readable marker are left alone and, when `unrecognised` is given,
// listed there.
std::vector<std::string> sweep_stale(const std::string& parent,
                                     std::vector<std::string>* unrecognised = nullptr);

// Removes a directory tree without following symbolic links; async-signal-safe (the handler's
// own remover). True when `path` is gone afterwards.
bool remove_tree(const char* path);

// TEST ONLY: when the environment variable GELUCHECK_TEST_ONLY_STALL_AT equals `stage`, writes
// "<program>: TEST ONLY: stalled at <stage> (pid N)" to stderr and waits for a signal forever.
// The signal tests of tests/report use it to stop a run at a known step; a normal run never sets
// it.
void test_stall(const char* stage);

}  // namespace gelucheck::cleanup
