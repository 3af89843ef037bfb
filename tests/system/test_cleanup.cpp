// cleanup.hpp: temporary directories and their markers, the sweep of stale ones, the tree
// remover, and the handler itself — a forked copy of this test makes a temporary directory and a
// child (with a grandchild), is sent a real signal, and must end by that signal leaving neither.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "gelucheck/cleanup.hpp"
#include "gelucheck/process.hpp"
#include "orphans.hpp"

namespace gelucheck::cleanup {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using gelucheck::testing::gone;

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void put(const fs::path& p, const std::string& text) {
  std::ofstream f(p);
  f << text;
}

// A directory of this test's own under the system's temporary one.
class Sandbox {
 public:
  Sandbox() : dir_(fs::temp_directory_path() / ("gelucheck-cleanup-test-" + std::to_string(getpid()))) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~Sandbox() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  const fs::path& dir() const { return dir_; }

 private:
  fs::path dir_;
};

std::string field(const std::string& marker, const std::string& key) {
  std::istringstream in(marker);
  std::string k, v;
  while (in >> k >> v)
    if (k == key) return v;
  return "";
}

TEST(TempDir, MarkerNamesUs) {
  const Sandbox box;
  TempDir t = make_temp_dir(box.dir().string(), "out");
  const fs::path p = t.path;
  EXPECT_EQ(p.parent_path(), box.dir());
  const std::string name = p.filename().string();
  EXPECT_EQ(name.rfind(".out.tmp-", 0), 0u) << name;
  EXPECT_EQ(name.size(), std::string(".out.tmp-XXXXXX").size());
  EXPECT_GE(t.token, 0);
  const std::string marker = slurp(p / kTempMarker);
  EXPECT_EQ(field(marker, "pid"), std::to_string(getpid()));
  EXPECT_FALSE(field(marker, "start").empty());
  EXPECT_FALSE(field(marker, "host").empty());
  // Our own live directory is not stale.
  EXPECT_TRUE(sweep_stale(box.dir().string()).empty());
  EXPECT_TRUE(fs::exists(p));
  remove_temp_dir(t);
  EXPECT_FALSE(fs::exists(p));
  EXPECT_TRUE(t.path.empty());
  EXPECT_THROW(make_temp_dir((box.dir() / "missing").string(), "x"), std::runtime_error);
}

TEST(SweepStale, RemovesOnlyTheDeadRunsOfThisHost) {
  const Sandbox box;
  TempDir live = make_temp_dir(box.dir().string(), "live");
  const std::string ours = slurp(fs::path(live.path) / kTempMarker);
  // A pid that ran and is gone: a child we started and reaped.
  pid_t gone_pid = 0;
  {
    process::Child c(process::Spec{{"true"}, "", {}});
    gone_pid = c.pid();
    ASSERT_TRUE(c.finish().ok());
  }
  auto marker = [&](const std::string& pid, const std::string& start, const std::string& host) {
    return "pid " + pid + "\nstart " + start + "\nhost " + host + "\nboot " +
           field(ours, "boot") + "\n";
  };
  const fs::path dead = box.dir() / ".report.tmp-AAAAAA";
  fs::create_directories(dead / "plot-data");
  put(dead / "plot-data" / "x.dat", "1 2\n");
  put(dead / kTempMarker, marker(std::to_string(gone_pid), "1", field(ours, "host")));
  // Our pid, with a start time that is not ours: the pid was reused since.
  const fs::path reused = box.dir() / ".report.tmp-BBBBBB";
  fs::create_directories(reused);
  put(reused / kTempMarker, marker(std::to_string(getpid()), "1", field(ours, "host")));
  const fs::path elsewhere = box.dir() / ".report.tmp-CCCCCC";
  fs::create_directories(elsewhere);
  put(elsewhere / kTempMarker, marker("1", "0", "another-host-" + field(ours, "host")));
  const fs::path unmarked = box.dir() / ".report.tmp-DDDDDD";
  fs::create_directories(unmarked);
  const fs::path not_ours = box.dir() / "report.tmp-EEEEEE";  // not hidden: not our shape
  fs::create_directories(not_ours);
  put(not_ours / kTempMarker, marker("1", "0", field(ours, "host")));

  std::vector<std::string> left;
  std::vector<std::string> removed = sweep_stale(box.dir().string(), &left);
  std::sort(removed.begin(), removed.end());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(removed, (std::vector<std::string>{dead.string(), reused.string()}));
  EXPECT_EQ(left, (std::vector<std::string>{elsewhere.string(), unmarked.string()}));
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_FALSE(fs::exists(reused));
  EXPECT_TRUE(fs::exists(elsewhere));
  EXPECT_TRUE(fs::exists(unmarked));
  EXPECT_TRUE(fs::exists(not_ours));
  EXPECT_TRUE(fs::exists(live.path));
  remove_temp_dir(live);
}

TEST(RemoveTree, DoesNotFollowLinks) {
  const Sandbox box;
  const fs::path keep = box.dir() / "keep";
  fs::create_directories(keep);
  put(keep / "precious", "x");
  const fs::path tree = box.dir() / "tree";
  fs::create_directories(tree / "a" / "b" / "c");
  for (int i = 0; i < 500; ++i) put(tree / "a" / ("f" + std::to_string(i)), "y");  // several reads
  put(tree / "a" / "b" / "c" / "deep", "z");
  fs::create_directory_symlink(keep, tree / "a" / "link-to-keep");
  fs::create_symlink(keep / "precious", tree / "link-to-file");
  EXPECT_TRUE(remove_tree(tree.c_str()));
  EXPECT_FALSE(fs::exists(tree));
  EXPECT_EQ(slurp(keep / "precious"), "x");
  EXPECT_TRUE(remove_tree((box.dir() / "never-was").c_str()));  // absent is fine
  put(box.dir() / "file", "f");
  EXPECT_TRUE(remove_tree((box.dir() / "file").c_str()));
  EXPECT_FALSE(fs::exists(box.dir() / "file"));
}

// Reads one line from fd within 10 s.
std::string read_line(int fd) {
  std::string line;
  const auto end = Clock::now() + 10s;
  char c;
  while (Clock::now() < end) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    if (read(fd, &c, 1) != 1) break;
    if (c == '\n') return line;
    line += c;
  }
  return line;
}

struct Forked {
  pid_t pid = -1;
  int from = -1;  // its reports, one line each
};

// Forks a copy of this process that installs the handler, makes a temporary directory and a
// child with a grandchild (the child's group registered by process::Child), reports
// "<dir> <child pid> <grandchild pid>" and waits for a signal. `ignore` is set to SIG_IGN first.
Forked fork_victim(const fs::path& parent, int ignore = 0) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    if (ignore) signal(ignore, SIG_IGN);
    install();
    TempDir t = make_temp_dir(parent.string(), "victim");
    put(fs::path(t.path) / "partial.json", "{");
    auto* c = new process::Child(process::Spec{{"/bin/sh", "-c", "sleep 300 & echo $!; wait"}, "", {}});
    std::string grandchild;
    c->read_line(grandchild, Clock::now() + 10s);
    const std::string msg = t.path + " " + std::to_string(c->pid()) + " " + grandchild + "\n";
    if (write(fds[1], msg.data(), msg.size()) < 0) _exit(99);
    for (int i = 0; i < 200; ++i) {
      const timespec ms{0, 10000000};
      nanosleep(&ms, nullptr);  // not pause(): an ignored signal must not hang the test
    }
    _exit(0);  // 2 s without a signal that ends us
  }
  close(fds[1]);
  return {pid, fds[0]};
}

void expect_ends_by(int sig) {
  const Sandbox box;
  const Forked v = fork_victim(box.dir());
  ASSERT_GT(v.pid, 0);
  std::istringstream report(read_line(v.from));
  std::string dir;
  pid_t child = 0, grandchild = 0;
  report >> dir >> child >> grandchild;
  ASSERT_FALSE(dir.empty());
  ASSERT_TRUE(fs::exists(dir));
  ASSERT_GT(grandchild, 0);
  kill(v.pid, sig);
  int st = 0;
  ASSERT_EQ(waitpid(v.pid, &st, 0), v.pid);
  close(v.from);
  EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == sig) << "wait status " << st;
  EXPECT_FALSE(fs::exists(dir)) << dir;
  EXPECT_TRUE(gone(child)) << "child " << child;
  EXPECT_TRUE(gone(grandchild)) << "grandchild " << grandchild;
  EXPECT_TRUE(fs::is_empty(box.dir()));
}

TEST(Handler, EndsBySigterm) { expect_ends_by(SIGTERM); }
TEST(Handler, EndsBySigint) { expect_ends_by(SIGINT); }
TEST(Handler, EndsBySighup) { expect_ends_by(SIGHUP); }

TEST(Handler, AnIgnoredSignalStaysIgnored) {
  const Sandbox box;
  const Forked v = fork_victim(box.dir(), SIGHUP);  // as under nohup
  ASSERT_GT(v.pid, 0);
  std::istringstream report(read_line(v.from));
  std::string dir;
  pid_t child = 0, grandchild = 0;
  report >> dir >> child >> grandchild;
  kill(v.pid, SIGHUP);
  int st = 0;
  ASSERT_EQ(waitpid(v.pid, &st, 0), v.pid);
  close(v.from);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "wait status " << st;
  // It ended by _exit, which cleans nothing: the directory is now stale, and the sweep says so.
  EXPECT_TRUE(fs::exists(dir));
  kill(-child, SIGKILL);  // no orphan from the test
  EXPECT_TRUE(gone(child));
  EXPECT_TRUE(gone(grandchild));
  EXPECT_EQ(sweep_stale(box.dir().string()), std::vector<std::string>{dir});
}

TEST(BlockSignals, DefersTheSignal) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    install();
    {
      const BlockSignals block;
      raise(SIGTERM);  // pending until the block ends
      if (write(fds[1], "x", 1) != 1) _exit(98);
    }
    _exit(0);  // not reached: the signal ends us as the block ends
  }
  ASSERT_GT(pid, 0);
  close(fds[1]);
  int st = 0;
  ASSERT_EQ(waitpid(pid, &st, 0), pid);
  char c = 0;
  EXPECT_EQ(read(fds[0], &c, 1), 1);  // it ran on under the block
  close(fds[0]);
  EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM) << "wait status " << st;
}

// A step on a worker thread (starting a child and registering its group, as a report's property
// suites start) that the signal, taken by the main thread, catches half done: the handler waits
// for it to end registered, then kills the child. Without the wait the child outlives us.
TEST(BlockSignals, TheHandlerWaitsForAStepOnAnotherThread) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    install();
    std::thread worker;
    {
      const BlockSignals block;  // the worker starts with the signals blocked, as run_workers' do
      worker = std::thread([&] {
        const BlockSignals step;
        const pid_t child = fork();
        if (child == 0) {
          setpgid(0, 0);
          for (;;) pause();
        }
        setpgid(child, child);
        const std::string msg = std::to_string(child) + "\n";
        if (write(fds[1], msg.data(), msg.size()) < 0) _exit(99);
        std::this_thread::sleep_for(300ms);  // the signal comes now
        add_process_group(child);
      });
    }
    for (int i = 0; i < 300; ++i) std::this_thread::sleep_for(10ms);
    _exit(0);  // 3 s without a signal that ends us
  }
  ASSERT_GT(pid, 0);
  close(fds[1]);
  const pid_t child = static_cast<pid_t>(std::stoi(read_line(fds[0])));
  kill(pid, SIGTERM);
  int st = 0;
  ASSERT_EQ(waitpid(pid, &st, 0), pid);
  close(fds[0]);
  EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM) << "wait status " << st;
  EXPECT_TRUE(gone(child)) << "the child started by the step outlived its parent";
}

TEST(Install, Idempotent) {
  install();
  install();
  EXPECT_TRUE(installed());
  struct sigaction sa {};
  sigaction(SIGTERM, nullptr, &sa);
  EXPECT_NE(sa.sa_handler, SIG_DFL);
}

}  // namespace
}  // namespace gelucheck::cleanup

int main(int argc, char** argv) {
  gelucheck::testing::become_subreaper();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
