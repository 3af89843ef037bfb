// The campaign: every implementation (accurate, naive) × type (double, float) × form × quantity
// measured against the MPFR reference at the inputs of inputs.cpp, summarised per region.
//
// Cost: the reference dominates (MPFR's erfc is 30 µs–0.5 ms a call), so each enclosure is
// computed once per (input, form, quantity) and serves both implementations, and, for the erf
// form, also the tanh form's "against the exact GELU" rows. Points are shared out to threads in
// chunks; each point's results go to their own slots, and the summaries are then computed in input
// order, so the numbers do not depend on the number of threads.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <functional>
#include <limits>
#include <algorithm>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include <mpfr.h>

#include "gelucheck/cleanup.hpp"
#include "gelucheck/fast_reference.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/reference.hpp"
#include "gelucheck/report.hpp"
#include "internal.hpp"

namespace gelucheck::report {

const char* region_name(Region r) {
  switch (r) {
    case Region::below_m38_6: return "x < -38.6";
    case Region::m38_6_m10: return "[-38.6, -10)";
    case Region::m10_m1: return "[-10, -1)";
    case Region::m1_1: return "[-1, 1]";
    case Region::p1_10: return "(1, 10]";
    case Region::above_10: return "x > 10";
    case Region::subnormal: return "subnormal |x|";
    case Region::overall: return "overall";
  }
  return "?";
}
const char* region_key(Region r) {
  switch (r) {
    case Region::below_m38_6: return "below_-38.6";
    case Region::m38_6_m10: return "-38.6_-10";
    case Region::m10_m1: return "-10_-1";
    case Region::m1_1: return "-1_1";
    case Region::p1_10: return "1_10";
    case Region::above_10: return "above_10";
    case Region::subnormal: return "subnormal";
    case Region::overall: return "overall";
  }
  return "?";
}

std::vector<Region> regions_of(double x, Format fmt) {
  std::vector<Region> rs;
  if (!std::isnan(x)) {
    rs.push_back(x < -38.6 ? Region::below_m38_6
                 : x < -10 ? Region::m38_6_m10
                 : x < -1  ? Region::m10_m1
                 : x <= 1  ? Region::m1_1
                 : x <= 10 ? Region::p1_10
                           : Region::above_10);
    if (x != 0 && std::fabs(x) < std::ldexp(1.0, info(fmt).emin)) rs.push_back(Region::subnormal);
  }
  rs.push_back(Region::overall);
  return rs;
}

const char* type_name(Format fmt) {
  switch (fmt) {
    case Format::binary64: return "double";
    case Format::binary32: return "float";
    case Format::bfloat16: return "bfloat16";
    case Format::binary16: return "float16";
  }
  return "?";
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void histogram_add(Histogram& h, double ulp) {
  if (ulp == 0) { ++h.zero; return; }
  if (std::isinf(ulp) || std::isnan(ulp)) { ++h.infinite; return; }
  // bin k holds (2^(k-1), 2^k]: k = ceil(log2 ulp), computed exactly from frexp.
  int e = 0;
  const double m = std::frexp(ulp, &e);  // ulp = m 2^e, m in [0.5, 1)
  int k = m == 0.5 ? e - 1 : e;
  k = std::clamp(k, kHistLo, kHistHi);
  ++h.bins[static_cast<std::size_t>(k - kHistLo)];
}

// Per-point facts about the measure itself (not about the result), for the abs/rel columns.
constexpr unsigned char kAbsBelowResolution = 1;  // |r - midpoint| <= the enclosure's half-width
constexpr unsigned char kSubnormalFaithful = 2;   // |y| < least normal, r faithful (incl. ±0)

}  // namespace

unsigned char measure_flags(double r, const Error& e, const ref::Enclosure& y, Format fmt) {
  unsigned char f = 0;
  mpfr_srcptr lo = y.lo(), hi = y.hi();
  if (mpfr_nan_p(lo) || mpfr_nan_p(hi) || mpfr_inf_p(lo) || mpfr_inf_p(hi)) return 0;
  // Half-width of the enclosure, rounded up: the true |r - y| is within it of e.abs (measure()
  // takes |r - m| at the midpoint m). An e.abs at or below it says only "|r - y| <= 2 hw".
  mpfr_t w;
  mpfr_init2(w, std::max(mpfr_get_prec(lo), mpfr_get_prec(hi)) + 2);
  mpfr_sub(w, hi, lo, MPFR_RNDU);  // exact at this precision
  const double hw = std::ldexp(mpfr_get_d(w, MPFR_RNDU), -1);
  mpfr_clear(w);
  if (std::isfinite(e.abs) && e.abs <= hw) f |= kAbsBelowResolution;
  // Below the least normal the format's spacing is absolute (2^(emin-p+1)), so a faithful result
  // there has a relative error up to 1 (±0 for a tiny y, 2^-1074 for y just above 2^-1075): the
  // format's gradual underflow, not an error of the implementation.
  const bool y_zero = mpfr_zero_p(lo) && mpfr_zero_p(hi);
  if (!y_zero && y.decided() && y.floor_log2() < info(fmt).emin &&
      (r == y.rounded_down(fmt) || r == y.rounded_up(fmt)))
    f |= kSubnormalFaithful;
  return f;
}

// The same facts from the fast reference's result (gelucheck/fast_reference.hpp): y.hi + y.lo
// carries f(x) to 2^-70 relative, so that is the resolution below which |r - y| cannot be told
// from 0; the rest as above (Rounded is always decided).
unsigned char measure_flags(double r, const Error& e, const ref::Rounded& y, Format fmt) {
  unsigned char f = 0;
  if (std::isnan(y.hi) || std::isinf(y.hi)) return 0;
  const bool y_zero = y.hi == 0 && y.lo == 0;
  // 2^-70 |f(x)|, rounded up (one more ulp of the double is ample); 0 for a zero f(x), whose
  // result r is then judged exactly.
  const double hw = y_zero || y.scale < -1000 ? 0
                    : std::nextafter(std::ldexp(std::fabs(y.hi) + std::fabs(y.lo),
                                                static_cast<int>(y.scale) - 70), kInf);
  if (std::isfinite(e.abs) && e.abs <= hw) f |= kAbsBelowResolution;
  if (!y_zero && y.floor_log2 < info(fmt).emin && (r == y.rd || r == y.ru)) f |= kSubnormalFaithful;
  return f;
}

namespace {

void stats_add(Stats& s, double x, double got, const Error& e, unsigned char flags) {
  ++s.count;
  // The first point reaching the max (strictly greater replaces), so ties keep campaign order.
  if (!s.worst_x || e.ulp > s.max_ulp) {
    s.max_ulp = e.ulp;
    s.worst_x = x;
    s.worst_got = got;
  }
  if (std::isfinite(e.ulp)) {
    ++s.finite;
    s.mean_ulp += e.ulp;          // sums for now, divided in stats_finish
    s.rms_ulp += e.ulp * e.ulp;
  }
  if (e.correctly_rounded()) ++s.correctly_rounded;
  if (e.faithful()) ++s.faithful;
  // A NaN measure can only come from a NaN mismatch, an infinite error (DESIGN.md §2).
  const double abs = std::isnan(e.abs) ? kInf : e.abs, rel = std::isnan(e.rel) ? kInf : e.rel;
  s.max_abs = std::max(s.max_abs, abs);
  s.max_rel = std::max(s.max_rel, rel);
  if (flags & kAbsBelowResolution) ++s.abs_below_resolution;
  else s.max_abs_resolved = std::max(s.max_abs_resolved, abs);
  if (flags & kSubnormalFaithful) ++s.rel_subnormal_faithful;
  else s.max_rel_normal = std::max(s.max_rel_normal, rel);
  if (e.nan_mismatch) ++s.nan_mismatches;
  if (e.zero_sign_mismatch) ++s.zero_sign_mismatches;
}

}  // namespace

void stats_finish(Stats& s) {
  if (s.finite) {
    s.mean_ulp /= static_cast<double>(s.finite);
    s.rms_ulp = std::sqrt(s.rms_ulp / static_cast<double>(s.finite));
  }
}

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

// The bin of Row::plot_envelope that holds x (in [kPlotLo, kPlotHi]).
std::size_t plot_bin(double x) {
  const auto nbins = static_cast<std::size_t>((kPlotHi - kPlotLo) / kPlotBin) + 1;
  return std::min(nbins - 1, static_cast<std::size_t>((x - kPlotLo) / kPlotBin));
}

namespace {

// One measured row: a subject's function in this format, against its own form's exact value, or
// (the tanh form) against the exact GELU.
struct RowSpec {
  std::size_t subject;
  subject::Function fn;
  Form against;
  std::size_t eval;  // which of the chunk's evaluations (one per subject and function) it reads
};

}  // namespace

// Folds one measured result into its row (input order: the caller goes through the points in
// order, so first-reached maxima and first breaks are those of one pass over all points).
void fold(Row& row, const Claim& framework, double x, double got, double want, const Error& e,
          unsigned char flags, Format fmt) {
  for (Region r : regions_of(x, fmt)) stats_add(row.regions[static_cast<std::size_t>(r)], x, got, e, flags);
  histogram_add(row.histogram, e.ulp);
  if (x >= kPlotLo && x <= kPlotHi) {
    double& worst = row.plot_envelope[plot_bin(x)];
    worst = std::max(worst, std::isnan(e.ulp) ? kInf : e.ulp);
  }
  if (row.against != row.form) return;
  if (row.claim->claims_anything() && !meets(*row.claim, e, want) && row.claim_breaks++ == 0) {
    row.break_x = x;
    row.break_got = got;
    row.break_expected = want;
    row.break_ulp = e.ulp;
    row.break_zero_sign = e.zero_sign_mismatch;
  }
  if (!meets(framework, e, want) && row.framework_breaks++ == 0) {
    row.framework_break_x = x;
    row.framework_break_got = got;
    row.framework_break_expected = want;
  }
  // A zero result where zero is not even a faithful rounding of the exact value.
  if (got == 0 && want != 0 && e.ulp >= 1) {
    ++row.wrong_zeros;
    // The negative tail's collapse: the greatest x <= -1 (flushes of tiny results, e.g. of
    // subnormals, are counted but do not move it).
    if (x <= -1 && (!row.wrong_zero_max_x || x > *row.wrong_zero_max_x)) row.wrong_zero_max_x = x;
  }
  if (e.nan_mismatch && std::isnan(got)) {
    if (x == kInf) row.nan_at_plus_inf = true;
    else if (x == -kInf) row.nan_at_minus_inf = true;
    else if (!row.nan_min_abs_x || std::fabs(x) < *row.nan_min_abs_x) row.nan_min_abs_x = std::fabs(x);
  }
}

std::vector<Row> campaign(Format fmt, const std::vector<double>& xs, bool exhaustive,
                          const std::vector<std::size_t>& which,
                          std::vector<std::unique_ptr<subject::Subject>>& subs,
                          std::vector<SubjectResult>& results, const Options& opt,
                          const Progress& progress) {
  const std::size_t n = xs.size();
  // The rows: every function each subject says it provides (one that then answers nothing is
  // dropped at the end and said in not_measured).
  const bool erf_wanted = std::any_of(opt.functions.begin(), opt.functions.end(),
                                      [](const subject::Function& f) { return f.form == Form::erf; });
  struct Eval {
    std::size_t subject;
    subject::Function fn;
    subject::Op op;
    bool answered = false;  // some call gave results
    std::string why;        // the first reason for "unavailable"
  };
  std::vector<Eval> evals;
  std::vector<RowSpec> specs;
  for (std::size_t s : which) {
    const subject::Capabilities caps = subs[s]->capabilities();
    for (const subject::Function& f : opt.functions) {
      const subject::Op op{f.form, f.quantity == Quantity::value ? subject::Direction::forward
                                                                 : subject::Direction::backward,
                           fmt};
      if (!caps.provides(op)) {
        results[s].not_measured.push_back(subject::op_name(op) + ": the subject does not provide " +
                                          subject::op_name(op));
        continue;
      }
      evals.push_back({s, f, op, false, {}});
      specs.push_back({s, f, f.form, evals.size() - 1});
      if (f.form == Form::tanh && erf_wanted) specs.push_back({s, f, Form::erf, evals.size() - 1});
    }
  }
  const std::size_t m = specs.size();
  std::vector<Row> rows(m);
  for (std::size_t k = 0; k < m; ++k) {
    Row& row = rows[k];
    row.subject = specs[k].subject;
    row.format = fmt;
    row.exhaustive = exhaustive;
    row.form = specs[k].fn.form;
    row.quantity = specs[k].fn.quantity;
    row.against = specs[k].against;
    row.regions.assign(std::size(kRegions), Stats{});
    if (row.against == row.form) row.claim = results[row.subject].claims.get(specs[k].fn, fmt);
    row.plot_envelope.assign(plot_bin(kPlotHi) + 1, -1);
  }
  bool need[2][2] = {};  // [form][quantity]: the enclosures some row needs
  for (const RowSpec& sp : specs) need[static_cast<int>(sp.against)][static_cast<int>(sp.fn.quantity)] = true;
  const Claim framework = Claim::framework_default(fmt);

  // The points a chunk at a time, folded into the rows in input order, so memory stays bounded
  // whatever --points says (kCampaignChunk · m results at a time) and the numbers are those of one
  // pass over all points. In each chunk: 1. the subjects, one after another (they need not be
  // thread-safe), through the harness; 2. the reference on every thread, one enclosure per
  // (input, form, quantity) serving every row that needs it; 3. the fold.
  const std::size_t chunk = opt.campaign_chunk ? opt.campaign_chunk : kCampaignChunk;
  std::vector<Error> err(chunk * m);
  std::vector<double> expected(chunk * m);
  std::vector<unsigned char> flags(chunk * m);
  std::vector<subject::Evaluation> ev(evals.size());
  const std::string what = "campaign " + std::string(name(fmt));
  for (std::size_t base = 0; base < n; base += chunk) {
    const std::size_t cn = std::min(chunk, n - base);
    const std::span<const double> cx(xs.data() + base, cn);
    for (std::size_t j = 0; j < evals.size(); ++j) {
      Eval& e = evals[j];
      ev[j] = subject::evaluate(*subs[e.subject], e.fn, fmt, cx);
      for (subject::Finding& fd : ev[j].findings) {
        fd.index += base;
        if (results[e.subject].findings.size() < 64) results[e.subject].findings.push_back(std::move(fd));
      }
      results[e.subject].failed_results += ev[j].unavailable ? 0 : ev[j].failed_count;
      e.answered |= !ev[j].unavailable;
      if (ev[j].unavailable && e.why.empty()) e.why = ev[j].unavailable_why;
    }
    parallel_for(cn, opt.threads, progress, what.c_str(), [&](std::size_t c) {
      const double x = cx[c];
      for (Quantity q : {Quantity::value, Quantity::derivative}) {
        std::optional<ref::Enclosure> exact[2];
        for (Form f : {Form::tanh, Form::erf})
          if (need[static_cast<int>(f)][static_cast<int>(q)]) exact[static_cast<int>(f)] = ref::enclose(f, q, x, 128);
        for (std::size_t k = 0; k < m; ++k) {
          const RowSpec& sp = specs[k];
          if (sp.fn.quantity != q || ev[sp.eval].failed[c]) continue;
          const ref::Enclosure& y = *exact[static_cast<int>(sp.against)];
          const double r = ev[sp.eval].y[c];
          err[c * m + k] = measure(r, y, fmt);
          expected[c * m + k] = y.rounded(fmt);
          flags[c * m + k] = measure_flags(r, err[c * m + k], y, fmt);
        }
      }
    }, base, n);
    for (std::size_t k = 0; k < m; ++k) {
      const subject::Evaluation& e = ev[specs[k].eval];
      for (std::size_t c = 0; c < cn; ++c) {
        if (e.failed[c]) {
          if (!e.unavailable) ++rows[k].no_result;
          continue;
        }
        fold(rows[k], framework, cx[c], e.y[c], expected[c * m + k], err[c * m + k], flags[c * m + k], fmt);
      }
    }
  }

  std::vector<Row> out;
  for (std::size_t k = 0; k < m; ++k) {
    const RowSpec& sp = specs[k];
    Row& row = rows[k];
    const Eval& e = evals[sp.eval];
    if (!e.answered) {  // said once per op, not per row
      if (sp.against == sp.fn.form)
        results[sp.subject].not_measured.push_back(
            subject::op_name(e.op) + ": " + (e.why.empty() ? "no result for any input" : e.why));
      continue;
    }
    for (Stats& st : row.regions) {
      stats_finish(st);
      // The correctly rounded value at the worst input, for the reader (input, expected, got).
      if (st.worst_x) st.worst_expected = ref::correctly_rounded(sp.against, sp.fn.quantity, *st.worst_x, fmt);
    }
    // The claim holds when every single result meets it, and every input got a result.
    row.meets_claim = row.claim_breaks == 0 && (!row.claim || !row.claim->claims_anything() || row.no_result == 0);
    out.push_back(std::move(row));
  }
  return out;
}

std::vector<std::string> gate_failures(const Report& r) {
  std::vector<std::string> out;
  for (const Row& row : r.rows) {
    const SubjectResult& sr = r.subjects[row.subject];
    if (!sr.gated || !row.claim || !row.claim->claims_anything() || row.meets_claim) continue;
    const Stats& all = row.regions[static_cast<std::size_t>(Region::overall)];
    if (row.claim_breaks == 0) {  // every result met it, but some inputs got none
      out.push_back(sr.spec + " " + std::string(name(row.format)) + " " + std::string(name(row.form)) +
                    " " + std::string(name(row.quantity)) + ": no result for " +
                    std::to_string(row.no_result) + " inputs (see the subject's findings)");
      continue;
    }
    const double bx = row.break_x.value_or(NAN);
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "%s %s %s %s breaks its claim %s: %zu of %zu results, the first at x = %s "
                  "(region %s): expected %s, got %s (%.17g ulp%s); max %.17g ulp at x = %s, "
                  "%zu sign-of-zero mismatches",
                  sr.spec.c_str(), name(row.format).data(), name(row.form).data(),
                  name(row.quantity).data(), row.claim->text.c_str(), row.claim_breaks, all.count,
                  hexfloat(bx).c_str(), std::isnan(bx) ? "?" : region_name(regions_of(bx, row.format)[0]),
                  hexfloat(row.break_expected.value_or(NAN)).c_str(),
                  hexfloat(row.break_got.value_or(NAN)).c_str(), row.break_ulp,
                  row.break_zero_sign ? ", wrong sign of zero" : "", all.max_ulp,
                  hexfloat(all.worst_x.value_or(NAN)).c_str(), all.zero_sign_mismatches);
    out.emplace_back(buf);
  }
  for (const SubjectResult& sr : r.subjects) {
    if (!sr.gated) continue;
    for (const subject::Finding& f : sr.findings) out.push_back(sr.spec + ": " + subject::describe(f));
    const Properties& p = sr.properties;
    if (p.status == "run") {
      std::size_t failed = 0;
      for (const PropertyTest& t : p.tests)
        if (t.outcome == "fail") {
          out.push_back(sr.spec + ": property " + t.suite + "." + t.name + " failed");
          ++failed;
        }
      if (p.exit_code != 0 && failed == 0)
        out.push_back(sr.spec + ": the property suite exited with status " + std::to_string(p.exit_code));
    } else if (p.status != "skipped") {
      // Asked for and not run: a gate must not pass on properties nobody checked.
      out.push_back(sr.spec + ": properties were not run (" + p.status + "): " + p.reason);
    }
  }
  return out;
}

}  // namespace gelucheck::report
