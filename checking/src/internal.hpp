// Shared between the files of checking/src; not part of the public API.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gelucheck/fast_reference.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/report.hpp"

namespace gelucheck::report {

// The progress line on stderr (a terminal only), with an ETA from the rate so far in the phase.
struct Progress {
  bool enabled = false;
  void show(const char* what, std::size_t done, std::size_t total) const;

 private:
  // The phase being shown and when it started (show() is called from one thread at a time).
  mutable const char* phase_ = nullptr;
  mutable std::chrono::steady_clock::time_point start_{};
};

// Runs worker(t) for t in [0, threads) on threads of their own, with SIGINT, SIGTERM and SIGHUP
// blocked (the handler runs on the calling thread, cleanup.hpp), while the calling thread calls
// tick() every `period` until every worker has returned; rethrows the first exception a worker
// threw (the others run to their end: a worker that must stop early watches a flag of its own).
void run_workers(unsigned threads, const std::function<void(unsigned)>& worker,
                 const std::function<void()>& tick, std::chrono::milliseconds period);
// Runs body(i) for i in [0, n) on `threads` threads (run_workers); rethrows the first exception
// (no more work is handed out after it). body must only write state owned by index i. Progress
// shows shown_before + done of shown_total (default: n), for work done in several calls.
void parallel_for(std::size_t n, unsigned threads, const Progress& progress, const char* what,
                  const std::function<void(std::size_t)>& body, std::size_t shown_before = 0,
                  std::size_t shown_total = 0);

// Points the campaign measures at a time (campaign.cpp): its buffers hold kCampaignChunk × m
// results (m rows: about 6 per subject) of 49 bytes (Error 32, the expected value 8, flags 1),
// plus the subjects' results (8 bytes each and a flag): about 5 MiB per subject, whatever
// --points says.
inline constexpr std::size_t kCampaignChunk = std::size_t{1} << 14;

// Every subject's functions in `fmt` at xs (through the harness), measured against the reference;
// findings and ops not measured go into `results` (indexed like subs).
std::vector<Row> campaign(Format fmt, const std::vector<double>& xs, bool exhaustive,
                          const std::vector<std::size_t>& which,
                          std::vector<std::unique_ptr<subject::Subject>>& subs,
                          std::vector<SubjectResult>& results, const Options& opt,
                          const Progress& progress);
// The subject as a report shows it, opened from `spec`: what it says it is and provides, and the
// claims it is held to under `opt` (its own, the framework default, --claim), and whether it is
// gated (report.cpp).
SubjectResult describe_subject(const subject::Subject& s, const std::string& spec,
                               const Options& opt);

// "2026-12-01T13:19:42Z", now (a report's started_utc).
std::string utc_now();

Gap tanh_erf_gap(const Options& opt, const Progress& progress);
// Runs the property suite (unless Options say not to) on the subject `spec` held to `claims`
// (ClaimSet items; empty: its own), in a scratch directory of its own, removed afterwards.
Properties run_properties(const Options& opt, const std::string& spec,
                          const std::vector<std::string>& claims);

}  // namespace gelucheck::report
