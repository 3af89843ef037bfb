// run(): the whole report, in the order of the data flow (reference → checks → report).
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

Report run(const Options& opt) {
  if (opt.points < kMinPoints || opt.points > kMaxPoints)
    throw std::invalid_argument("points must be in [" + std::to_string(kMinPoints) + ", " +
                                std::to_string(kMaxPoints) + "]");
  Report r;
  r.options = opt;
  r.started_utc = utc_now();
  const Progress progress{opt.progress};

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
