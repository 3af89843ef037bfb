// gelucheck/output_dir.hpp — the ONE way gelucheck writes a directory of results (`report
// --out`, and every later command that writes one). It never destroys what it did not write:
//
//  * The new content goes into a fresh temporary directory beside the target
//    (cleanup::make_temp_dir: removed on a signal, swept by a later run after a SIGKILL).
//  * commit() adds a marker, kMarker, a JSON file listing every file written
//    ({"schema": "gelucheck.output/1", "written_by": ..., "files": [...]}), and swaps the
//    directory into place with one renameat2(RENAME_EXCHANGE), so that the target is at every
//    instant either the complete old directory or the complete new one.
//  * An existing target is replaced only when it is empty, or holds a marker and nothing but the
//    marker, the files it lists and the directories leading to them (regular files and real
//    directories: a symbolic link or a directory where a file was listed is not ours), and
//    perhaps cleanup's temporary marker (left by a run killed with SIGKILL just after its
//    swap: the marker travels with the new directory and is removed right after). Anything
//    else is refused (Refused), whatever the path spells: `.`, `x/..`, a symbolic link (refused
//    as such; `link/` means the directory it points to), the current directory or one of its
//    ancestors (refused even when empty: a shell standing in it would be left in a deleted
//    directory).
//  * The old directory is checked again after the swap, from where only this run can see it; if
//    something not ours appeared in it meanwhile, the swap is undone and the write refused. Then
//    only the files its marker lists are removed, and its directories with rmdir (which removes
//    nothing but empty ones).
//
// Where the filesystem lacks RENAME_EXCHANGE (EINVAL: some network and FUSE filesystems; ENOSYS:
// kernels before 3.15) the swap falls back to two renames — the old directory aside to
// `.NAME.old.tmp-XXXXXX`, the new one into place — with SIGINT/SIGTERM/SIGHUP held off between
// them; only a SIGKILL or a crash in that microsecond leaves no directory at the target, and then
// the old one is intact in `.NAME.old.tmp-XXXXXX` beside it.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "gelucheck/cleanup.hpp"

namespace gelucheck::output {

inline constexpr const char* kMarker = ".gelucheck-output";
inline constexpr const char* kMarkerSchema = "gelucheck.output/1";

// The target must not be replaced, or the name is no usable target: a usage error (exit 2).
// Every other failure (I/O, permissions) is a std::runtime_error (exit 3).
class Refused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Checks that `out` may be written (as Writer's constructor does, and that a temporary directory
// can be made beside it) without writing anything but `out`'s missing parent directories.
// Throws Refused or std::runtime_error, each naming the path.
void check(const std::string& out);

class Writer {
 public:
  // Resolves and checks `out` (throws like check()), sweeps the stale temporary directories of
  // killed runs beside it, and makes the temporary directory to write into. `written_by` goes
  // into the marker ("gelucheck report").
  Writer(const std::string& out, const std::string& written_by);
  ~Writer();  // removes the temporary directory unless committed
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  // The temporary directory: write everything here (any depth), then commit().
  const std::string& dir() const;
  // The target, resolved (absolute, symbolic links of its parents resolved).
  const std::string& target() const;
  // Writes `text` to dir()/rel (making its directories); throws std::runtime_error on failure.
  void write_file(const std::string& rel, const std::string& text);
  // Lists every file under dir() in the marker and swaps dir() into place (see above). Throws
  // Refused when the target is found not to be ours at the last moment, std::runtime_error on an
  // I/O failure; either way the target is left as it was.
  void commit();
  // What the writer did beside the target that the user should hear of: stale temporary
  // directories removed or left alone, an old directory that could not be removed in full.
  const std::vector<std::string>& notes() const;

  // TEST ONLY: commit() uses the two-rename fallback, as on a filesystem without
  // RENAME_EXCHANGE.
  void use_two_step_for_test();

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace gelucheck::output
