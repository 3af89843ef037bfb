// run(): the whole report, in the order of the data flow (reference → checks → report).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <stdexcept>

#include "internal.hpp"

namespace gelucheck::report {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

std::string describe_seconds(double s) {
  char buf[64];
  if (!(s >= 0)) return "?";
  if (s < 90) std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 90 * 60) std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
  else if (s < 48 * 3600) std::snprintf(buf, sizeof buf, "%.1f h", s / 3600);
  else std::snprintf(buf, sizeof buf, "%.1f days", s / 86400);
  return buf;
}

std::string progress_line(const char* what, std::size_t done, std::size_t total, double elapsed) {
  char buf[256];
  const double frac = total ? static_cast<double>(done) / static_cast<double>(total) : 1.0;
  int len = std::snprintf(buf, sizeof buf, "[gelucheck report] %s: %zu/%zu (%3.0f%%)", what, done,
                          total, 100.0 * frac);
  // The rate so far says little in the first second or before any work is done.
  if (done > 0 && done < total && elapsed >= 1 && len > 0 && static_cast<std::size_t>(len) < sizeof buf)
    std::snprintf(buf + len, sizeof buf - static_cast<std::size_t>(len), ", ETA %s",
                  describe_seconds(elapsed * (1 - frac) / frac).c_str());
  return buf;
}

Estimate estimate(const Options& opt) {
  Estimate e;
  // Memory: the inputs of one format at a time (8 bytes each; inputs() reserves exactly that,
  // and the campaign measures them kCampaignChunk at a time into fixed buffers), plus what a run
  // takes whatever --points says: 25.9 MB peak RSS measured at --points 16 and at 50000 (MPFR,
  // the libraries, the chunk buffers), rounded up to 32 MiB. Measured at 10^7 and 4·10^7 points:
  // 92 MB and 327 MB peak, 8.0 bytes a point above the fixed part.
  e.bytes = 8 * static_cast<std::uint64_t>(opt.points) + (std::uint64_t{32} << 20);
  // Time: 1.95 ms of one core per point for both formats (measured on 2 cores: 23.9 s at 20000
  // points, 82.5 s at 80000, so 0.98 ms a point on 2 threads), plus 4.4 s for the gap and the
  // rest; the property suite and the plots come on top. A shared or slower machine takes longer:
  // the progress line's ETA (a terminal) follows the real rate.
  e.seconds = 4.4 + 1.95e-3 * static_cast<double>(opt.points) / std::max(1u, opt.threads);
  return e;
}

Report run(const Options& opt) {
  if (opt.points < kMinPoints || opt.points > kMaxPoints)
    throw std::invalid_argument("points must be in [" + std::to_string(kMinPoints) + ", " +
                                std::to_string(kMaxPoints) + "]");
  Report r;
  r.options = opt;
  r.started_utc = utc_now();
  Progress progress;
  progress.enabled = opt.progress;

  auto t0 = std::chrono::steady_clock::now();
  for (Format fmt : {Format::binary64, Format::binary32}) {
    const std::vector<double> xs =
        inputs(fmt, opt.seed, opt.points, fmt == Format::binary64 ? &r.inputs64 : &r.inputs32);
    std::vector<Row> rows = campaign(fmt, xs, opt, progress);
    r.rows.insert(r.rows.end(), std::make_move_iterator(rows.begin()),
                  std::make_move_iterator(rows.end()));
  }
  r.seconds_campaign = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  r.gap = tanh_erf_gap(opt, progress);
  r.seconds_gap = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  if (opt.properties && opt.progress)
    std::fputs("[gelucheck report] running the property suite...\n", stderr);
  r.properties = run_properties(opt);
  r.seconds_properties = seconds_since(t0);
  r.gate_failures = gate_failures(r);
  return r;
}

}  // namespace gelucheck::report
