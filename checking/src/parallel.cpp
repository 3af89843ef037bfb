// The one thread pool of the checks (internal.hpp), and the progress line it shows: the campaign,
// the tanh–erf gap, the property suites and diff run through parallel_for, the exhaustive sweep
// through run_workers.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
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

void run_workers(unsigned threads, const std::function<void(unsigned)>& worker,
                 const std::function<void()>& tick, std::chrono::milliseconds period) {
  const unsigned n = std::max(1u, threads);
  std::exception_ptr failure;
  std::mutex mu;  // guards failure and running
  std::condition_variable finished;
  unsigned running = n;
  auto run = [&](unsigned t) {
    std::exception_ptr e;
    try {
      worker(t);
    } catch (...) {
      e = std::current_exception();
    }
    mpfr_free_cache();  // MPFR's per-thread caches (pi, ...), before the thread ends
    std::lock_guard lock(mu);
    if (e && !failure) failure = e;
    if (--running == 0) finished.notify_one();
  };
  std::vector<std::thread> pool;
  {
    // The workers start with SIGINT/SIGTERM/SIGHUP blocked (they inherit the mask), so the
    // signal handler runs on the calling thread (cleanup.hpp).
    cleanup::BlockSignals block;
    for (unsigned t = 0; t < n; ++t) pool.emplace_back(run, t);
  }
  for (;;) {
    {
      std::unique_lock lock(mu);
      if (finished.wait_for(lock, period, [&] { return running == 0; })) break;
    }
    if (tick) tick();
  }
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

void parallel_for(std::size_t n, unsigned threads, const Progress& progress, const char* what,
                  const std::function<void(std::size_t)>& body, std::size_t shown_before,
                  std::size_t shown_total) {
  if (shown_total == 0) shown_total = n;
  const unsigned workers = std::max(1u, threads);
  // Indices are handed out in chunks (fewer atomic operations on the shared counter), small enough
  // that every worker gets some when n is small: 6 property suites on 2 threads are 6 chunks.
  const std::size_t chunk = std::clamp<std::size_t>(n / (4 * std::size_t{workers}), 1, 64);
  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<bool> stop{false};
  auto worker = [&](unsigned) {
    while (!stop) {
      const std::size_t begin = next.fetch_add(chunk);
      if (begin >= n) break;
      const std::size_t end = std::min(n, begin + chunk);
      try {
        for (std::size_t i = begin; i < end; ++i) body(i);
      } catch (...) {
        stop = true;  // no more work handed out; run_workers rethrows the first exception
        throw;
      }
      done += end - begin;
    }
  };
  run_workers(workers, worker,
              [&] { progress.show(what, shown_before + done.load(), shown_total); },
              std::chrono::milliseconds(250));
  progress.show(what, shown_before + n, shown_total);
}

}  // namespace gelucheck::report
