// gelucheck/cleanup.hpp — what must not outlive gelucheck: its child process groups and its
// temporary files and directories. On SIGINT, SIGTERM or SIGHUP the handler (install()) kills
// every registered process group, removes every registered path, and ends the process with the
// shell's status 128 + signal. Normal exits remove them through the owners' destructors.
//
// Temporary directories carry a marker (kTempMarker, holding the creating pid) so that those left
// by a run killed with SIGKILL — which no handler sees — are recognised and removed by a later
// run (sweep_stale).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace gelucheck::cleanup {

// Installs the signal handlers once (idempotent). Called at the start of gelucheck's main and of
// every program of the suite that starts children or makes temporary paths.
void install();

// Registration; the returned token unregisters. Async-signal-safe to run from the handler:
// fixed-size tables, no allocation there.
int add_process_group(pid_t pgid);
void remove_process_group(int token);
int add_path(const std::string& path);  // removed recursively on a signal
void remove_path(int token);

inline constexpr const char* kTempMarker = ".gelucheck-temp";
// Makes a fresh directory `parent/.STEM.tmp-XXXXXX` (mkdtemp) holding the marker with our pid,
// registered with add_path; the caller removes it (or renames it into place) and unregisters.
struct TempDir {
  std::string path;
  int token = -1;
};
TempDir make_temp_dir(const std::string& parent, const std::string& stem);
// Removes the temporary directories in `parent` whose marker names a process that no longer
// runs; returns what it removed (for a message).
std::vector<std::string> sweep_stale(const std::string& parent);

}  // namespace gelucheck::cleanup
