// Writing the report directory atomically: everything goes into a fresh directory beside --out,
// renamed into place only when complete, so a failure never leaves a half-written report.
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "internal.hpp"

namespace gelucheck::report {
namespace {

namespace fs = std::filesystem;

struct Target {
  fs::path out, parent;
  bool exists = false;
};

// Resolves --out and refuses what must not be replaced.
Target inspect(const std::string& out) {
  if (out.empty()) throw std::runtime_error("--out: empty path");
  Target t;
  std::error_code ec;
  t.out = fs::absolute(fs::path(out), ec).lexically_normal();
  if (ec) throw std::runtime_error("--out " + out + ": " + ec.message());
  if (t.out.filename().empty()) t.out = t.out.parent_path();  // "dir/" → "dir"
  t.parent = t.out.parent_path();
  fs::create_directories(t.parent, ec);
  if (ec || !fs::is_directory(t.parent))
    throw std::runtime_error("--out " + out + ": cannot use " + t.parent.string() +
                             " as the parent directory" + (ec ? ": " + ec.message() : ""));
  const fs::file_status st = fs::symlink_status(t.out, ec);
  t.exists = fs::exists(st);
  if (t.exists) {
    if (!fs::is_directory(st))
      throw std::runtime_error("--out " + out + ": exists and is not a directory");
    if (!fs::is_empty(t.out, ec) && !fs::exists(t.out / "report.json"))
      throw std::runtime_error("--out " + out + ": directory exists, is not empty and holds no "
                               "report.json; refusing to replace it (choose another --out)");
  }
  return t;
}

fs::path make_temp_dir(const fs::path& parent, const std::string& stem) {
  std::string templ = (parent / ("." + stem + ".tmp-XXXXXX")).string();
  if (!mkdtemp(templ.data()))
    throw std::runtime_error("cannot create a directory in " + parent.string() + ": " +
                             std::strerror(errno));
  return templ;
}

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  f << text;
  f.close();
  if (!f) throw std::runtime_error("cannot write " + p.string());
}

}  // namespace

void check_writable(const std::string& out) {
  const Target t = inspect(out);
  std::error_code ec;
  fs::remove(make_temp_dir(t.parent, t.out.filename().string()), ec);
}

void write(const Report& r, const std::string& out) {
  const Target t = inspect(out);
  const std::string stem = t.out.filename().string();
  const fs::path tmp = make_temp_dir(t.parent, stem);
  std::error_code ec;
  try {
    if (r.options.plots) draw_plots(r, tmp.string());
    const nlohmann::ordered_json j = to_json(r);
    write_file(tmp / "report.json", j.dump(2) + "\n");
    write_file(tmp / "report.md", to_markdown(j));
    // mkdtemp made it 0700; give it the permissions a new directory would have.
    const mode_t mask = umask(0);
    umask(mask);
    chmod(tmp.c_str(), 0777 & ~mask);
    fs::path old;
    if (t.exists) {
      old = make_temp_dir(t.parent, stem + ".old");
      fs::remove(old);
      fs::rename(t.out, old);  // throws with the path on failure
    }
    try {
      fs::rename(tmp, t.out);
    } catch (...) {
      if (!old.empty()) fs::rename(old, t.out, ec);  // put the previous report back
      throw;
    }
    if (!old.empty()) fs::remove_all(old, ec);
  } catch (const std::exception& e) {
    fs::remove_all(tmp, ec);
    throw std::runtime_error(std::string("writing the report to ") + t.out.string() + ": " + e.what());
  }
}

}  // namespace gelucheck::report
