// Output directories that never destroy what gelucheck did not write (gelucheck/output_dir.hpp).
#include "gelucheck/output_dir.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

namespace gelucheck::output {
namespace {

namespace fs = std::filesystem;

std::string errno_text() { return std::strerror(errno); }

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string real_path(const std::string& p) {
  char* r = realpath(p.c_str(), nullptr);
  if (!r) return "";
  std::string s = r;
  free(r);
  return s;
}

bool is_under(const fs::path& inner, const fs::path& outer) {
  const std::string i = inner.string(), o = outer.string();
  if (o == "/") return true;
  return i == o || (i.size() > o.size() && i.compare(0, o.size(), o) == 0 && i[o.size()] == '/');
}

// How `out` was spelled, and what it resolved to, for messages.
std::string named(const std::string& out, const fs::path& resolved) {
  return "--out " + out + (resolved.string() == out ? "" : " (" + resolved.string() + ")");
}

// The files a marker lists; empty optional when the marker is not one of ours.
std::optional<std::set<std::string>> read_marker(const fs::path& marker) {
  const nlohmann::json j = nlohmann::json::parse(slurp(marker), nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("schema", "") != kMarkerSchema ||
      !j.contains("files") || !j["files"].is_array())
    return std::nullopt;
  std::set<std::string> files;
  for (const auto& f : j["files"]) {
    if (!f.is_string()) return std::nullopt;
    const std::string s = f.get<std::string>();
    const fs::path p(s);
    // Relative, in normal form, inside the directory: "a/b", never "/a", "../a", "a/./b", "".
    if (s.empty() || p.is_absolute() || p.lexically_normal().string() != s || s == kMarker ||
        s.back() == '/')
      return std::nullopt;
    for (const auto& part : p)
      if (part == ".." || part == ".") return std::nullopt;
    files.insert(s);
  }
  return files;
}

std::string kind_of(const fs::file_status& st) {
  switch (st.type()) {
    case fs::file_type::directory: return "a directory";
    case fs::file_type::symlink: return "a symbolic link";
    case fs::file_type::regular: return "a file";
    default: return "a special file";
  }
}

// Throws Refused unless `dir` is empty or holds a marker and nothing but what it lists. `shown`
// is how to name it in messages.
void inspect(const fs::path& dir, const std::string& shown) {
  std::vector<std::pair<std::string, fs::file_status>> entries;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    entries.emplace_back(it->path().lexically_relative(dir).string(), it->symlink_status(ec));
  if (ec) throw std::runtime_error(shown + ": cannot read it: " + ec.message());
  if (entries.empty()) return;
  const auto marker = std::find_if(entries.begin(), entries.end(),
                                   [](const auto& e) { return e.first == kMarker; });
  if (marker == entries.end()) {
    const bool has_report = std::any_of(entries.begin(), entries.end(),
                                        [](const auto& e) { return e.first == "report.json"; });
    throw Refused(shown + " is not empty and holds no " + kMarker +
                  " marker, so it is not a directory gelucheck wrote" +
                  (has_report ? " (its report.json may be a report of an older gelucheck, which "
                                "wrote no marker; remove the directory yourself if so)"
                              : "") +
                  "; refusing to replace it (choose another --out)");
  }
  const std::optional<std::set<std::string>> listed =
      marker->second.type() == fs::file_type::regular ? read_marker(dir / kMarker) : std::nullopt;
  if (!listed)
    throw Refused(shown + ": its " + kMarker + " is not a gelucheck output marker (schema " +
                  kMarkerSchema + "); refusing to replace it (choose another --out)");
  std::set<std::string> dirs;
  for (const std::string& f : *listed)
    for (fs::path p = fs::path(f).parent_path(); !p.empty(); p = p.parent_path()) dirs.insert(p.string());
  std::vector<std::string> bad;
  for (const auto& [rel, st] : entries) {
    // The temporary marker of a run killed by SIGKILL in the instant after its swap.
    if (rel == kMarker || (rel == cleanup::kTempMarker && st.type() == fs::file_type::regular)) continue;
    if (listed->count(rel)) {
      if (st.type() != fs::file_type::regular) bad.push_back(rel + " (listed as a file, now " + kind_of(st) + ")");
    } else if (dirs.count(rel)) {
      if (st.type() != fs::file_type::directory) bad.push_back(rel + " (" + kind_of(st) + ")");
    } else {
      bad.push_back(rel);
    }
  }
  if (bad.empty()) return;
  std::string list;
  for (std::size_t i = 0; i < bad.size() && i < 5; ++i) list += (i ? ", " : "") + bad[i];
  if (bad.size() > 5) list += ", ... (" + std::to_string(bad.size()) + " in all)";
  throw Refused(shown + " holds " + list + ", which gelucheck did not write; refusing to replace "
                "it (move that away, or choose another --out)");
}

struct Target {
  fs::path path;  // absolute, the parents' symbolic links resolved
  bool exists = false;
  std::string shown;
};

Target resolve(const std::string& out) {
  if (out.empty()) throw Refused("--out: empty path (name a directory)");
  std::string s = out;
  bool trailing = false;
  while (s.size() > 1 && s.back() == '/') {
    s.pop_back();
    trailing = true;
  }
  struct stat st {};
  const bool present = lstat(s.c_str(), &st) == 0;
  if (present && S_ISLNK(st.st_mode) && !trailing) {
    std::error_code ec;
    const fs::path to = fs::read_symlink(s, ec);
    throw Refused("--out " + out + " is a symbolic link" + (ec ? "" : " (to " + to.string() + ")") +
                  "; name the directory itself, or write " + out +
                  "/ to mean the directory it points to");
  }
  Target t;
  const std::string name = fs::path(s).filename().string();
  if (present || name == "." || name == ".." || s == "/") {
    t.path = real_path(trailing ? s + "/" : s);
    if (t.path.empty()) {
      if (errno == ENOTDIR) throw Refused("--out " + out + ": not a directory");
      throw std::runtime_error("--out " + out + ": " + errno_text());
    }
  } else {
    fs::path parent = fs::path(s).parent_path();
    if (parent.empty()) parent = ".";
    std::error_code ec;
    fs::create_directories(parent, ec);
    const std::string rp = real_path(parent.string());
    if (rp.empty() || !fs::is_directory(rp))
      throw std::runtime_error("--out " + out + ": cannot use " + parent.string() +
                               " as the parent directory: " +
                               (ec ? ec.message() : rp.empty() ? errno_text() : "not a directory"));
    t.path = fs::path(rp) / name;
  }
  t.shown = named(out, t.path);
  struct stat ts {};
  t.exists = lstat(t.path.c_str(), &ts) == 0;
  if (t.exists && !S_ISDIR(ts.st_mode)) throw Refused(t.shown + " exists and is not a directory");
  const std::string cwd = real_path(".");
  if (!cwd.empty() && is_under(cwd, t.path))
    throw Refused(t.shown + " is the current directory or one of its ancestors; refusing to "
                  "replace it (run from elsewhere, or choose another --out)");
  // Another run may be swapping the target at this moment (the same --out from several runs):
  // what it swaps out is emptied while we read it, which can look foreign for an instant. A
  // directory that is not ours looks so every time: check again before refusing.
  for (int attempt = 0; t.exists; ++attempt) {
    try {
      inspect(t.path, t.shown);
      break;
    } catch (const std::exception&) {
      if (attempt == 3) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      t.exists = lstat(t.path.c_str(), &ts) == 0;
    }
  }
  return t;
}

// A fresh name beside `target` for its old content (two-rename fallback).
std::string aside_name(const fs::path& target) {
  std::string templ =
      (target.parent_path() / ("." + target.filename().string() + ".old.tmp-XXXXXX")).string();
  if (!mkdtemp(templ.data()))
    throw std::runtime_error("cannot create a directory beside " + target.string() + ": " + errno_text());
  rmdir(templ.c_str());  // only the name is wanted: rename() needs it absent (or empty)
  return templ;
}

}  // namespace

struct Writer::Impl {
  Target target;
  std::string written_by;
  cleanup::TempDir tmp;
  bool committed = false;
  bool two_step = false;
  std::vector<std::string> notes;

  // Removes the old content (now at `old`, checked ours): the files its marker lists, its markers,
  // then its directories with rmdir. Anything else stays, and is said.
  void remove_old(const std::string& old) {
    const fs::path dir(old);
    std::error_code ec;
    if (auto listed = read_marker(dir / kMarker))
      for (const std::string& f : *listed) fs::remove(dir / f, ec);
    fs::remove(dir / kMarker, ec);
    fs::remove(dir / cleanup::kTempMarker, ec);
    std::vector<fs::path> subdirs;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec))
      if (it->symlink_status().type() == fs::file_type::directory) subdirs.push_back(it->path());
    std::sort(subdirs.begin(), subdirs.end(), [](const fs::path& a, const fs::path& b) {
      return a.string().size() > b.string().size();  // deeper (longer) first
    });
    for (const fs::path& d : subdirs) rmdir(d.c_str());
    if (rmdir(old.c_str()) != 0 && errno != ENOENT)
      notes.push_back("left " + old + " (the previous content of " + target.path.string() +
                      "): it holds files that appeared after it was checked");
  }
};

void check(const std::string& out) {
  const Target t = resolve(out);
  cleanup::TempDir probe = cleanup::make_temp_dir(t.path.parent_path().string(), t.path.filename().string());
  cleanup::remove_temp_dir(probe);
}

Writer::Writer(const std::string& out, const std::string& written_by) : impl_(new Impl) {
  try {
    impl_->target = resolve(out);
    impl_->written_by = written_by;
    const std::string parent = impl_->target.path.parent_path().string();
    const std::string stem = "." + impl_->target.path.filename().string() + ".";
    std::vector<std::string> unrecognised;
    for (const std::string& p : cleanup::sweep_stale(parent, &unrecognised))
      impl_->notes.push_back("removed " + p + ", the temporary directory of a gelucheck run that is gone");
    for (const std::string& p : unrecognised)
      if (fs::path(p).filename().string().rfind(stem, 0) == 0)
        impl_->notes.push_back("left " + p + " alone: it looks like a temporary directory of an "
                               "earlier gelucheck run, but nothing says that run is gone; remove "
                               "it yourself if no run is using it");
    impl_->tmp = cleanup::make_temp_dir(parent, impl_->target.path.filename().string());
    // mkdtemp made it 0700; give it the permissions a new directory would have.
    const mode_t mask = umask(0);
    umask(mask);
    chmod(impl_->tmp.path.c_str(), 0777 & ~mask);
  } catch (...) {
    delete impl_;
    throw;
  }
}

Writer::~Writer() {
  if (!impl_->committed) cleanup::remove_temp_dir(impl_->tmp);
  delete impl_;
}

const std::string& Writer::dir() const { return impl_->tmp.path; }
const std::string& Writer::target() const { return impl_->target.shown; }
const std::vector<std::string>& Writer::notes() const { return impl_->notes; }
void Writer::use_two_step_for_test() { impl_->two_step = true; }

void Writer::write_file(const std::string& rel, const std::string& text) {
  const fs::path p = fs::path(impl_->tmp.path) / rel;
  fs::create_directories(p.parent_path());
  std::ofstream f(p, std::ios::binary);
  f << text;
  f.close();
  if (!f) throw std::runtime_error("cannot write " + p.string());
}

void Writer::commit() {
  Impl& m = *impl_;
  const fs::path tmp(m.tmp.path);
  const fs::path& target = m.target.path;
  const std::string& shown = m.target.shown;

  // The marker lists every file written (our own temporary marker aside).
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  {
    std::vector<std::string> names;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(tmp, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      const fs::file_status st = it->symlink_status();
      const std::string rel = it->path().lexically_relative(tmp).string();
      if (st.type() == fs::file_type::directory || rel == cleanup::kTempMarker) continue;
      if (st.type() != fs::file_type::regular)
        throw std::runtime_error(it->path().string() + " is " + kind_of(st) +
                                 "; an output directory holds only files and directories");
      names.push_back(rel);
    }
    if (ec) throw std::runtime_error("cannot list " + tmp.string() + ": " + ec.message());
    std::sort(names.begin(), names.end());
    for (const std::string& n : names) files.push_back(n);
  }
  nlohmann::ordered_json marker;
  marker["schema"] = kMarkerSchema;
  marker["written_by"] = m.written_by;
  marker["files"] = files;
  write_file(kMarker, marker.dump(2) + "\n");
  cleanup::test_stall("written");
  // The temporary marker goes into place with the rest and is removed right after the swap, in
  // the same signal-free step; only a SIGKILL in between leaves it there, and inspect() lets it
  // be. (Removed before the swap, a SIGKILL in between would leave an unmarked directory that no
  // later run may remove.)
  const fs::path placed_marker = target / cleanup::kTempMarker;
  std::error_code ec;  // (its removal can only fail if it is already gone)

  std::string old;  // where the previous content went, to be removed
  bool done = false;
  // A few attempts: another run may create or swap the target between our steps.
  for (int attempt = 0; attempt < 8 && !done; ++attempt) {
    const cleanup::BlockSignals block;  // no signal between a swap and its bookkeeping
    struct stat st {};
    if (lstat(target.c_str(), &st) != 0) {
      // Absent: move in, unless it appeared meanwhile (then the next attempt swaps).
      int rc = m.two_step ? -1 : renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE);
      if (rc != 0 && (m.two_step || errno == EINVAL || errno == ENOSYS))
        rc = rename(tmp.c_str(), target.c_str());  // replaces an empty directory at most
      if (rc == 0) {
        cleanup::remove_path(m.tmp.token);
        fs::remove(placed_marker, ec);
        done = true;
      } else if (errno != EEXIST && errno != ENOTEMPTY) {
        throw std::runtime_error("cannot move " + tmp.string() + " to " + target.string() + ": " + errno_text());
      }
      continue;
    }
    if (!m.two_step) {
      if (renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0) {
        // The old content is at tmp now, where no one else looks: check it again.
        try {
          inspect(tmp, shown);
        } catch (const Refused&) {
          if (renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) != 0) {
            // Not ours and cannot be put back: keep it where it is, never remove it.
            cleanup::remove_path(m.tmp.token);
            m.committed = true;
            throw std::runtime_error(shown + " changed while being replaced, and putting it back "
                                     "failed (" + errno_text() + "): its previous content is in " +
                                     tmp.string());
          }
          throw;
        }
        fs::remove(placed_marker, ec);
        cleanup::mark_temp_dir(tmp.string());  // a SIGKILL from here on leaves it to the sweep
        old = tmp.string();
        done = true;
        continue;
      }
      if (errno == ENOENT) continue;  // gone meanwhile: the next attempt moves in
      if (errno != EINVAL && errno != ENOSYS)
        throw std::runtime_error("cannot swap " + tmp.string() + " with " + target.string() + ": " + errno_text());
      m.two_step = true;  // the filesystem lacks RENAME_EXCHANGE
    }
    // The documented fallback: the old content aside, the new into place, both under the block.
    inspect(target, shown);
    const std::string aside = aside_name(target);
    if (rename(target.c_str(), aside.c_str()) != 0) {
      if (errno == ENOENT) continue;
      throw std::runtime_error("cannot move " + target.string() + " aside: " + errno_text());
    }
    try {
      inspect(aside, shown);
    } catch (const Refused&) {
      rename(aside.c_str(), target.c_str());
      throw;
    }
    if (rename(tmp.c_str(), target.c_str()) != 0) {
      const std::string why = errno_text();
      if (rename(aside.c_str(), target.c_str()) != 0)
        throw std::runtime_error("cannot move " + tmp.string() + " into place (" + why +
                                 ") nor the previous content back: it is in " + aside);
      throw std::runtime_error("cannot move " + tmp.string() + " to " + target.string() + ": " + why);
    }
    cleanup::remove_path(m.tmp.token);
    m.tmp.token = cleanup::add_path(aside);
    fs::remove(placed_marker, ec);
    cleanup::mark_temp_dir(aside);
    old = aside;
    done = true;
  }
  if (!done) throw std::runtime_error(shown + " kept changing while being written; gave up");
  m.committed = true;
  cleanup::test_stall("swapped");
  if (!old.empty()) m.remove_old(old);
  cleanup::remove_path(m.tmp.token);
}

}  // namespace gelucheck::output
