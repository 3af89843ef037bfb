// Work shared out to threads, and the progress line it shows (internal.hpp): the campaign and the
// tanh–erf gap run their reference evaluations through parallel_for.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include <mpfr.h>

#include "gelucheck/cleanup.hpp"
#include "gelucheck/report.hpp"
#include "internal.hpp"

namespace gelucheck::report {

void Progress::show(const char* what, std::size_t done, std::size_t total) const {
  if (!enabled) return;
  const auto now = std::chrono::steady_clock::now();
  if (what != phase_) {
    phase_ = what;
    start_ = now;
  }
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stderr, "\r%s   ", progress_line(what, done, total, elapsed).c_str());
  if (done == total) std::fputc('\n', stderr);
  std::fflush(stderr);
}

void parallel_for(std::size_t n, unsigned threads, const Progress& progress, const char* what,
                  const std::function<void(std::size_t)>& body, std::size_t shown_before,
                  std::size_t shown_total) {
  if (shown_total == 0) shown_total = n;
  constexpr std::size_t kChunk = 64;
  std::atomic<std::size_t> next{0}, done{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto worker = [&] {
    for (;;) {
      const std::size_t begin = next.fetch_add(kChunk);
      if (begin >= n) break;
      const std::size_t end = std::min(n, begin + kChunk);
      try {
        for (std::size_t i = begin; i < end; ++i) body(i);
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next = n;  // stop handing out work
      }
      done += end - begin;
    }
    mpfr_free_cache();  // MPFR's per-thread constant caches (π, ...)
  };
  std::vector<std::thread> pool;
  // The workers start with SIGINT/SIGTERM/SIGHUP blocked (they inherit the mask), so the signal
  // handler runs on the calling thread (cleanup.hpp).
  std::optional<cleanup::BlockSignals> block(std::in_place);
  for (unsigned t = 1; t < std::max(1u, threads); ++t) pool.emplace_back(worker);
  if (progress.enabled) {
    // The calling thread reports progress while the pool works, then joins in.
    std::thread reporter_worker(worker);
    block.reset();
    while (done.load() < n && !failure) {
      progress.show(what, shown_before + done.load(), shown_total);
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    reporter_worker.join();
    for (auto& t : pool) t.join();
    if (!failure) progress.show(what, shown_before + n, shown_total);
  } else {
    block.reset();
    worker();
    for (auto& t : pool) t.join();
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace gelucheck::report
