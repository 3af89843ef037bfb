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

const Properties& Report::properties() const {
  static const Properties none;
  return subjects.empty() ? none : subjects.front().properties;
}

Report run(const Options& opt) {
  if (opt.points < kMinPoints || opt.points > kMaxPoints)
    throw std::invalid_argument("points must be in [" + std::to_string(kMinPoints) + ", " +
                                std::to_string(kMaxPoints) + "]");
  Report r;
  r.options = opt;
  r.started_utc = utc_now();
  const Progress progress{opt.progress};

  // The subjects: opened once (an out-of-process one starts its child here), described, and
  // given the claims they are held to.
  std::vector<std::unique_ptr<subject::Subject>> subs;
  subject::OpenOptions oo;
  oo.call_timeout_seconds = opt.call_timeout_seconds;
  for (const std::string& spec : opt.subjects) {
    subs.push_back(subject::open(spec, oo));  // SpecError: the caller's message, no report
    const subject::Subject& s = *subs.back();
    SubjectResult sr;
    sr.spec = spec;
    sr.description = s.describe();
    const subject::Capabilities caps = s.capabilities();
    for (const subject::Op& op : caps.ops) sr.provides.push_back(subject::op_name(op));
    sr.strided = caps.strided;
    sr.fresh_evaluations = caps.fresh_evaluations;
    sr.claims = s.claims();
    sr.claims_source = sr.claims.any() ? "its own" : "none";
    if (!opt.claims.empty()) {
      for (const std::string& item : opt.claims) sr.claims.apply(item);
      sr.claims_source = "--claim";
    } else if (!sr.claims.any() && opt.default_to_framework_claim) {
      for (Format fmt : all_formats) sr.claims.set(std::nullopt, fmt, Claim::framework_default(fmt));
      sr.claims_source = "framework default";
    }
    sr.gated = sr.claims.any();
    r.subjects.push_back(std::move(sr));
  }

  auto t0 = std::chrono::steady_clock::now();
  for (Format fmt : opt.formats) {
    InputCounts* counts = fmt == Format::binary64   ? &r.inputs64
                          : fmt == Format::binary32 ? &r.inputs32
                          : fmt == Format::binary16 ? &r.inputs16
                                                    : &r.inputsbf16;
    const std::vector<double> xs = inputs(fmt, opt.seed, opt.points, counts);
    const bool exhaustive = fmt == Format::binary16 || fmt == Format::bfloat16;
    std::vector<Row> rows = campaign(fmt, xs, exhaustive, subs, r.subjects, opt, progress);
    r.rows.insert(r.rows.end(), std::make_move_iterator(rows.begin()),
                  std::make_move_iterator(rows.end()));
  }
  r.seconds_campaign = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  r.gap = tanh_erf_gap(opt, progress);
  r.seconds_gap = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  subs.clear();  // out-of-process subjects end here; the property suite opens its own
  for (SubjectResult& sr : r.subjects) {
    if (opt.properties && opt.progress)
      std::fprintf(stderr, "[%s] running the property suite on %s...\n", opt.command.c_str(),
                   sr.spec.c_str());
    // The suite is told the claims the campaign used (a subject with none is held there, as
    // here in the framework-default column, to Claim::framework_default).
    sr.properties = run_properties(opt, sr.spec, opt.claims);
  }
  r.seconds_properties = seconds_since(t0);
  r.gate_failures = gate_failures(r);
  return r;
}

}  // namespace gelucheck::report
