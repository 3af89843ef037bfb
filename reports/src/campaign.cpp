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

const char* path_name(Path p) { return p == Path::accurate ? "accurate" : "naive"; }
const char* type_name(Format fmt) { return fmt == Format::binary64 ? "double" : "float"; }

std::optional<Claim> claim_of(Path p, Format fmt) {
  if (p != Path::accurate) return std::nullopt;  // the textbook baseline claims nothing
  if (fmt == Format::binary64) return Claim{1.0, true, false, "faithful (< 1 ulp)"};
  return Claim{0.5, false, true, "correctly rounded (<= 0.5 ulp, sign of zero included)"};
}

double evaluate(Path p, Form f, Quantity q, Format fmt, double x) {
  if (fmt == Format::binary64) return q == Quantity::value ? scalar(f, x, p) : scalar_deriv(f, x, p);
  const auto xf = static_cast<float>(x);  // exact: x is a binary32 value
  return static_cast<double>(q == Quantity::value ? scalar(f, xf, p) : scalar_deriv(f, xf, p));
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double next_away(Format fmt, double r) {
  const double toward = std::copysign(INFINITY, r);
  if (fmt == Format::binary64) return std::nextafter(r, toward);
  return static_cast<double>(std::nextafter(static_cast<float>(r), static_cast<float>(toward)));
}

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

void stats_add(Stats& s, double x, double got, const Error& e) {
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
  s.max_abs = std::max(s.max_abs, std::isnan(e.abs) ? kInf : e.abs);
  s.max_rel = std::max(s.max_rel, std::isnan(e.rel) ? kInf : e.rel);
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

std::vector<Row> campaign(Format fmt, const std::vector<double>& xs, const Options& opt,
                          const Progress& progress) {
  const std::vector<RowSpec> specs = row_specs();
  const std::size_t n = xs.size(), m = specs.size();
  std::vector<Error> err(n * m);
  std::vector<double> got(n * m);
  parallel_for(n, opt.threads, progress,
               fmt == Format::binary64 ? "campaign binary64" : "campaign binary32",
               [&](std::size_t i) {
    const double x = xs[i];
    for (Quantity q : {Quantity::value, Quantity::derivative}) {
      const ref::Enclosure exact_tanh = ref::enclose(Form::tanh, q, x, 128);
      const ref::Enclosure exact_erf = ref::enclose(Form::erf, q, x, 128);
      for (std::size_t k = 0; k < m; ++k) {
        const RowSpec& s = specs[k];
        if (s.quantity != q) continue;
        double r = evaluate(s.path, s.form, q, fmt, x);
        if (s.path == Path::accurate)
          for (int j = 0; j < opt.planted_regression_ulps; ++j) r = next_away(fmt, r);
        got[i * m + k] = r;
        err[i * m + k] = measure(r, s.against == Form::tanh ? exact_tanh : exact_erf, fmt);
      }
    }
  });

  std::vector<Row> rows;
  for (std::size_t k = 0; k < m; ++k) {
    const RowSpec& s = specs[k];
    Row row{s.path, fmt, s.form, s.quantity, s.against, std::vector<Stats>(std::size(kRegions)),
            {}, std::nullopt, true, {}, {}};
    for (std::size_t i = 0; i < n; ++i) {
      const double x = xs[i];
      const Error& e = err[i * m + k];
      for (Region r : regions_of(x, fmt)) stats_add(row.regions[static_cast<std::size_t>(r)], x, got[i * m + k], e);
      histogram_add(row.histogram, e.ulp);
      if (x >= -40 && x <= 10) {
        row.plot_x.push_back(x);
        row.plot_ulp.push_back(e.ulp);
      }
    }
    for (Stats& st : row.regions) {
      stats_finish(st);
      // The correctly rounded value at the worst input, for the reader (input, expected, got).
      if (st.worst_x) st.worst_expected = ref::correctly_rounded(s.against, s.quantity, *st.worst_x, fmt);
    }
    if (s.against == s.form) row.claim = claim_of(s.path, fmt);
    if (row.claim) {
      const Stats& all = row.regions[static_cast<std::size_t>(Region::overall)];
      const bool bound_ok = row.claim->strict ? all.max_ulp < row.claim->max_ulp
                                              : all.max_ulp <= row.claim->max_ulp;
      row.meets_claim = bound_ok && !(row.claim->zero_sign && all.zero_sign_mismatches > 0);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<std::string> gate_failures(const Report& r) {
  std::vector<std::string> out;
  for (const Row& row : r.rows) {
    if (!row.claim || row.meets_claim) continue;
    const Stats& all = row.regions[static_cast<std::size_t>(Region::overall)];
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "%s %s %s %s breaks its claim %s: max %.17g ulp at x = %s (expected %s, got %s), "
                  "%zu sign-of-zero mismatches",
                  path_name(row.path), name(row.format).data(), name(row.form).data(),
                  name(row.quantity).data(), row.claim->text.c_str(), all.max_ulp,
                  hexfloat(all.worst_x.value_or(NAN)).c_str(),
                  hexfloat(all.worst_expected.value_or(NAN)).c_str(),
                  hexfloat(all.worst_got.value_or(NAN)).c_str(), all.zero_sign_mismatches);
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
