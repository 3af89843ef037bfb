// run(): the whole report, in the order of the data flow (reference → checks → report).
#include <algorithm>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <cstdio>
#include <ctime>
#include <stdexcept>

#include "gelucheck/diff.hpp"
#include "internal.hpp"

namespace gelucheck::report {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A strict weak order on doubles that keeps -0 before +0 and NaNs last (for sorting recorded
// inputs); no wider type needed, so no dependence on what long double is.
bool bits_before(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return !std::isnan(a) && std::isnan(b);
  if (a != b) return a < b;
  return std::signbit(a) && !std::signbit(b);  // -0 before +0
}

}  // namespace

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

const Properties& Report::properties() const {
  static const Properties none;
  return subjects.empty() ? none : subjects.front().properties;
}

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
  // Each subject adds its chunk buffers: kCampaignChunk points × about 6 rows × 49 bytes, plus its
  // results and the harness's copies (about 1 MiB): 6 MiB, rounded up. (An out-of-process
  // subject's own memory is its process's, not counted here.)
  e.bytes = 8 * static_cast<std::uint64_t>(opt.points) + (std::uint64_t{32} << 20) +
            static_cast<std::uint64_t>(opt.subjects.size()) * (std::uint64_t{6} << 20);
  // Time: 1.95 ms of one core per point for both formats (measured on 2 cores: 23.9 s at 20000
  // points, 82.5 s at 80000, so 0.98 ms a point on 2 threads), plus 4.4 s for the gap and the
  // rest; the property suite and the plots come on top. A shared or slower machine takes longer:
  // the progress line's ETA (a terminal) follows the real rate.
  e.seconds = 4.4 + 1.95e-3 * static_cast<double>(opt.points) / std::max(1u, opt.threads);
  return e;
}

SubjectResult describe_subject(const subject::Subject& s, const std::string& spec,
                               const Options& opt) {
  SubjectResult sr;
  sr.spec = spec;
  sr.description = s.describe();
  const subject::Capabilities caps = s.capabilities();
  for (const subject::Op& op : caps.ops) sr.provides.push_back(subject::op_name(op));
  sr.strided = caps.strided;
  sr.fresh_evaluations = caps.fresh_evaluations;
  // The claims: the subject's own; with check's default, every (function, format) it leaves
  // unclaimed is held to what every framework's own tests demand (so a built-in claiming
  // binary64 and binary32 only is held to it in the 16-bit formats); then the --claim items on
  // top (`--claim none` says "measure only" explicitly).
  sr.claims = s.claims();
  const bool claims_itself = sr.claims.any();
  sr.claims_source = claims_itself ? "its own" : "none";
  if (opt.default_to_framework_claim) {
    bool filled = false;
    for (const subject::Function& fn : subject::all_functions)
      for (Format fmt : all_formats)
        if (!sr.claims.get(fn, fmt).claims_anything()) {
          sr.claims.set(fn, fmt, Claim::framework_default(fmt));
          filled = true;
        }
    if (filled)
      sr.claims_source = sr.claims_source == "none" ? "framework default"
                                                    : "its own, framework default elsewhere";
  }
  if (!opt.claims.empty()) {
    for (const std::string& item : opt.claims) sr.claims.apply(item);
    sr.claims_source = "--claim";
  }
  // check gates its one subject; report only those that claim something themselves (peers are
  // measured against the framework default, and their breaks are findings, not a red gate).
  sr.gated = sr.claims.any() && (opt.gate_every_subject || claims_itself || !opt.claims.empty());
  return sr;
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

  // The subjects: opened once (an out-of-process one starts its child here), described, and
  // given the claims they are held to.
  std::vector<std::unique_ptr<subject::Subject>> subs;
  subject::OpenOptions oo;
  oo.call_timeout_seconds = opt.call_timeout_seconds;
  for (const std::string& spec : opt.subjects) {
    subs.push_back(subject::open(spec, oo));  // SpecError: the caller's message, no report
    r.subjects.push_back(describe_subject(*subs.back(), spec, opt));
  }

  auto t0 = std::chrono::steady_clock::now();
  for (Format fmt : opt.formats) {
    InputCounts* counts = fmt == Format::binary64   ? &r.inputs64
                          : fmt == Format::binary32 ? &r.inputs32
                          : fmt == Format::binary16 ? &r.inputs16
                                                    : &r.inputsbf16;
    // Subjects that evaluate afresh get the campaign's inputs; saved arrays are measured at the
    // inputs they hold (every recorded input of the format, once, in increasing order).
    std::vector<std::size_t> fresh, saved;
    for (std::size_t s = 0; s < subs.size(); ++s)
      (r.subjects[s].fresh_evaluations ? fresh : saved).push_back(s);
    if (!fresh.empty()) {
      const std::vector<double> xs = inputs(fmt, opt.seed, opt.points, counts);
      const bool exhaustive = fmt == Format::binary16 || fmt == Format::bfloat16;
      std::vector<Row> rows = campaign(fmt, xs, exhaustive, fresh, subs, r.subjects, opt, progress);
      r.rows.insert(r.rows.end(), std::make_move_iterator(rows.begin()),
                    std::make_move_iterator(rows.end()));
    }
    for (std::size_t s : saved) {
      std::vector<double> xs;
      for (const subject::Op& op : subs[s]->capabilities().ops)
        if (op.format == fmt)
          for (double x : subs[s]->recorded_inputs(op)) xs.push_back(x);
      std::sort(xs.begin(), xs.end(), bits_before);
      xs.erase(std::unique(xs.begin(), xs.end(), [](double a, double b) { return same_bits(a, b); }),
               xs.end());
      std::vector<Row> rows = campaign(fmt, xs, false, {s}, subs, r.subjects, opt, progress);
      r.rows.insert(r.rows.end(), std::make_move_iterator(rows.begin()),
                    std::make_move_iterator(rows.end()));
    }
  }
  r.seconds_campaign = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  r.gap = tanh_erf_gap(opt, progress);
  r.seconds_gap = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  subs.clear();  // out-of-process subjects end here; the property suite opens its own
  // One suite per subject, opt.threads of them at a time: each is a process of its own in a
  // scratch directory of its own, writing only its subject's entry, so the outcome does not
  // depend on the order (the suite itself runs on one thread).
  parallel_for(r.subjects.size(), opt.threads, Progress{}, "property suite", [&](std::size_t i) {
    SubjectResult& sr = r.subjects[i];
    if (opt.properties && opt.progress)
      std::fprintf(stderr, "[%s] running the property suite on %s...\n", opt.command.c_str(),
                   sr.spec.c_str());
    // The suite is held to exactly the claims the campaign used, entry by entry.
    sr.properties = run_properties(opt, sr.spec, sr.claims.items());
  });
  r.seconds_properties = seconds_since(t0);

  // Each peer against its variants: the same inputs, bit by bit (gelucheck/diff.hpp).
  t0 = std::chrono::steady_clock::now();
  if (!opt.variants_of.empty()) {
    diff::Options d;
    d.seed = opt.seed;
    d.points = opt.points;
    d.formats = opt.formats;
    d.functions = opt.functions;
    d.threads = opt.threads;
    d.call_timeout_seconds = opt.call_timeout_seconds;
    for (const std::string& peer : opt.variants_of)
      for (const std::string& v : subject::variant_specs(peer)) d.pairs.emplace_back(peer, v);
    if (opt.progress)
      std::fprintf(stderr, "[%s] comparing %zu peer variant(s) with their defaults...\n",
                   opt.command.c_str(), d.pairs.size());
    r.variants = diff::to_json(diff::run(d))["comparisons"];
  }
  r.seconds_variants = seconds_since(t0);
  finish(r);
  return r;
}

}  // namespace gelucheck::report
