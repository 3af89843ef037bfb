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

std::string describe(const Plant& p) {
  std::string s;
  if (p.ulps) s += std::to_string(p.ulps) + " ulp(s) away from zero";
  if (p.plus_zero) {
    if (!s.empty()) s += " and ";
    s += "-0 results replaced by +0";
  }
  s += " in the accurate path's results";
  if (p.format) (s += ", ") += name(*p.format);
  if (p.form) ((s += ", ") += name(*p.form)) += " form";
  if (p.quantity) (s += ", ") += name(*p.quantity);
  if (p.region) (s += ", x in ") += region_name(*p.region);
  return s;
}

const char* path_name(Path p) { return p == Path::accurate ? "accurate" : "naive"; }
const char* type_name(Format fmt) { return fmt == Format::binary64 ? "double" : "float"; }

double evaluate(Path p, Form f, Quantity q, Format fmt, double x) {
  if (fmt == Format::binary64) return q == Quantity::value ? scalar(f, x, p) : scalar_deriv(f, x, p);
  const auto xf = static_cast<float>(x);  // exact: x is a binary32 value
  return static_cast<double>(q == Quantity::value ? scalar(f, xf, p) : scalar_deriv(f, xf, p));
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double next_away(Format fmt, double r) { return next_in(fmt, r, std::copysign(INFINITY, r)); }

struct RowSpec {
  Path path;
  Form form;
  Quantity quantity;
  Form against;
};
std::vector<RowSpec> row_specs() {
  std::vector<RowSpec> specs;
  for (Form f : {Form::tanh, Form::erf})
    for (Quantity q : {Quantity::value, Quantity::derivative})
      for (Path p : {Path::accurate, Path::naive}) {
        specs.push_back({p, f, q, f});
        if (f == Form::tanh) specs.push_back({p, f, q, Form::erf});  // model + rounding error
      }
  return specs;
}

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

bool plant_applies(const Plant& p, const RowSpec& s, Format fmt, double x) {
  if (p.format && *p.format != fmt) return false;
  if (p.form && *p.form != s.form) return false;
  if (p.quantity && *p.quantity != s.quantity) return false;
  if (p.region) {
    const std::vector<Region> rs = regions_of(x, fmt);
    if (std::find(rs.begin(), rs.end(), *p.region) == rs.end()) return false;
  }
  return true;
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

namespace {
// The bin of Row::plot_envelope that holds x (in [kPlotLo, kPlotHi]).
std::size_t plot_bin(double x) {
  const auto nbins = static_cast<std::size_t>((kPlotHi - kPlotLo) / kPlotBin) + 1;
  return std::min(nbins - 1, static_cast<std::size_t>((x - kPlotLo) / kPlotBin));
}
}  // namespace

std::vector<Row> campaign(Format fmt, const std::vector<double>& xs, const Options& opt,
                          const Progress& progress) {
  const std::vector<RowSpec> specs = row_specs();
  const std::size_t n = xs.size(), m = specs.size();
  std::vector<Row> rows;
  for (const RowSpec& s : specs) {
    Row row{s.path, fmt, s.form, s.quantity, s.against, std::vector<Stats>(std::size(kRegions)),
            {}, std::nullopt, true, 0, std::nullopt, std::nullopt, std::nullopt, 0, false, {}};
    if (s.against == s.form) row.claim = claim(s.path, fmt);
    row.plot_envelope.assign(plot_bin(kPlotHi) + 1, -1);
    rows.push_back(std::move(row));
  }
  // The points are measured a chunk at a time and folded into the rows in input order, so memory
  // stays bounded whatever --points says (kCampaignChunk · m results at a time: kChunkBytes in
  // internal.hpp) and the numbers are those of one pass over all points.
  const std::size_t chunk = opt.campaign_chunk ? opt.campaign_chunk : kCampaignChunk;
  std::vector<Error> err(chunk * m);
  std::vector<double> got(chunk * m);
  std::vector<unsigned char> flags(chunk * m);
  for (std::size_t base = 0; base < n; base += chunk) {
    const std::size_t cn = std::min(chunk, n - base);
    parallel_for(cn, opt.threads, progress,
                 fmt == Format::binary64 ? "campaign binary64" : "campaign binary32",
                 [&](std::size_t c) {
      const double x = xs[base + c];
      for (Quantity q : {Quantity::value, Quantity::derivative}) {
        const ref::Enclosure exact_tanh = ref::enclose(Form::tanh, q, x, 128);
        const ref::Enclosure exact_erf = ref::enclose(Form::erf, q, x, 128);
        for (std::size_t k = 0; k < m; ++k) {
          const RowSpec& s = specs[k];
          if (s.quantity != q) continue;
          double r = evaluate(s.path, s.form, q, fmt, x);
          if (s.path == Path::accurate) {
            for (int j = 0; j < opt.planted_regression_ulps; ++j) r = next_away(fmt, r);
            if (opt.plant.any() && plant_applies(opt.plant, s, fmt, x)) {
              for (int j = 0; j < opt.plant.ulps; ++j) r = next_away(fmt, r);
              if (opt.plant.plus_zero && r == 0 && std::signbit(r)) r = 0.0;
            }
          }
          const ref::Enclosure& y = s.against == Form::tanh ? exact_tanh : exact_erf;
          got[c * m + k] = r;
          err[c * m + k] = measure(r, y, fmt);
          flags[c * m + k] = measure_flags(r, err[c * m + k], y, fmt);
        }
      }
    }, base, n);

    for (std::size_t k = 0; k < m; ++k) {
      Row& row = rows[k];
      for (std::size_t c = 0; c < cn; ++c) {
        const double x = xs[base + c];
        const Error& e = err[c * m + k];
        for (Region r : regions_of(x, fmt))
          stats_add(row.regions[static_cast<std::size_t>(r)], x, got[c * m + k], e, flags[c * m + k]);
        if (row.claim && !meets(*row.claim, e) && row.claim_breaks++ == 0) {
          row.break_x = x;
          row.break_got = got[c * m + k];
          row.break_ulp = e.ulp;
          row.break_zero_sign = e.zero_sign_mismatch;
        }
        histogram_add(row.histogram, e.ulp);
        if (x >= kPlotLo && x <= kPlotHi) {
          double& worst = row.plot_envelope[plot_bin(x)];
          worst = std::max(worst, std::isnan(e.ulp) ? kInf : e.ulp);
        }
      }
    }
  }

  for (std::size_t k = 0; k < m; ++k) {
    const RowSpec& s = specs[k];
    Row& row = rows[k];
    for (Stats& st : row.regions) {
      stats_finish(st);
      // The correctly rounded value at the worst input, for the reader (input, expected, got).
      if (st.worst_x) st.worst_expected = ref::correctly_rounded(s.against, s.quantity, *st.worst_x, fmt);
    }
    // The claim holds when every single result meets it (gelucheck::meets: the bound, no NaN
    // mismatch, and the sign of zero where the claim includes it).
    row.meets_claim = row.claim_breaks == 0;
    if (row.break_x) row.break_expected = ref::correctly_rounded(s.against, s.quantity, *row.break_x, fmt);
  }
  return rows;
}

std::vector<std::string> gate_failures(const Report& r) {
  std::vector<std::string> out;
  for (const Row& row : r.rows) {
    if (!row.claim || row.meets_claim) continue;
    const Stats& all = row.regions[static_cast<std::size_t>(Region::overall)];
    const double bx = row.break_x.value_or(NAN);
    char buf[768];
    std::snprintf(buf, sizeof buf,
                  "%s %s %s %s breaks its claim %s: %zu of %zu results, the first at x = %s "
                  "(region %s): expected %s, got %s (%.17g ulp%s); max %.17g ulp at x = %s, "
                  "%zu sign-of-zero mismatches",
                  path_name(row.path), name(row.format).data(), name(row.form).data(),
                  name(row.quantity).data(), row.claim->text, row.claim_breaks, all.count,
                  hexfloat(bx).c_str(), std::isnan(bx) ? "?" : region_name(regions_of(bx, row.format)[0]),
                  hexfloat(row.break_expected.value_or(NAN)).c_str(),
                  hexfloat(row.break_got.value_or(NAN)).c_str(), row.break_ulp,
                  row.break_zero_sign ? ", wrong sign of zero" : "", all.max_ulp,
                  hexfloat(all.worst_x.value_or(NAN)).c_str(), all.zero_sign_mismatches);
    out.emplace_back(buf);
  }
  const Properties& p = r.properties;
  if (p.status == "run") {
    for (const PropertyTest& t : p.tests)
      if (t.outcome == "fail") out.push_back("property " + t.suite + "." + t.name + " failed");
    if (p.exit_code != 0 && out.empty())
      out.push_back("the property suite exited with status " + std::to_string(p.exit_code));
  } else if (p.status != "skipped") {
    // Asked for and not run: a gate must not pass on properties nobody checked.
    out.push_back("properties were not run (" + p.status + "): " + p.reason);
  }
  return out;
}

}  // namespace gelucheck::report
