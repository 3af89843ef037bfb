// Signal handling and temporary paths (gelucheck/cleanup.hpp).
//
// The handler may run at any instruction of any thread that does not block the three signals,
// so it touches only what is async-signal-safe (POSIX.1-2017 §2.4.3): kill, waitpid, openat,
// getdents64, unlinkat, write, raise, _exit, and the fixed tables below, whose slots it reads
// only once they are marked ready. Registration writes a slot first and publishes it after.
#include "gelucheck/cleanup.hpp"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gelucheck::cleanup {

void die_by_signal(int sig) {
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  raise(sig);
  _exit(128 + sig);  // not reached for a signal whose default action ends the process
}

namespace {

// Enough for every child and temporary path one run has at a time (a report: one property suite
// or gnuplot, its scratch directory and the report's temporary directory).
constexpr int kMaxGroups = 64;
constexpr int kMaxPaths = 64;
enum : int { kFree = 0, kBusy = 1, kReady = 2 };

struct GroupSlot {
  std::atomic<int> state{kFree};
  pid_t pgid = 0;
};
struct PathSlot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX] = {};
};
GroupSlot g_groups[kMaxGroups];
PathSlot g_paths[kMaxPaths];
std::atomic<bool> g_installed{false};
std::atomic<int> g_handling{0};
// Steps under way (BlockSignals): starting a child and registering its group, making a temporary
// directory and registering it. Signals blocked in one thread do not stop the handler on another
// (a report's property suites start on worker threads while the main thread takes the signal), so
// the handler waits for the steps under way before it reads the tables, and a step that would
// begin after the handler has begun never does (the thread waits for the end of the process).
// Both sides write their own flag then read the other's, sequentially consistent: either the
// handler sees the step or the step sees the handler.
std::atomic<int> g_steps{0};

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

static_assert(std::atomic<int>::is_always_lock_free, "the handler needs lock-free atomics");

template <typename Slot>
int claim(Slot* slots, int n) {
  for (int i = 0; i < n; ++i) {
    int expected = kFree;
    if (slots[i].state.compare_exchange_strong(expected, kBusy)) return i;
  }
  return -1;
}

void write_str(const char* s) {
  // Best effort: a message that cannot be written changes nothing the handler does.
  ssize_t rc = ::write(STDERR_FILENO, s, std::strlen(s));
  (void)rc;
}

// linux_dirent64, as getdents64(2) fills the buffer.
struct Dirent64 {
  std::uint64_t d_ino;
  std::int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};

// Deep enough for any tree gelucheck makes (a report is two levels deep); a deeper tree is left
// in part rather than overflowing the stack of a signal handler (kMaxDepth × 2 KiB).
constexpr int kMaxDepth = 24;

bool remove_at(int dirfd, const char* name, int depth) {
  if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT) return true;
  if (errno != EISDIR && errno != EPERM) return false;
  if (depth >= kMaxDepth) return false;
  const int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT;
  // Removing entries while reading a directory may make the reading skip some (POSIX leaves it
  // unspecified), so read it again from the start until a pass finds nothing left to remove.
  for (int pass = 0; pass < 16; ++pass) {
    alignas(8) char buf[2048];
    bool removed_any = false, left_any = false;
    if (lseek(fd, 0, SEEK_SET) != 0) break;
    for (;;) {
      const long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
      if (n <= 0) break;
      for (long off = 0; off < n;) {
        const auto* d = reinterpret_cast<const Dirent64*>(buf + off);
        off += d->d_reclen;
        const char* nm = d->d_name;
        if (nm[0] == '.' && (nm[1] == 0 || (nm[1] == '.' && nm[2] == 0))) continue;
        if (remove_at(fd, nm, depth + 1)) removed_any = true;
        else left_any = true;
      }
    }
    if (!removed_any || !left_any) break;
  }
  close(fd);
  return unlinkat(dirfd, name, AT_REMOVEDIR) == 0 || errno == ENOENT;
}

extern "C" void on_signal(int sig) {
  // Once per process: a second signal (on another thread) waits for the first to finish.
  if (g_handling.exchange(1) != 0) {
    for (;;) pause();
  }
  // Each step under way ends registered (a millisecond: a posix_spawn, a mkdtemp); 2 s at most,
  // in case one cannot end while this thread is interrupted (then it is left as it is).
  for (int tick = 0; tick < 2000 && g_steps.load() > 0; ++tick) {
    const timespec ms{0, 1000000};
    nanosleep(&ms, nullptr);
  }
  // Children first, so that none writes into a directory being removed.
  for (GroupSlot& g : g_groups)
    if (g.state.load(std::memory_order_acquire) == kReady) kill(-g.pgid, SIGKILL);
  // Reap the group leaders (each our child) so that none is left a zombie of a dead parent;
  // SIGKILL cannot be caught, so this takes milliseconds; 1 s at most in all.
  for (int tick = 0; tick < 1000; ++tick) {
    bool waiting = false;
    for (GroupSlot& g : g_groups) {
      if (g.state.load(std::memory_order_acquire) != kReady) continue;
      const pid_t r = waitpid(g.pgid, nullptr, WNOHANG);
      if (r == 0) waiting = true;
    }
    if (!waiting) break;
    const timespec ms{0, 1000000};
    nanosleep(&ms, nullptr);
  }
  for (PathSlot& p : g_paths)
    if (p.state.load(std::memory_order_acquire) == kReady) remove_tree(p.path);

  write_str(program_invocation_short_name);
  write_str(": stopped by SIG");
  const char* abbrev = sigabbrev_np(sig);
  write_str(abbrev ? abbrev : "?");
  write_str("; child processes killed, temporary files removed\n");

  die_by_signal(sig);  // so that the parent sees how we ended
}

std::string read_text(const std::string& path) {
  std::ifstream f(path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The start time of a process (field 22 of /proc/PID/stat, clock ticks since boot) and whether it
// is a zombie; empty when the process does not exist.
struct ProcState {
  bool exists = false, zombie = false;
  std::string start;
};
ProcState proc_state(pid_t pid) {
  ProcState s;
  const std::string stat = read_text("/proc/" + std::to_string(pid) + "/stat");
  const auto paren = stat.rfind(')');  // the command name may hold spaces and parentheses
  if (paren == std::string::npos) return s;
  std::istringstream in(stat.substr(paren + 1));
  std::string field;
  // Fields after the name: 3 state, ..., 22 starttime.
  for (int i = 3; i <= 22 && in >> field; ++i) {
    if (i == 3) s.zombie = field == "Z" || field == "X";
    if (i == 22) s.start = field;
  }
  s.exists = !s.start.empty();
  return s;
}

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "?";
  return buf;
}

std::string boot_id() {
  std::string id = read_text("/proc/sys/kernel/random/boot_id");
  while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
  return id;
}

// The marker's text: one "key value" per line.
std::string marker_text() {
  const pid_t pid = getpid();
  return "pid " + std::to_string(pid) + "\nstart " + proc_state(pid).start + "\nhost " +
         host_name() + "\nboot " + boot_id() + "\n";
}

bool write_marker(const std::string& dir) {
  std::ofstream f(dir + "/" + kTempMarker);
  f << marker_text();
  f.close();
  return static_cast<bool>(f);
}

// Whether `name` is `.STEM.tmp-XXXXXX`, the shape make_temp_dir gives.
bool temp_shaped(const std::string& name) {
  const std::string tag = ".tmp-";
  return name.size() > tag.size() + 6 + 1 && name[0] == '.' &&
         name.compare(name.size() - 6 - tag.size(), tag.size(), tag) == 0;
}

}  // namespace

void install() {
  if (g_installed.exchange(true)) return;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int s : kSignals) sigaddset(&sa.sa_mask, s);  // one signal at a time
  sa.sa_flags = 0;
  for (int s : kSignals) {
    struct sigaction old {};
    if (sigaction(s, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(s, &sa, nullptr);
  }
}

bool installed() { return g_installed.load(); }

int add_process_group(pid_t pgid) {
  const int i = claim(g_groups, kMaxGroups);
  if (i < 0) return -1;
  g_groups[i].pgid = pgid;
  g_groups[i].state.store(kReady, std::memory_order_release);
  return i;
}

void remove_process_group(int token) {
  if (token >= 0 && token < kMaxGroups) g_groups[token].state.store(kFree, std::memory_order_release);
}

int add_path(const std::string& path) {
  std::error_code ec;
  const std::string abs = std::filesystem::absolute(path, ec).string();
  if (ec || abs.size() >= PATH_MAX) return -1;
  const int i = claim(g_paths, kMaxPaths);
  if (i < 0) return -1;
  std::memcpy(g_paths[i].path, abs.c_str(), abs.size() + 1);
  g_paths[i].state.store(kReady, std::memory_order_release);
  return i;
}

void remove_path(int token) {
  if (token >= 0 && token < kMaxPaths) g_paths[token].state.store(kFree, std::memory_order_release);
}

BlockSignals::BlockSignals() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : kSignals) sigaddset(&set, s);
  pthread_sigmask(SIG_BLOCK, &set, &saved_);
  g_steps.fetch_add(1);
  if (g_handling.load() != 0) {
    // The handler runs on another thread and ends the process: nothing new is started.
    g_steps.fetch_sub(1);
    for (;;) pause();
  }
}
BlockSignals::~BlockSignals() {
  g_steps.fetch_sub(1);
  pthread_sigmask(SIG_SETMASK, &saved_, nullptr);
}

bool remove_tree(const char* path) { return remove_at(AT_FDCWD, path, 0); }

TempDir make_temp_dir(const std::string& parent, const std::string& stem) {
  const BlockSignals block;  // no window between making the directory and registering it
  std::string templ = (parent.empty() ? std::string(".") : parent) + "/." + stem + ".tmp-XXXXXX";
  if (!mkdtemp(templ.data()))
    throw std::runtime_error("cannot create a temporary directory in " + parent + ": " +
                             std::strerror(errno));
  TempDir t;
  t.path = templ;
  t.token = add_path(t.path);
  if (!write_marker(t.path)) {
    remove_temp_dir(t);
    throw std::runtime_error("cannot write " + t.path + "/" + kTempMarker);
  }
  return t;
}

void mark_temp_dir(const std::string& dir) { write_marker(dir); }

void remove_temp_dir(TempDir& t) {
  if (!t.path.empty()) remove_tree(t.path.c_str());
  remove_path(t.token);
  t = TempDir{};
}

std::vector<std::string> sweep_stale(const std::string& parent,
                                     std::vector<std::string>* unrecognised) {
  namespace fs = std::filesystem;
  std::vector<std::string> removed;
  std::error_code ec;
  const std::string host = host_name(), boot = boot_id();
  for (fs::directory_iterator it(parent.empty() ? "." : parent, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!temp_shaped(name) || !it->is_directory(ec) || it->is_symlink(ec)) continue;
    std::istringstream in(read_text((it->path() / kTempMarker).string()));
    std::string key, value, m_host, m_boot, m_start;
    long m_pid = 0;
    while (in >> key >> value) {
      if (key == "pid") m_pid = std::atol(value.c_str());
      else if (key == "start") m_start = value;
      else if (key == "host") m_host = value;
      else if (key == "boot") m_boot = value;
    }
    // Only what this host made can be judged: the same pid elsewhere says nothing.
    if (m_pid <= 0 || m_host != host) {
      if (unrecognised) unrecognised->push_back(it->path().string());
      continue;
    }
    bool stale = m_boot != boot;  // made before the last boot: its process is gone
    if (!stale) {
      const ProcState s = proc_state(static_cast<pid_t>(m_pid));
      stale = !s.exists || s.zombie || s.start != m_start;  // gone, dead, or the pid reused
    }
    if (stale && remove_tree(it->path().c_str())) removed.push_back(it->path().string());
  }
  return removed;
}

void test_stall(const char* stage) {
  const char* want = std::getenv("GELUCHECK_TEST_ONLY_STALL_AT");
  if (!want || std::strcmp(want, stage) != 0) return;
  std::fprintf(stderr, "%s: TEST ONLY: stalled at %s (pid %ld)\n", program_invocation_short_name,
               stage, static_cast<long>(getpid()));
  std::fflush(stderr);
  for (;;) pause();
}

}  // namespace gelucheck::cleanup
