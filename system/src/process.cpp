// Child processes (gelucheck/process.hpp).
//
// Each child is started by posix_spawnp in a process group of its own (POSIX_SPAWN_SETPGROUP),
// with an empty signal mask and SIGINT/SIGTERM/SIGHUP/SIGPIPE at their default actions, and its
// group is registered with cleanup before any signal can be handled (cleanup::BlockSignals).
// A child's end is seen without reaping it (waitid WNOWAIT), its group is then sent SIGKILL
// (ending whatever it left running in the group) and only then is it reaped: while the leader is
// an unreaped zombie its pid cannot be reused, so the signal cannot reach an unrelated group.
#include "gelucheck/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <thread>

#include "gelucheck/cleanup.hpp"

extern char** environ;

namespace gelucheck::process {

int Exit::shell_status() const {
  if (kind == Kind::exited) return code;
  if (kind == Kind::signalled) return 128 + code;
  return -1;
}

namespace {

using Clock = std::chrono::steady_clock;

std::string signal_words(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return "killed by signal " + std::to_string(sig) + (abbrev ? " (SIG" + std::string(abbrev) + ")" : "");
}

Exit from_status(int status) {
  Exit e;
  if (WIFEXITED(status)) {
    e.kind = Exit::Kind::exited;
    e.code = WEXITSTATUS(status);
    e.why = "exited with status " + std::to_string(e.code);
  } else if (WIFSIGNALED(status)) {
    e.kind = Exit::Kind::signalled;
    e.code = WTERMSIG(status);
    e.why = signal_words(e.code);
  } else {
    e.kind = Exit::Kind::exited;
    e.code = -1;
    e.why = "ended with wait status " + std::to_string(status);
  }
  return e;
}

Exit not_started(const std::string& why) {
  Exit e;
  e.kind = Exit::Kind::not_started;
  e.why = why;
  return e;
}

// Our environment with the NAME=value pairs of `add` replacing or adding entries.
std::vector<std::string> environment(const std::vector<std::string>& add) {
  std::vector<std::string> envs;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    bool replaced = false;
    for (const std::string& a : add) {
      const std::size_t n = a.find('=') + 1;  // 0 when no '=': compares nothing, replaces nothing
      if (n > 0 && entry.compare(0, n, a, 0, n) == 0) replaced = true;
    }
    if (!replaced) envs.push_back(entry);
  }
  envs.insert(envs.end(), add.begin(), add.end());
  return envs;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> p;
  for (std::string& s : strings) p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

struct Started {
  pid_t pid = -1;
  int token = -1;
  std::string error;
};

// What the child's descriptors 0, 1, 2 become: a descriptor of ours (dup2), a file opened in the
// child, or ours inherited.
struct Stdio {
  int fd = -1;           // >= 0: dup2 it
  std::string path;      // else non-empty: open it
  int flags = 0;
  bool same_as_stdout = false;  // (stderr only) dup2 of the child's descriptor 1
};

Started spawn(const Spec& spec, const Stdio io[3]) {
  Started s;
  if (spec.argv.empty() || spec.argv[0].empty()) {
    s.error = "no program to run";
    return s;
  }
  std::vector<std::string> envs = environment(spec.env), args = spec.argv;
  std::vector<char*> envp = pointers(envs), argp = pointers(args);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, spec.cwd.c_str());
  for (int target = 0; target < 3; ++target) {
    if (io[target].same_as_stdout) posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, target);
    else if (io[target].fd >= 0) posix_spawn_file_actions_adddup2(&fa, io[target].fd, target);
    else if (!io[target].path.empty())
      posix_spawn_file_actions_addopen(&fa, target, io[target].path.c_str(), io[target].flags, 0644);
  }
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, dfl;
  sigemptyset(&none);
  sigemptyset(&dfl);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaddset(&dfl, sig);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);  // a group of its own, led by the child
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &dfl);
  int rc;
  {
    // Started and registered as one step: a signal in between would leave an orphan.
    const cleanup::BlockSignals block;
    rc = posix_spawnp(&s.pid, argp[0], &fa, &attr, argp.data(), envp.data());
    if (rc == 0) s.token = cleanup::add_process_group(s.pid);
  }
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    s.pid = -1;
    s.error = "cannot run " + spec.argv[0] + ": " + std::strerror(rc);
  }
  return s;
}

// Whether `pid` (our child) has ended, without reaping it.
bool ended(pid_t pid) {
  siginfo_t si{};
  while (waitid(P_PID, static_cast<id_t>(pid), &si, WEXITED | WNOHANG | WNOWAIT) < 0)
    if (errno != EINTR) return true;  // ECHILD: not ours to wait for any more
  return si.si_pid == pid;
}

// Waits until `pid` ends or `deadline` passes (never, when absent); true when it ended. Polls a
// pidfd (Linux 5.3) when there is one, else sleeps in steps of up to 20 ms.
bool wait_ended(pid_t pid, std::optional<Clock::time_point> deadline) {
  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  bool done = false;
  auto step = std::chrono::milliseconds(1);
  while (!(done = ended(pid))) {
    int timeout = -1;
    if (deadline) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now());
      if (left.count() <= 0) break;
      timeout = static_cast<int>(std::min<long long>(left.count(), INT_MAX));
    }
    if (pidfd >= 0) {
      pollfd p{pidfd, POLLIN, 0};
      ::poll(&p, 1, timeout);
    } else {
      std::this_thread::sleep_for(timeout < 0 ? step : std::min(step, std::chrono::milliseconds(timeout)));
      step = std::min(step * 2, std::chrono::milliseconds(20));
    }
  }
  if (pidfd >= 0) close(pidfd);
  return done;
}

// The child has ended (or is being killed): end the rest of its group, reap it, unregister.
Exit reap(pid_t pid, int token, bool kill_first) {
  if (kill_first) kill(-pid, SIGKILL);
  wait_ended(pid, std::nullopt);
  kill(-pid, SIGKILL);  // the leader is an unreaped zombie: its group id is still ours
  int status = 0;
  pid_t r;
  while ((r = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {}
  cleanup::remove_process_group(token);
  if (r != pid) return not_started(std::string("waitpid: ") + std::strerror(errno));
  return from_status(status);
}

std::string millis(std::chrono::milliseconds t) { return std::to_string(t.count()) + " ms"; }

}  // namespace

Exit run(const Spec& spec, const std::string& log, std::optional<std::chrono::milliseconds> timeout) {
  Stdio io[3];
  io[0].path = "/dev/null";
  io[0].flags = O_RDONLY;
  io[1].path = log.empty() ? "/dev/null" : log;
  io[1].flags = O_WRONLY | O_CREAT | O_APPEND;
  io[2].same_as_stdout = true;
  const Started s = spawn(spec, io);
  if (s.pid < 0) return not_started(s.error);
  std::optional<Clock::time_point> deadline;
  if (timeout) deadline = Clock::now() + *timeout;
  if (wait_ended(s.pid, deadline)) return reap(s.pid, s.token, false);
  reap(s.pid, s.token, true);
  Exit e;
  e.kind = Exit::Kind::timed_out;
  e.why = spec.argv[0] + " did not finish within " + millis(*timeout) + "; killed";
  return e;
}

struct Child::Impl {
  pid_t pid = -1;
  int token = -1;
  int in = -1, out = -1;  // our ends: the child's stdin (we write), its stdout (we read)
  std::string buf;        // read from `out`, not yet returned
  std::string error;
  bool timed_out = false;
  std::optional<Exit> exit;
  std::string name;

  bool fail(const std::string& why, bool deadline = false) {
    error = why;
    timed_out = deadline;
    return false;
  }
  // Waits for `events` on fd until the deadline; false (with the error set) when it passed.
  bool wait_fd(int fd, short events, Clock::time_point deadline) {
    for (;;) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return fail("timed out", true);
      pollfd p{fd, events, 0};
      const int rc = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), INT_MAX)));
      if (rc > 0) return true;  // ready, or POLLHUP/POLLERR: the read or write says which
      if (rc < 0 && errno != EINTR) return fail(std::string("poll: ") + std::strerror(errno));
    }
  }
  // Reads what is there (at least one byte) into buf.
  bool fill(Clock::time_point deadline) {
    if (out < 0) return fail("end of stream");
    for (;;) {
      if (!wait_fd(out, POLLIN, deadline)) return false;
      char chunk[65536];
      const ssize_t n = ::read(out, chunk, sizeof chunk);
      if (n > 0) {
        buf.append(chunk, static_cast<std::size_t>(n));
        return true;
      }
      if (n == 0) return fail("end of stream");
      if (errno != EAGAIN && errno != EINTR) return fail(std::strerror(errno));
    }
  }
  void close_fds() {
    if (in >= 0) close(in);
    if (out >= 0) close(out);
    in = out = -1;
  }
};

Child::Child(const Spec& spec, const std::string& stderr_log) : impl_(new Impl) {
  impl_->name = spec.argv.empty() ? "" : spec.argv[0];
  int to_child[2], from_child[2];
  // O_CLOEXEC: no other child inherits our ends (it would hold this child's stdin open).
  if (pipe2(to_child, O_CLOEXEC) != 0) {
    impl_->exit = not_started(std::string("pipe: ") + std::strerror(errno));
    impl_->error = impl_->exit->why;
    return;
  }
  if (pipe2(from_child, O_CLOEXEC) != 0) {
    impl_->exit = not_started(std::string("pipe: ") + std::strerror(errno));
    impl_->error = impl_->exit->why;
    close(to_child[0]);
    close(to_child[1]);
    return;
  }
  // 1 MiB pipes (Linux's default limit for an unprivileged process; best effort): a lib: call
  // of 2^16 binary64 inputs is 512 KiB each way, which the default 64 KiB moves in eight
  // wake-ups of each side.
  for (int fd : {to_child[1], from_child[0]}) fcntl(fd, F_SETPIPE_SZ, 1 << 20);
  Stdio io[3];
  io[0].fd = to_child[0];
  io[1].fd = from_child[1];
  if (!stderr_log.empty()) {
    io[2].path = stderr_log;
    io[2].flags = O_WRONLY | O_CREAT | O_APPEND;
  }
  const Started s = spawn(spec, io);
  close(to_child[0]);
  close(from_child[1]);
  impl_->in = to_child[1];
  impl_->out = from_child[0];
  // Non-blocking: a write larger than the pipe's free space must not block past its deadline.
  fcntl(impl_->in, F_SETFL, fcntl(impl_->in, F_GETFL) | O_NONBLOCK);
  fcntl(impl_->out, F_SETFL, fcntl(impl_->out, F_GETFL) | O_NONBLOCK);
  if (s.pid < 0) {
    impl_->exit = not_started(s.error);
    impl_->error = s.error;
    impl_->close_fds();
    return;
  }
  impl_->pid = s.pid;
  impl_->token = s.token;
}

Child::~Child() {
  if (!impl_->exit) kill();
  impl_->close_fds();
  delete impl_;
}

bool Child::alive() const { return !impl_->exit && impl_->pid > 0 && !ended(impl_->pid); }
pid_t Child::pid() const { return impl_->pid; }
const std::string& Child::error() const { return impl_->error; }
bool Child::timed_out() const { return impl_->timed_out; }

bool Child::write_all(const void* data, std::size_t n, Clock::time_point deadline) {
  Impl& m = *impl_;
  if (m.in < 0) return m.fail("end of stream");
  // A write to a pipe whose reader is gone raises SIGPIPE, which would end gelucheck: block it
  // for the write, and take back the one our write raised (if none was pending before).
  sigset_t pipe_set, old, pending;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  sigpending(&pending);
  const bool was_pending = sigismember(&pending, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
  const char* p = static_cast<const char*>(data);
  bool ok = true;
  while (n > 0) {
    if (!m.wait_fd(m.in, POLLOUT, deadline)) {
      ok = false;
      break;
    }
    const ssize_t w = ::write(m.in, p, n);
    if (w > 0) {
      p += w;
      n -= static_cast<std::size_t>(w);
    } else if (w < 0 && errno != EAGAIN && errno != EINTR) {
      const int err = errno;
      if (err == EPIPE && !was_pending) {
        const timespec zero{0, 0};
        sigtimedwait(&pipe_set, nullptr, &zero);
      }
      ok = m.fail(err == EPIPE ? "end of stream" : std::strerror(err));
      break;
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return ok;
}

bool Child::read_exact(void* data, std::size_t n, Clock::time_point deadline) {
  Impl& m = *impl_;
  // What a read_line took past its line first, then the rest straight from the pipe into `data`:
  // not through fill()'s chunk and `buf`, two more copies of a lib: subject's results.
  auto* d = static_cast<char*>(data);
  const std::size_t have = std::min(n, m.buf.size());
  std::memcpy(d, m.buf.data(), have);
  m.buf.erase(0, have);
  d += have;
  n -= have;
  if (n > 0 && m.out < 0) return m.fail("end of stream");
  while (n > 0) {
    const ssize_t r = ::read(m.out, d, n);  // non-blocking: poll only when nothing is there
    if (r > 0) {
      d += r;
      n -= static_cast<std::size_t>(r);
    } else if (r == 0) {
      return m.fail("end of stream");
    } else if (errno == EAGAIN) {
      if (!m.wait_fd(m.out, POLLIN, deadline)) return false;
    } else if (errno != EINTR) {
      return m.fail(std::strerror(errno));
    }
  }
  return true;
}

bool Child::read_line(std::string& line, Clock::time_point deadline, std::size_t max_line) {
  Impl& m = *impl_;
  std::size_t searched = 0;
  for (;;) {
    const std::size_t nl = m.buf.find('\n', searched);
    if (nl != std::string::npos) {
      if (nl > max_line) return m.fail("line too long");
      line.assign(m.buf, 0, nl);
      m.buf.erase(0, nl + 1);
      return true;
    }
    if (m.buf.size() > max_line) return m.fail("line too long");
    searched = m.buf.size();
    if (!m.fill(deadline)) return false;
  }
}

Exit Child::finish(std::chrono::milliseconds grace) {
  Impl& m = *impl_;
  if (m.exit) return *m.exit;
  if (m.in >= 0) close(m.in);
  m.in = -1;
  if (wait_ended(m.pid, Clock::now() + grace)) {
    m.exit = reap(m.pid, m.token, false);
  } else {
    reap(m.pid, m.token, true);
    Exit e;
    e.kind = Exit::Kind::timed_out;
    e.why = m.name + " did not exit within " + millis(grace) + " of its input's end; killed";
    m.exit = e;
  }
  m.close_fds();
  return *m.exit;
}

Exit Child::kill() {
  Impl& m = *impl_;
  if (m.exit) return *m.exit;
  m.exit = reap(m.pid, m.token, !ended(m.pid));
  m.close_fds();
  return *m.exit;
}

std::optional<Exit> Child::poll() {
  Impl& m = *impl_;
  if (!m.exit && ended(m.pid)) m.exit = reap(m.pid, m.token, false);
  return m.exit;
}

std::string self_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.parent_path().string();
}

}  // namespace gelucheck::process
