// For tests that check that no process outlives the one that started it. A test's main calls
// become_subreaper(): then a process orphaned by its parent's death (a grandchild of the test,
// or a child of a gelucheck the test ran) is reparented to the test, so gone() can reap it and
// tell "killed" from "still running somewhere".
#pragma once

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <chrono>
#include <thread>

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

}  // namespace gelucheck::testing
