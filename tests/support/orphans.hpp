// For tests that check that no process outlives the one that started it. A test's main calls
// become_subreaper(): then a process orphaned by its parent's death (a grandchild of the test,
// or a child of a gelucheck the test ran) is reparented to the test, so gone() can reap it and
// tell "killed" from "still running somewhere".
#pragma once

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace gelucheck::testing {

inline void become_subreaper() { prctl(PR_SET_CHILD_SUBREAPER, 1); }

// Whether `pid` is gone for good (reaping it when it has become ours). One still running after
// `patience` is killed, so that a failing test leaves no orphan, and reported (false).
inline bool gone(pid_t pid, std::chrono::milliseconds patience = std::chrono::seconds(5)) {
  const auto end = std::chrono::steady_clock::now() + patience;
  for (;;) {
    const pid_t r = waitpid(pid, nullptr, WNOHANG);
    if (r == pid || (r < 0 && kill(pid, 0) != 0)) return true;  // reaped, or not ours and gone
    if (std::chrono::steady_clock::now() > end) {
      kill(pid, SIGKILL);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// The processes whose parent is this one, with their command lines: its own children and, as a
// subreaper, the orphans it adopted (the children of a gelucheck that died before them).
struct Process {
  pid_t pid;
  std::string command;
};
inline std::vector<Process> children() {
  std::vector<Process> out;
  const pid_t self = getpid();
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(e.path() / "stat");
    std::stringstream ss;
    ss << stat.rdbuf();
    const std::string text = ss.str();
    const auto paren = text.rfind(')');  // the name may hold spaces and parentheses
    if (paren == std::string::npos) continue;
    std::istringstream fields(text.substr(paren + 1));
    std::string state;
    pid_t ppid = 0;
    fields >> state >> ppid;
    if (ppid != self) continue;
    std::ifstream cmd(e.path() / "cmdline");
    std::string command;
    std::getline(cmd, command, '\0');
    out.push_back({static_cast<pid_t>(std::stoi(name)), command});
  }
  return out;
}

}  // namespace gelucheck::testing
