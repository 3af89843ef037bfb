// How much memory a run may still take (gelucheck/resources.hpp).
#include "gelucheck/resources.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

namespace gelucheck {
namespace {

// The value of `key` (in kB) in a /proc file of "Key:   value kB" lines, in bytes.
std::optional<std::uint64_t> proc_kib(const char* path, const std::string& key) {
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line))
    if (line.compare(0, key.size() + 1, key + ":") == 0) {
      std::istringstream in(line.substr(key.size() + 1));
      std::uint64_t kib = 0;
      if (in >> kib) return kib * 1024;
    }
  return std::nullopt;
}

std::optional<std::uint64_t> read_number(const std::string& path) {
  std::ifstream f(path);
  std::string s;
  if (!(f >> s) || s == "max") return std::nullopt;
  try {
    const std::uint64_t v = std::stoull(s);
    if (v >= (std::uint64_t{1} << 62)) return std::nullopt;  // v1's "no limit" is ~2^63
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The room under the cgroup's memory limit, if there is one: v2 (the "0::PATH" line of
// /proc/self/cgroup) or v1 (the "N:memory:PATH" line); in a container the path may not exist
// under the mount, and then the mount's root is the cgroup.
std::optional<std::uint64_t> cgroup_room() {
  std::ifstream f("/proc/self/cgroup");
  std::string line;
  while (std::getline(f, line)) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    std::string dir, max_file, usage_file;
    if (controllers.empty()) {
      dir = "/sys/fs/cgroup";
      max_file = "memory.max";
      usage_file = "memory.current";
    } else if (controllers == "memory") {
      dir = "/sys/fs/cgroup/memory";
      max_file = "memory.limit_in_bytes";
      usage_file = "memory.usage_in_bytes";
    } else {
      continue;
    }
    for (const std::string& d : {dir + path, dir}) {
      const auto max = read_number(d + "/" + max_file);
      if (!max) continue;
      const std::uint64_t used = read_number(d + "/" + usage_file).value_or(0);
      return *max > used ? *max - used : 0;
    }
  }
  return std::nullopt;
}

}  // namespace

AvailableMemory available_memory(unsigned threads) {
  AvailableMemory a{std::numeric_limits<std::uint64_t>::max(), "no limit found"};
  auto consider = [&](std::optional<std::uint64_t> bytes, const char* source) {
    if (bytes && *bytes < a.bytes) a = {*bytes, source};
  };
  consider(proc_kib("/proc/meminfo", "MemAvailable"), "MemAvailable (/proc/meminfo)");
  consider(cgroup_room(), "the room under the cgroup's memory limit");
  rlimit as{};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const std::uint64_t size = proc_kib("/proc/self/status", "VmSize").value_or(0);
    const std::uint64_t reserved = std::uint64_t{threads} * (72u << 20);
    const std::uint64_t limit = as.rlim_cur;
    consider(limit > size + reserved ? limit - size - reserved : 0,
             "the room under RLIMIT_AS (ulimit -v)");
  }
  return a;
}

std::string mebibytes(std::uint64_t bytes) {
  char buf[32];
  const double mib = static_cast<double>(bytes) / (1 << 20);
  if (mib >= 1024) std::snprintf(buf, sizeof buf, "%.1f GiB", mib / 1024);
  else std::snprintf(buf, sizeof buf, "%.0f MiB", mib);
  return buf;
}

}  // namespace gelucheck
