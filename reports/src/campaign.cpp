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
#include <stdexcept>
#include <thread>

#include <mpfr.h>

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

void stats_finish(Stats& s) {
  if (s.finite) {
    s.mean_ulp /= static_cast<double>(s.finite);
    s.rms_ulp = std::sqrt(s.rms_ulp / static_cast<double>(s.finite));
  }
}

}  // namespace

void Progress::show(const char* what, std::size_t done, std::size_t total) const {
  if (!enabled) return;
  std::fprintf(stderr, "\r[gelucheck report] %s: %zu/%zu (%3.0f%%)   ", what, done, total,
               total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 100.0);
  if (done == total) std::fputc('\n', stderr);
  std::fflush(stderr);
}

void parallel_for(std::size_t n, unsigned threads, const Progress& progress, const char* what,
                  const std::function<void(std::size_t)>& body) {
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
  for (unsigned t = 1; t < std::max(1u, threads); ++t) pool.emplace_back(worker);
  if (progress.enabled) {
    // The calling thread reports progress while the pool works, then joins in.
    std::thread reporter_worker(worker);
    while (done.load() < n && !failure) {
      progress.show(what, done.load(), n);
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    reporter_worker.join();
    for (auto& t : pool) t.join();
    if (!failure) progress.show(what, n, n);
  } else {
    worker();
    for (auto& t : pool) t.join();
  }
  if (failure) std::rethrow_exception(failure);
}

namespace {

// One measured row: a subject's function in this format, against its own form's exact value, or
// (the tanh form) against the exact GELU.
struct RowSpec {
  std::size_t subject;
  subject::Function fn;
  Form against;
  const subject::Evaluation* ev;
};

}  // namespace

std::vector<Row> campaign(Format fmt, const std::vector<double>& xs, bool exhaustive,
                          std::vector<std::unique_ptr<subject::Subject>>& subs,
                          std::vector<SubjectResult>& results, const Options& opt,
                          const Progress& progress) {
  const std::size_t n = xs.size();
  // 1. The subjects, one after another (they need not be thread-safe), through the harness.
  std::vector<std::vector<subject::Evaluation>> evs(subs.size());
  std::vector<RowSpec> specs;
  const bool erf_wanted = [&] {
    for (const subject::Function& f : opt.functions)
      if (f.form == Form::erf) return true;
    return false;
  }();
  for (std::size_t s = 0; s < subs.size(); ++s) {
    evs[s].reserve(opt.functions.size());  // specs point into it
    for (const subject::Function& f : opt.functions) {
      const subject::Op op{f.form, f.quantity == Quantity::value ? subject::Direction::forward
                                                                 : subject::Direction::backward,
                           fmt};
      if (progress.enabled)
        std::fprintf(stderr, "\r[%s] %s: %s %s...%20s", opt.command.c_str(),
                     results[s].spec.c_str(), subject::function_name(f).c_str(),
                     std::string(subject::dtype_name(fmt)).c_str(), "");
      subject::Evaluation ev = subject::evaluate(*subs[s], f, fmt, xs);
      for (subject::Finding& fd : ev.findings)
        if (results[s].findings.size() < 64) results[s].findings.push_back(std::move(fd));
      ev.findings.clear();
      if (ev.unavailable) {
        results[s].not_measured.push_back(
            subject::op_name(op) + ": " +
            (ev.unavailable_why.empty() ? "no result for any input" : ev.unavailable_why));
        continue;
      }
      results[s].failed_results += ev.failed_count;
      evs[s].push_back(std::move(ev));
      specs.push_back({s, f, f.form, &evs[s].back()});
      if (f.form == Form::tanh && erf_wanted) specs.push_back({s, f, Form::erf, &evs[s].back()});
    }
  }
  if (progress.enabled) std::fputc('\n', stderr);

  // 2. The reference at every input, on every thread: one enclosure per (input, form, quantity)
  // serves every row that needs it.
  const std::size_t m = specs.size();
  std::vector<Error> err(n * m);
  std::vector<double> expected(n * m);
  std::vector<unsigned char> flags(n * m);
  bool need[2][2] = {};  // [form][quantity]
  for (const RowSpec& sp : specs)
    need[static_cast<int>(sp.against)][static_cast<int>(sp.fn.quantity)] = true;
  parallel_for(n, opt.threads, progress,
               (std::string("reference ") + std::string(name(fmt))).c_str(), [&](std::size_t i) {
    const double x = xs[i];
    for (Quantity q : {Quantity::value, Quantity::derivative}) {
      std::optional<ref::Enclosure> exact[2];
      for (Form f : {Form::tanh, Form::erf})
        if (need[static_cast<int>(f)][static_cast<int>(q)])
          exact[static_cast<int>(f)] = ref::enclose(f, q, x, 128);
      for (std::size_t k = 0; k < m; ++k) {
        const RowSpec& sp = specs[k];
        if (sp.fn.quantity != q || sp.ev->failed[i]) continue;
        const ref::Enclosure& y = *exact[static_cast<int>(sp.against)];
        const double r = sp.ev->y[i];
        err[i * m + k] = measure(r, y, fmt);
        expected[i * m + k] = y.rounded(fmt);
        flags[i * m + k] = measure_flags(r, err[i * m + k], y, fmt);
      }
    }
  });

  // 3. The summaries, in input order (so they do not depend on the number of threads).
  std::vector<Row> rows;
  for (std::size_t k = 0; k < m; ++k) {
    const RowSpec& sp = specs[k];
    const subject::Evaluation& ev = *sp.ev;
    Row row;
    row.subject = sp.subject;
    row.format = fmt;
    row.exhaustive = exhaustive;
    row.form = sp.fn.form;
    row.quantity = sp.fn.quantity;
    row.against = sp.against;
    row.regions.assign(std::size(kRegions), Stats{});
    if (sp.against == sp.fn.form) row.claim = results[sp.subject].claims.get(sp.fn, fmt);
    const Claim framework = Claim::framework_default(fmt);
    for (std::size_t i = 0; i < n; ++i) {
      const double x = xs[i];
      if (ev.failed[i]) {
        ++row.no_result;
        continue;
      }
      const Error& e = err[i * m + k];
      const double got = ev.y[i], want = expected[i * m + k];
      for (Region r : regions_of(x, fmt))
        stats_add(row.regions[static_cast<std::size_t>(r)], x, got, e, flags[i * m + k]);
      histogram_add(row.histogram, e.ulp);
      if (x >= -40 && x <= 10) {
        row.plot_x.push_back(x);
        row.plot_ulp.push_back(e.ulp);
      }
      if (sp.against != sp.fn.form) continue;
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
    for (Stats& st : row.regions) {
      stats_finish(st);
      // The correctly rounded value at the worst input, for the reader (input, expected, got).
      if (st.worst_x) st.worst_expected = ref::correctly_rounded(sp.against, sp.fn.quantity, *st.worst_x, fmt);
    }
    // The claim holds when every single result meets it, and every input got a result.
    row.meets_claim = row.claim_breaks == 0 && (!row.claim || !row.claim->claims_anything() || row.no_result == 0);
    rows.push_back(std::move(row));
  }
  return rows;
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
