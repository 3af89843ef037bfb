// gelucheck/resources.hpp — how much memory a run may still take, so that a command can refuse
// work that will not fit (with the figures) before it starts, instead of dying of std::bad_alloc
// or waking the OOM killer hours in.
#pragma once

#include <cstdint>
#include <string>

namespace gelucheck {

struct AvailableMemory {
  std::uint64_t bytes = 0;
  std::string source;  // which limit is the least: "MemAvailable (/proc/meminfo)", ...
};

// The least of: the machine's MemAvailable (/proc/meminfo: free memory plus what the kernel can
// reclaim without swapping); the room under the cgroup's memory limit (v2 memory.max, v1
// memory.limit_in_bytes, less the usage); and the room under RLIMIT_AS (`ulimit -v`) above this
// process's virtual size, less `threads` × 72 MiB (what each thread started later reserves of
// address space: an 8 MiB stack and glibc's 64 MiB malloc arena). A limit that cannot be read
// counts as none.
AvailableMemory available_memory(unsigned threads);

// "812 MiB", "3.4 GiB": a size for a message.
std::string mebibytes(std::uint64_t bytes);

}  // namespace gelucheck
