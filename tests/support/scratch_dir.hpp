// A fresh directory under the system's temporary one for a test's files, removed with everything
// in it when the test is done.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace gelucheck::testing {

class ScratchDir {
 public:
  // `stem` names it in /tmp (gelucheck-STEM-XXXXXX), for whoever finds one a crash left.
  explicit ScratchDir(const std::string& stem = "test") {
    std::string t = (std::filesystem::temp_directory_path() / ("gelucheck-" + stem + "-XXXXXX")).string();
    if (!mkdtemp(t.data())) throw std::runtime_error("cannot make a scratch directory " + t);
    path_ = t;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return (std::filesystem::path(path_) / name).string(); }

 private:
  std::string path_;
};

}  // namespace gelucheck::testing
