// process.hpp: children that answer, hang, die by a signal, close their stdout, leave a
// grandchild behind, cannot be started; run() with its log, environment, directory and timeout.
// The children are /bin/sh one-liners, so what each does is written where it is used.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "gelucheck/process.hpp"
#include "orphans.hpp"

namespace gelucheck::process {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using gelucheck::testing::gone;

Spec sh(const std::string& script) { return Spec{{"/bin/sh", "-c", script}, "", {}}; }

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class ScratchFile {
 public:
  explicit ScratchFile(const std::string& stem)
      : path_((std::filesystem::temp_directory_path() /
               (stem + "-" + std::to_string(getpid()) + ".log")).string()) {
    std::filesystem::remove(path_);
  }
  ~ScratchFile() { std::filesystem::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(Run, ExitStatusAndLog) {
  const ScratchFile log("gelucheck-test-run");
  const Exit e = run(sh("echo out; echo err >&2; exit 3"), log.path());
  EXPECT_EQ(e.kind, Exit::Kind::exited);
  EXPECT_EQ(e.code, 3);
  EXPECT_EQ(e.shell_status(), 3);
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.why, "exited with status 3");
  EXPECT_EQ(slurp(log.path()), "out\nerr\n");  // stderr joins stdout in order
  // Appended, not truncated.
  EXPECT_TRUE(run(sh("echo again"), log.path()).ok());
  EXPECT_EQ(slurp(log.path()), "out\nerr\nagain\n");
}

TEST(Run, EnvironmentAndDirectory) {
  const ScratchFile log("gelucheck-test-env");
  setenv("GELUCHECK_TEST_KEEP", "kept", 1);
  setenv("GELUCHECK_TEST_REPLACED", "old", 1);
  Spec s = sh("echo $GELUCHECK_TEST_KEEP $GELUCHECK_TEST_REPLACED $GELUCHECK_TEST_ADDED; pwd");
  s.env = {"GELUCHECK_TEST_REPLACED=new", "GELUCHECK_TEST_ADDED=added"};
  s.cwd = "/";
  EXPECT_TRUE(run(s, log.path()).ok());
  EXPECT_EQ(slurp(log.path()), "kept new added\n/\n");
}

TEST(Run, StdinIsEmpty) {
  const ScratchFile log("gelucheck-test-stdin");
  EXPECT_TRUE(run(sh("wc -c"), log.path(), 10s).ok());  // /dev/null: 0 bytes, no wait for input
  EXPECT_EQ(slurp(log.path()), "0\n");
}

TEST(Run, KilledBySignal) {
  const Exit e = run(sh("kill -SEGV $$"), "");
  EXPECT_EQ(e.kind, Exit::Kind::signalled);
  EXPECT_EQ(e.code, SIGSEGV);
  EXPECT_EQ(e.shell_status(), 128 + SIGSEGV);
  EXPECT_EQ(e.why, "killed by signal 11 (SIGSEGV)");
}

TEST(Run, TimeoutKillsTheGroup) {
  const ScratchFile log("gelucheck-test-timeout");
  const auto t0 = Clock::now();
  // The grandchild `sleep` would outlive a kill of the shell alone.
  const Exit e = run(sh("sleep 300 & echo $!; wait"), log.path(), 300ms);
  const auto took = Clock::now() - t0;
  EXPECT_EQ(e.kind, Exit::Kind::timed_out);
  EXPECT_EQ(e.shell_status(), -1);
  EXPECT_NE(e.why.find("did not finish within 300 ms"), std::string::npos) << e.why;
  EXPECT_LT(took, 5s);
  const pid_t grandchild = static_cast<pid_t>(std::stol(slurp(log.path())));
  EXPECT_TRUE(gone(grandchild)) << "grandchild " << grandchild << " outlived the timeout";
}

TEST(Run, LeftoversOfTheGroupAreKilled) {
  const ScratchFile log("gelucheck-test-leftover");
  // The shell exits at once, leaving a background sleep in its group.
  EXPECT_TRUE(run(sh("sleep 300 & echo $!"), log.path()).ok());
  const pid_t grandchild = static_cast<pid_t>(std::stol(slurp(log.path())));
  EXPECT_TRUE(gone(grandchild)) << "grandchild " << grandchild << " outlived its parent";
}

TEST(Run, NotStarted) {
  const Exit e = run(Spec{{"/nonexistent/gelucheck-no-such-program"}, "", {}}, "");
  EXPECT_EQ(e.kind, Exit::Kind::not_started);
  EXPECT_EQ(e.shell_status(), -1);
  EXPECT_NE(e.why.find("No such file"), std::string::npos) << e.why;
  EXPECT_EQ(run(Spec{}, "").kind, Exit::Kind::not_started);
  EXPECT_EQ(run(Spec{{"no-such-program-in-path-gelucheck"}, "", {}}, "").kind,
            Exit::Kind::not_started);
}

TEST(Run, LooksUpPath) { EXPECT_TRUE(run(Spec{{"true"}, "", {}}, "").ok()); }

TEST(Child, Answers) {
  Child c(Spec{{"cat"}, "", {}});
  ASSERT_TRUE(c.alive()) << c.error();
  const auto deadline = Clock::now() + 10s;
  ASSERT_TRUE(c.write_all("one\ntwo\n", 8, deadline)) << c.error();
  std::string line;
  ASSERT_TRUE(c.read_line(line, deadline)) << c.error();
  EXPECT_EQ(line, "one");
  ASSERT_TRUE(c.read_line(line, deadline)) << c.error();
  EXPECT_EQ(line, "two");
  // Binary data, read back exactly, larger than a pipe's buffer (1 MiB: Child asks for it) both
  // ways.
  std::string data(4 << 20, '\0');
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 7 + i / 251);
  std::string back(data.size(), 'x');
  std::thread writer([&] { EXPECT_TRUE(c.write_all(data.data(), data.size(), deadline)); });
  EXPECT_TRUE(c.read_exact(back.data(), back.size(), deadline)) << c.error();
  writer.join();
  EXPECT_TRUE(back == data);
  const Exit e = c.finish();
  EXPECT_TRUE(e.ok()) << e.why;
  EXPECT_FALSE(c.alive());
  ASSERT_TRUE(c.poll());
  EXPECT_TRUE(c.poll()->ok());
}

// A line and binary data in one write: read_line takes part of the data with its line, and
// read_exact returns that part first, then the rest from the pipe.
TEST(Child, ExactReadAfterALine) {
  Child c(Spec{{"cat"}, "", {}});
  ASSERT_TRUE(c.alive()) << c.error();
  const auto deadline = Clock::now() + 10s;
  std::string data(300 << 10, '\0');
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>(i * 13 + i / 509);
  const std::string sent = "head\n" + data;
  std::thread writer([&] { EXPECT_TRUE(c.write_all(sent.data(), sent.size(), deadline)); });
  std::string line;
  ASSERT_TRUE(c.read_line(line, deadline)) << c.error();
  EXPECT_EQ(line, "head");
  std::string back(data.size(), 'x');
  EXPECT_TRUE(c.read_exact(back.data(), back.size(), deadline)) << c.error();
  writer.join();
  EXPECT_TRUE(back == data);
  EXPECT_TRUE(c.finish().ok());
}

// Fewer bytes than asked for, then the end: the read fails as "end of stream", not a deadline.
TEST(Child, ExactReadMeetsTheEnd) {
  Child c(sh("printf 'line\\nabc'"));  // may have exited by now: what it wrote is still there
  const auto deadline = Clock::now() + 10s;
  std::string line;
  ASSERT_TRUE(c.read_line(line, deadline)) << c.error();
  EXPECT_EQ(line, "line");
  char back[10];
  EXPECT_FALSE(c.read_exact(back, sizeof back, deadline));
  EXPECT_EQ(c.error(), "end of stream");
  EXPECT_FALSE(c.timed_out());
  EXPECT_EQ(std::string(back, 3), "abc");
}

TEST(Child, Hangs) {
  Child c(sh("sleep 300"));
  ASSERT_TRUE(c.alive());
  std::string line;
  const auto t0 = Clock::now();
  EXPECT_FALSE(c.read_line(line, Clock::now() + 200ms));
  EXPECT_GE(Clock::now() - t0, 200ms);
  EXPECT_LT(Clock::now() - t0, 5s);
  EXPECT_TRUE(c.timed_out());
  EXPECT_EQ(c.error(), "timed out");
  EXPECT_TRUE(c.alive());  // a missed deadline is the caller's to act on
  EXPECT_FALSE(c.poll());
  // A child that does not read: a write larger than the pipe times out too.
  // More than the pipe holds (Child asks for 1 MiB), so the write meets the closed end whenever
  // the child closes it.
  const std::string big(8 << 20, 'x');
  EXPECT_FALSE(c.write_all(big.data(), big.size(), Clock::now() + 200ms));
  EXPECT_TRUE(c.timed_out());
  const Exit e = c.kill();
  EXPECT_EQ(e.kind, Exit::Kind::signalled);
  EXPECT_EQ(e.code, SIGKILL);
  EXPECT_FALSE(c.alive());
}

TEST(Child, FinishKillsWhatDoesNotExit) {
  Child c(sh("trap '' TERM; exec sleep 300"));
  const auto t0 = Clock::now();
  const Exit e = c.finish(200ms);
  EXPECT_EQ(e.kind, Exit::Kind::timed_out);
  EXPECT_NE(e.why.find("did not exit within 200 ms"), std::string::npos) << e.why;
  EXPECT_LT(Clock::now() - t0, 5s);
}

TEST(Child, DiesBySignal) {
  Child c(sh("read x; kill -ABRT $$"));
  ASSERT_TRUE(c.write_all("go\n", 3, Clock::now() + 10s));
  std::string line;
  EXPECT_FALSE(c.read_line(line, Clock::now() + 10s));
  EXPECT_EQ(c.error(), "end of stream");
  EXPECT_FALSE(c.timed_out());
  const Exit e = c.finish();
  EXPECT_EQ(e.kind, Exit::Kind::signalled);
  EXPECT_EQ(e.code, SIGABRT);
  EXPECT_EQ(e.why, "killed by signal 6 (SIGABRT)");
  EXPECT_EQ(e.shell_status(), 128 + SIGABRT);
}

TEST(Child, ClosesStdout) {
  Child c(sh("exec >&-; sleep 300"));
  std::string line;
  const auto t0 = Clock::now();
  EXPECT_FALSE(c.read_line(line, Clock::now() + 10s));
  EXPECT_LT(Clock::now() - t0, 5s);  // EOF at once, not the deadline
  EXPECT_EQ(c.error(), "end of stream");
  EXPECT_FALSE(c.timed_out());
  EXPECT_TRUE(c.alive());
  EXPECT_EQ(c.kill().code, SIGKILL);
}

TEST(Child, WriteToAChildThatIsGone) {
  // Without the care in write_all, this would end the test by SIGPIPE.
  Child c(sh("exec 0<&-; exec sleep 300"));
  // More than the pipe holds (Child asks for 1 MiB), so the write meets the closed end whenever
  // the child closes it.
  const std::string big(8 << 20, 'x');
  EXPECT_FALSE(c.write_all(big.data(), big.size(), Clock::now() + 10s));
  EXPECT_EQ(c.error(), "end of stream");
  EXPECT_FALSE(c.timed_out());
  sigset_t pending;
  sigpending(&pending);
  EXPECT_FALSE(sigismember(&pending, SIGPIPE));
}

TEST(Child, LineTooLong) {
  Child c(sh("printf 'abcdefghij\\nshort\\n'"));
  std::string line;
  EXPECT_FALSE(c.read_line(line, Clock::now() + 10s, 5));
  EXPECT_EQ(c.error(), "line too long");
  Child d(sh("printf 'abcde\\n'"));
  EXPECT_TRUE(d.read_line(line, Clock::now() + 10s, 5));  // exactly max_line bytes is fine
  EXPECT_EQ(line, "abcde");
}

TEST(Child, StderrToLog) {
  const ScratchFile log("gelucheck-test-child-stderr");
  {
    Child c(sh("echo to-stdout; echo to-stderr >&2"), log.path());
    std::string line;
    ASSERT_TRUE(c.read_line(line, Clock::now() + 10s));
    EXPECT_EQ(line, "to-stdout");
    EXPECT_TRUE(c.finish().ok());
  }
  EXPECT_EQ(slurp(log.path()), "to-stderr\n");
}

TEST(Child, GrandchildKilledWithTheGroup) {
  pid_t grandchild = 0;
  {
    Child c(sh("sleep 300 & echo $!; wait"));
    std::string line;
    ASSERT_TRUE(c.read_line(line, Clock::now() + 10s)) << c.error();
    grandchild = static_cast<pid_t>(std::stol(line));
    EXPECT_EQ(getpgid(grandchild), c.pid());  // in the child's own group
    EXPECT_NE(getpgid(c.pid()), getpgrp());   // which is not ours
    EXPECT_EQ(c.kill().code, SIGKILL);
  }
  EXPECT_TRUE(gone(grandchild)) << "grandchild " << grandchild << " survived kill()";
  {
    // The destructor does the same for a child nobody finished.
    Child c(sh("sleep 300 & echo $!; wait"));
    std::string line;
    ASSERT_TRUE(c.read_line(line, Clock::now() + 10s)) << c.error();
    grandchild = static_cast<pid_t>(std::stol(line));
  }
  EXPECT_TRUE(gone(grandchild)) << "grandchild " << grandchild << " survived ~Child";
}

TEST(Child, NotStarted) {
  Child c(Spec{{"/nonexistent/gelucheck-no-such-program"}, "", {}});
  EXPECT_FALSE(c.alive());
  ASSERT_TRUE(c.poll());
  EXPECT_EQ(c.poll()->kind, Exit::Kind::not_started);
  EXPECT_NE(c.error().find("No such file"), std::string::npos) << c.error();
  std::string line;
  EXPECT_FALSE(c.read_line(line, Clock::now() + 1s));
  EXPECT_FALSE(c.write_all("x", 1, Clock::now() + 1s));
  EXPECT_EQ(c.finish().kind, Exit::Kind::not_started);
}

TEST(SelfDir, HoldsThisTest) {
  const std::string d = self_dir();
  ASSERT_FALSE(d.empty());
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(d) / "test_process"));
}

}  // namespace
}  // namespace gelucheck::process

int main(int argc, char** argv) {
  gelucheck::testing::become_subreaper();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
