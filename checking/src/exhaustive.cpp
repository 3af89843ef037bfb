// The exhaustive binary32 sweep (gelucheck/exhaustive.hpp): blocks of bit patterns measured on
// every thread, each thread with a subject of its own (an out-of-process subject: a child
// process per thread), folded into one result by an order-free merge; checkpoints, shard files
// and the report's "exhaustive" section.
#include "gelucheck/exhaustive.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <mutex>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <mpfr.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "gelucheck/cleanup.hpp"
#include "gelucheck/fast_reference.hpp"
#include "gelucheck/measure.hpp"
#include "gelucheck/reference.hpp"
#include "facts.hpp"
#include "fold.hpp"
#include "patterns.hpp"
#include "internal.hpp"

namespace gelucheck::report::exhaustive {
namespace {

using json = nlohmann::ordered_json;
constexpr Format kFmt = Format::binary32;

std::string hex32(std::uint64_t b) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(b));
  return buf;
}

// The position of an input in sweep order: its bit pattern.
std::uint32_t pos(double x) { return static_cast<std::uint32_t>(*to_bits(x, kFmt)); }

// ---------------------------------------------------------------------------------------------
// The reference: the fast certified reference (gelucheck/fast_reference.hpp: double-double with a
// derived error bound and a rounding test, MPFR where the test cannot decide), for a whole block at
// once, every input failed or not (its cost does not depend on the subject).
const char* const kReferenceName = "gelucheck::ref::round_batch (fast path, MPFR fallback)";

std::atomic<bool> g_scalar_fold{false};  // testing::ScopedScalarFold

// The chunk fold as the per-result calls it must equal (fold.hpp's fold_chunk and
// Facts::points): measure, measure_flags, fold and Facts::point on each result in turn. Only for
// the test that compares the two.
void fold_chunk_scalar(Row& row, const Claim& framework, Facts& facts, const SweepChunk& c,
                       FunctionSweep& fs, std::size_t cap) {
  for (std::size_t i = 0; i < c.n; ++i) {
    if (c.failed != nullptr && c.failed[i] != 0) {
      if (!c.unavailable) ++row.no_result;
      continue;
    }
    const ref::Rounded y{c.y.rn[i], c.y.rd[i], c.y.ru[i], c.y.hi[i], c.y.lo[i], c.y.scale[i], c.y.floor_log2[i]};
    const double x = c.x[i], got = c.got[i], want = y.rn;
    const Error e = measure(got, y, kFmt);
    const std::size_t before = row.claim_breaks;
    fold(row, framework, x, got, want, e, measure_flags(got, e, y, kFmt), kFmt, false);
    facts.point(row, x, got, want);
    if (row.claim_breaks == before) continue;
    for (Region r : regions_of(x, kFmt)) ++fs.failing[static_cast<std::size_t>(r)];
    if (fs.failures.size() < cap) fs.failures.push_back({c.bits[i], got, want, e.ulp, e.zero_sign_mismatch});
  }
}

// The fast reference's columns of a chunk.
constexpr std::size_t kChunk = 2048;
struct ChunkColumns {
  std::vector<double> rn, rd, ru, hi, lo;
  std::vector<std::int64_t> scale, floor_log2;
  ChunkColumns()
      : rn(kChunk), rd(kChunk), ru(kChunk), hi(kChunk), lo(kChunk), scale(kChunk), floor_log2(kChunk) {}
  ref::RoundedColumns y() {
    return {rn.data(), rd.data(), ru.data(), hi.data(), lo.data(), scale.data(), floor_log2.data()};
  }
};

// ---------------------------------------------------------------------------------------------
// Merging (a covers inputs disjoint from b's; which comes first does not matter).

// b's worst replaces a's when larger, or as large and earlier in sweep order.
void merge_stats(Stats& a, const Stats& b) {
  if (b.count > 0 && (a.count == 0 || b.max_ulp > a.max_ulp ||
                      (b.max_ulp == a.max_ulp && pos(*b.worst_x) < pos(*a.worst_x)))) {
    a.max_ulp = b.max_ulp;
    a.worst_x = b.worst_x;
    a.worst_got = b.worst_got;
  }
  a.count += b.count;
  a.finite += b.finite;
  a.correctly_rounded += b.correctly_rounded;
  a.faithful += b.faithful;
  a.max_abs = std::max(a.max_abs, b.max_abs);
  a.max_rel = std::max(a.max_rel, b.max_rel);
  a.max_abs_resolved = std::max(a.max_abs_resolved, b.max_abs_resolved);
  a.max_rel_normal = std::max(a.max_rel_normal, b.max_rel_normal);
  a.abs_below_resolution += b.abs_below_resolution;
  a.rel_subnormal_faithful += b.rel_subnormal_faithful;
  a.nan_mismatches += b.nan_mismatches;
  a.zero_sign_mismatches += b.zero_sign_mismatches;
}

void merge_row(Row& a, const Row& b) {
  for (std::size_t r = 0; r < a.regions.size(); ++r) merge_stats(a.regions[r], b.regions[r]);
  a.histogram.zero += b.histogram.zero;
  a.histogram.infinite += b.histogram.infinite;
  for (std::size_t i = 0; i < a.histogram.bins.size(); ++i) a.histogram.bins[i] += b.histogram.bins[i];
  for (std::size_t i = 0; i < a.plot_envelope.size(); ++i)
    a.plot_envelope[i] = std::max(a.plot_envelope[i], b.plot_envelope[i]);
  if (b.claim_breaks > 0 && (a.claim_breaks == 0 || pos(*b.break_x) < pos(*a.break_x))) {
    a.break_x = b.break_x;
    a.break_expected = b.break_expected;
    a.break_got = b.break_got;
    a.break_ulp = b.break_ulp;
    a.break_zero_sign = b.break_zero_sign;
  }
  a.claim_breaks += b.claim_breaks;
  if (b.framework_breaks > 0 &&
      (a.framework_breaks == 0 || pos(*b.framework_break_x) < pos(*a.framework_break_x))) {
    a.framework_break_x = b.framework_break_x;
    a.framework_break_expected = b.framework_break_expected;
    a.framework_break_got = b.framework_break_got;
  }
  a.framework_breaks += b.framework_breaks;
  if (b.wrong_zero_max_x && (!a.wrong_zero_max_x || *b.wrong_zero_max_x > *a.wrong_zero_max_x))
    a.wrong_zero_max_x = b.wrong_zero_max_x;
  a.wrong_zeros += b.wrong_zeros;
  if (b.nan_min_abs_x && (!a.nan_min_abs_x || *b.nan_min_abs_x < *a.nan_min_abs_x))
    a.nan_min_abs_x = b.nan_min_abs_x;
  a.nan_at_plus_inf |= b.nan_at_plus_inf;
  a.nan_at_minus_inf |= b.nan_at_minus_inf;
  a.no_result += b.no_result;
  if (b.finite_worst_x && (!a.finite_worst_x || b.finite_max_ulp > a.finite_max_ulp ||
                           (b.finite_max_ulp == a.finite_max_ulp &&
                            pos(*b.finite_worst_x) < pos(*a.finite_worst_x)))) {
    a.finite_max_ulp = b.finite_max_ulp;
    a.finite_worst_x = b.finite_worst_x;
    a.finite_worst_expected = b.finite_worst_expected;
    a.finite_worst_got = b.finite_worst_got;
  }
  if (b.tail_min_nonzero_x && (!a.tail_min_nonzero_x || *b.tail_min_nonzero_x < *a.tail_min_nonzero_x))
    a.tail_min_nonzero_x = b.tail_min_nonzero_x;
  a.narrow_checked += b.narrow_checked;
  a.narrow_in_binary16 += b.narrow_in_binary16;
  a.narrow_in_bfloat16 += b.narrow_in_bfloat16;
  a.narrow_in_binary32 += b.narrow_in_binary32;
  merge_sweep_observations(a, b);
  // In a fixed order, whichever part saw a kind first.
  std::sort(a.observations.begin(), a.observations.end(),
            [](const Observation& u, const Observation& v) {
              return u.kind != v.kind ? u.kind < v.kind : u.fact < v.fact;
            });
}

void add_done(std::vector<BitRange>& done, const BitRange& r) {
  done.push_back(r);
  std::sort(done.begin(), done.end(), [](const BitRange& a, const BitRange& b) { return a.lo < b.lo; });
  std::vector<BitRange> out;
  for (const BitRange& d : done) {
    if (!out.empty() && d.lo < out.back().hi)
      throw std::invalid_argument("the parts overlap at bit pattern " + hex32(d.lo));
    if (!out.empty() && d.lo == out.back().hi) out.back().hi = d.hi;
    else out.push_back(d);
  }
  done = std::move(out);
}

// Folds b (disjoint inputs, same sweep) into a.
void absorb(Sweep& a, Sweep&& b) {
  for (const BitRange& d : b.done) add_done(a.done, d);
  a.inputs += b.inputs;
  a.reference_fast += b.reference_fast;
  a.reference_fallback += b.reference_fallback;
  a.seconds += b.seconds;
  auto& fa = a.subject.findings;
  for (subject::Finding& f : b.subject.findings) fa.push_back(std::move(f));
  std::stable_sort(fa.begin(), fa.end(), [](const subject::Finding& x, const subject::Finding& y) {
    return x.index < y.index;
  });
  if (fa.size() > kMaxFindings) fa.resize(kMaxFindings);
  a.subject.failed_results += b.subject.failed_results;
  for (std::size_t i = 0; i < a.fns.size(); ++i) {
    FunctionSweep& x = a.fns[i];
    FunctionSweep& y = b.fns[i];
    x.answered |= y.answered;
    if (x.why.empty()) x.why = y.why;
    merge_row(x.row, y.row);
    for (std::size_t r = 0; r < x.ulp_sum.size(); ++r) {
      x.ulp_sum[r].add(y.ulp_sum[r]);
      x.ulp_sq_sum[r].add(y.ulp_sq_sum[r]);
      x.failing[r] += y.failing[r];
    }
    for (FactEnds& e : y.fact_ends) add_fact_ends(x.fact_ends, std::move(e), x.row);
    x.failures.insert(x.failures.end(), y.failures.begin(), y.failures.end());
    std::sort(x.failures.begin(), x.failures.end(),
              [](const Failure& p, const Failure& q) { return p.bits < q.bits; });
    if (x.failures.size() > a.id.cap) x.failures.resize(a.id.cap);
  }
}

// ---------------------------------------------------------------------------------------------
// JSON of the exact state: every double as a C99 hex float (exact), read back with parse_real.

json hx(double v) { return hexfloat(v); }
json ohx(const std::optional<double>& v) { return v ? json(hexfloat(*v)) : json(nullptr); }
double rd(const json& j) {
  const std::optional<double> v = parse_real(j.get<std::string>());
  if (!v) throw std::invalid_argument("not a number: " + j.dump());
  return *v;
}
std::optional<double> ord(const json& j) {
  if (j.is_null()) return std::nullopt;
  return rd(j);
}

json stats_state(const Stats& s) {
  return {{"count", s.count}, {"max_ulp", hx(s.max_ulp)}, {"worst_x", ohx(s.worst_x)},
          {"worst_got", ohx(s.worst_got)}, {"finite", s.finite},
          {"correctly_rounded", s.correctly_rounded}, {"faithful", s.faithful},
          {"max_abs", hx(s.max_abs)}, {"max_rel", hx(s.max_rel)},
          {"max_abs_resolved", hx(s.max_abs_resolved)}, {"max_rel_normal", hx(s.max_rel_normal)},
          {"abs_below_resolution", s.abs_below_resolution},
          {"rel_subnormal_faithful", s.rel_subnormal_faithful},
          {"nan_mismatches", s.nan_mismatches}, {"zero_sign_mismatches", s.zero_sign_mismatches}};
}
Stats stats_from(const json& j) {
  Stats s;
  s.count = j.at("count").get<std::size_t>();
  s.max_ulp = rd(j.at("max_ulp"));
  s.worst_x = ord(j.at("worst_x"));
  s.worst_got = ord(j.at("worst_got"));
  s.finite = j.at("finite").get<std::size_t>();
  s.correctly_rounded = j.at("correctly_rounded").get<std::size_t>();
  s.faithful = j.at("faithful").get<std::size_t>();
  s.max_abs = rd(j.at("max_abs"));
  s.max_rel = rd(j.at("max_rel"));
  s.max_abs_resolved = rd(j.at("max_abs_resolved"));
  s.max_rel_normal = rd(j.at("max_rel_normal"));
  s.abs_below_resolution = j.at("abs_below_resolution").get<std::size_t>();
  s.rel_subnormal_faithful = j.at("rel_subnormal_faithful").get<std::size_t>();
  s.nan_mismatches = j.at("nan_mismatches").get<std::size_t>();
  s.zero_sign_mismatches = j.at("zero_sign_mismatches").get<std::size_t>();
  return s;
}

json row_state(const Row& r) {
  json regions = json::array();
  for (const Stats& s : r.regions) regions.push_back(stats_state(s));
  json envelope = json::array();
  for (double v : r.plot_envelope) envelope.push_back(hx(v));
  return {{"regions", regions},
          {"histogram", {{"zero", r.histogram.zero}, {"infinite", r.histogram.infinite},
                         {"bins", r.histogram.bins}}},
          {"plot_envelope", envelope},
          {"claim_breaks", r.claim_breaks}, {"break_x", ohx(r.break_x)},
          {"break_expected", ohx(r.break_expected)}, {"break_got", ohx(r.break_got)},
          {"break_ulp", hx(r.break_ulp)}, {"break_zero_sign", r.break_zero_sign},
          {"framework_breaks", r.framework_breaks},
          {"framework_break_x", ohx(r.framework_break_x)},
          {"framework_break_expected", ohx(r.framework_break_expected)},
          {"framework_break_got", ohx(r.framework_break_got)},
          {"wrong_zero_max_x", ohx(r.wrong_zero_max_x)}, {"wrong_zeros", r.wrong_zeros},
          {"nan_min_abs_x", ohx(r.nan_min_abs_x)}, {"nan_at_plus_inf", r.nan_at_plus_inf},
          {"nan_at_minus_inf", r.nan_at_minus_inf}, {"no_result", r.no_result},
          {"finite_max_ulp", hx(r.finite_max_ulp)}, {"finite_worst_x", ohx(r.finite_worst_x)},
          {"finite_worst_expected", ohx(r.finite_worst_expected)},
          {"finite_worst_got", ohx(r.finite_worst_got)},
          {"narrow", {r.narrow_checked, r.narrow_in_binary16, r.narrow_in_bfloat16, r.narrow_in_binary32}},
          {"tail_min_nonzero_x", ohx(r.tail_min_nonzero_x)}};
}
void row_from(Row& r, const json& j) {  // r is a blank row of the right shape
  const json& regions = j.at("regions");
  if (regions.size() != r.regions.size()) throw std::invalid_argument("wrong number of regions");
  for (std::size_t i = 0; i < r.regions.size(); ++i) r.regions[i] = stats_from(regions[i]);
  r.histogram.zero = j.at("histogram").at("zero").get<std::size_t>();
  r.histogram.infinite = j.at("histogram").at("infinite").get<std::size_t>();
  r.histogram.bins = j.at("histogram").at("bins").get<std::vector<std::size_t>>();
  const json& env = j.at("plot_envelope");
  if (env.size() != r.plot_envelope.size() || r.histogram.bins.size() != Histogram{}.bins.size())
    throw std::invalid_argument("wrong histogram or plot size");
  for (std::size_t i = 0; i < env.size(); ++i) r.plot_envelope[i] = rd(env[i]);
  r.claim_breaks = j.at("claim_breaks").get<std::size_t>();
  r.break_x = ord(j.at("break_x"));
  r.break_expected = ord(j.at("break_expected"));
  r.break_got = ord(j.at("break_got"));
  r.break_ulp = rd(j.at("break_ulp"));
  r.break_zero_sign = j.at("break_zero_sign").get<bool>();
  r.framework_breaks = j.at("framework_breaks").get<std::size_t>();
  r.framework_break_x = ord(j.at("framework_break_x"));
  r.framework_break_expected = ord(j.at("framework_break_expected"));
  r.framework_break_got = ord(j.at("framework_break_got"));
  r.wrong_zero_max_x = ord(j.at("wrong_zero_max_x"));
  r.wrong_zeros = j.at("wrong_zeros").get<std::size_t>();
  r.nan_min_abs_x = ord(j.at("nan_min_abs_x"));
  r.nan_at_plus_inf = j.at("nan_at_plus_inf").get<bool>();
  r.nan_at_minus_inf = j.at("nan_at_minus_inf").get<bool>();
  r.no_result = j.at("no_result").get<std::size_t>();
  r.finite_max_ulp = rd(j.at("finite_max_ulp"));
  r.finite_worst_x = ord(j.at("finite_worst_x"));
  r.finite_worst_expected = ord(j.at("finite_worst_expected"));
  r.finite_worst_got = ord(j.at("finite_worst_got"));
  r.tail_min_nonzero_x = ord(j.at("tail_min_nonzero_x"));
  const json& nw = j.at("narrow");
  r.narrow_checked = nw.at(0).get<std::size_t>();
  r.narrow_in_binary16 = nw.at(1).get<std::size_t>();
  r.narrow_in_bfloat16 = nw.at(2).get<std::size_t>();
  r.narrow_in_binary32 = nw.at(3).get<std::size_t>();
}

json range_json(const BitRange& r) { return {hex32(r.lo), hex32(r.hi)}; }
BitRange range_from(const json& j) {
  return parse_range(j.at(0).get<std::string>() + ":" + j.at(1).get<std::string>());
}

std::optional<subject::Status::Kind> parse_kind(const std::string& s) {
  for (int k = 0; k <= static_cast<int>(subject::Status::Kind::failed); ++k)
    if (subject::kind_name(static_cast<subject::Status::Kind>(k)) == s)
      return static_cast<subject::Status::Kind>(k);
  return std::nullopt;
}

// A blank sweep of `id` over `part`: the rows of the functions, nothing measured.
Sweep blank(const Identity& id, const SubjectResult& sr, const subject::Capabilities* caps,
            const BitRange& part) {
  Sweep s;
  s.id = id;
  s.subject = sr;
  s.part = part;
  for (const std::string& name : id.functions) {
    FunctionSweep fs;
    fs.fn = *subject::parse_function(name);
    const subject::Op op{fs.fn.form, fs.fn.quantity == Quantity::value ? subject::Direction::forward
                                                                       : subject::Direction::backward,
                         kFmt};
    fs.provided = caps ? caps->provides(op)
                       : std::find(sr.provides.begin(), sr.provides.end(), subject::op_name(op)) !=
                             sr.provides.end();
    Row& row = fs.row;
    row.subject = 0;
    row.format = kFmt;
    row.exhaustive = id.total == BitRange{};
    row.form = row.against = fs.fn.form;
    row.quantity = fs.fn.quantity;
    row.regions.assign(std::size(kRegions), Stats{});
    row.claim = sr.claims.get(fs.fn, kFmt);
    row.plot_envelope.assign(plot_bin(kPlotHi) + 1, -1);
    fs.ulp_sum.assign(std::size(kRegions), ExactSum{});
    fs.ulp_sq_sum.assign(std::size(kRegions), ExactSum{});
    fs.failing.assign(std::size(kRegions), 0);
    s.fns.push_back(std::move(fs));
  }
  return s;
}

// Measures one block into `b` (a blank sweep): the subject through the harness, then the
// reference, folded in bit-pattern order.
void sweep_block(subject::Subject& sub, const BitRange& block, Sweep& b) {
  const auto t0 = std::chrono::steady_clock::now();
  // The block's inputs (a thread's buffers, kept from block to block).
  thread_local std::vector<double> xs;
  thread_local std::vector<std::uint32_t> bits;
  xs.resize(block.hi - block.lo);
  bits.resize(block.hi - block.lo);
  // The block's runs of non-NaN patterns (the NaNs are 0x7f800001..0x7fffffff and
  // 0xff800001..0xffffffff), each pattern's value as from_bits gives it (the conversion is exact).
  std::size_t n = 0;
  std::uint64_t from = block.lo;
  auto take = [&](std::uint64_t to) {  // the patterns [from, to), none a NaN
    if (to <= from) return;
    fill_patterns(static_cast<std::uint32_t>(from), to - from, xs.data() + n, bits.data() + n);
    n += to - from;
  };
  for (const BitRange& nan : {BitRange{0x7f800001u, 0x80000000u}, BitRange{0xff800001u, kAllPatterns}}) {
    if (nan.hi <= from || nan.lo >= block.hi) continue;
    take(std::min(block.hi, nan.lo));
    from = std::max(from, nan.hi);
  }
  take(block.hi);
  xs.resize(n);
  bits.resize(n);
  b.done = {block};
  b.inputs = xs.size();
  const Claim framework = Claim::framework_default(kFmt);
  thread_local ChunkColumns cols;
  std::vector<unsigned char> failed;
  subject::HarnessOptions ho;
  ho.batch = kBlock;
  for (FunctionSweep& fs : b.fns) {
    if (!fs.provided || xs.empty()) continue;
    subject::Evaluation ev = subject::evaluate(sub, fs.fn, kFmt, xs, ho);
    for (subject::Finding& f : ev.findings) {
      f.index = bits[f.index];  // the input's bit pattern: its place in sweep order
      b.subject.findings.push_back(std::move(f));
    }
    b.subject.failed_results += ev.unavailable ? 0 : ev.failed_count;
    fs.answered |= !ev.unavailable;
    if (ev.unavailable && fs.why.empty()) fs.why = ev.unavailable_why;
    const bool some_failed = ev.unavailable || ev.failed_count > 0;
    if (some_failed) failed.assign(ev.failed.begin(), ev.failed.end());
    Row& row = fs.row;
    Facts facts(row);  // the facts over every result (facts.hpp)
    const bool scalar = g_scalar_fold.load(std::memory_order_relaxed);
    // A chunk at a time: the reference's columns stay in cache for the fold.
    for (std::size_t c0 = 0; c0 < xs.size(); c0 += kChunk) {
      const std::size_t m = std::min(kChunk, xs.size() - c0);
      ref::FastStats paths;
      ref::round_columns(fs.fn.form, fs.fn.quantity, kFmt, std::span<const double>(xs).subspan(c0, m),
                         cols.y(), &paths);
      b.reference_fast += paths.fast;
      b.reference_fallback += paths.fallback;
      const SweepChunk ch{xs.data() + c0, bits.data() + c0, ev.y.data() + c0,
                          some_failed ? failed.data() + c0 : nullptr, cols.y(), m, ev.unavailable};
      if (scalar) {
        fold_chunk_scalar(row, framework, facts, ch, fs, b.id.cap);
      } else {
        fold_chunk(row, framework, ch, fs.failing, fs.failures, b.id.cap);
        facts.points(row, ch);
      }
    }
    fs.fact_ends = {{block.lo, block.hi, facts.first(), facts.last()}};
    // `overall` was left out of the fold: the interval regions partition the block's inputs
    // (no NaNs here), so it is their merge, sums included.
    const auto io = static_cast<std::size_t>(Region::overall);
    for (Region r : kRegions) {
      if (r == Region::overall || r == Region::subnormal) continue;
      const Stats& st = row.regions[static_cast<std::size_t>(r)];
      merge_stats(row.regions[io], st);
      fs.ulp_sum[io].add(st.mean_ulp);
      fs.ulp_sq_sum[io].add(st.rms_ulp);
    }
    row.regions[io].mean_ulp = row.regions[io].rms_ulp = 0;
    // The block's sums (fold's, in bit-pattern order) go into the exact sums; what the rows'
    // mean_ulp and rms_ulp hold is then no longer used.
    for (std::size_t r = 0; r < row.regions.size(); ++r) {
      if (r == io) continue;
      fs.ulp_sum[r].add(row.regions[r].mean_ulp);
      fs.ulp_sq_sum[r].add(row.regions[r].rms_ulp);
      row.regions[r].mean_ulp = row.regions[r].rms_ulp = 0;
    }
  }
  std::stable_sort(b.subject.findings.begin(), b.subject.findings.end(),
                   [](const subject::Finding& x, const subject::Finding& y) { return x.index < y.index; });
  if (b.subject.findings.size() > kMaxFindings) b.subject.findings.resize(kMaxFindings);
  b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void write_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    f.close();
    if (!f) throw std::runtime_error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot rename " + tmp);
}

}  // namespace

// ---------------------------------------------------------------------------------------------

BitRange parse_range(const std::string& s) {
  const std::size_t colon = s.find(':');
  auto num = [&](const std::string& t) -> std::uint64_t {
    const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    if (t.empty() || (hex && t.size() == 2)) throw std::invalid_argument("empty number");
    std::size_t used = 0;
    unsigned long long v = 0;
    try {
      v = std::stoull(t, &used, hex ? 16 : 10);
    } catch (const std::exception&) {
      throw std::invalid_argument("\"" + t + "\" is not a decimal or 0x-hex integer");
    }
    if (used != t.size() || t[0] == '-' || t[0] == '+' || t[0] == ' ')
      throw std::invalid_argument("\"" + t + "\" is not a decimal or 0x-hex integer");
    return v;
  };
  if (colon == std::string::npos) throw std::invalid_argument("expected LO:HI");
  BitRange r{num(s.substr(0, colon)), num(s.substr(colon + 1))};
  if (!(r.lo < r.hi) || r.hi > kAllPatterns)
    throw std::invalid_argument("need LO < HI <= 0x100000000 (bit patterns [LO, HI))");
  return r;
}

std::string range_text(const BitRange& r) { return hex32(r.lo) + ":" + hex32(r.hi); }

std::uint64_t count_inputs(const BitRange& r) {
  // NaN patterns: 0x7f800001..0x7fffffff and 0xff800001..0xffffffff.
  auto nans_below = [](std::uint64_t b) {  // NaN patterns in [0, b)
    auto in = [&](std::uint64_t lo, std::uint64_t hi) {
      return b <= lo ? 0 : std::min(b, hi) - lo;
    };
    return in(0x7f800001u, 0x80000000u) + in(0xff800001u, kAllPatterns);
  };
  return (r.hi - r.lo) - (nans_below(r.hi) - nans_below(r.lo));
}

Shard parse_shard(const std::string& s) {
  const std::size_t slash = s.find('/');
  unsigned long k = 0, n = 0;
  std::size_t a = 0, b = 0;
  try {
    if (slash == std::string::npos) throw std::invalid_argument("");
    k = std::stoul(s.substr(0, slash), &a);
    n = std::stoul(s.substr(slash + 1), &b);
  } catch (const std::exception&) {
    throw std::invalid_argument("expected K/N, 1 <= K <= N");
  }
  if (a != slash || b != s.size() - slash - 1 || k < 1 || k > n || n > 1000000 ||
      !std::isdigit(static_cast<unsigned char>(s[0])) ||
      !std::isdigit(static_cast<unsigned char>(s[slash + 1])))
    throw std::invalid_argument("expected K/N, 1 <= K <= N <= 1000000");
  return {static_cast<unsigned>(k - 1), static_cast<unsigned>(n)};
}

BitRange shard_part(const BitRange& total, Shard s) {
  const std::uint64_t blocks = (total.hi - total.lo + kBlock - 1) / kBlock;
  const std::uint64_t b0 = blocks * s.k / s.n, b1 = blocks * (s.k + 1) / s.n;
  return {std::min(total.hi, total.lo + b0 * kBlock), std::min(total.hi, total.lo + b1 * kBlock)};
}

void ExactSum::add(double v) {
  if (!(v > 0)) return;  // zero adds nothing; errors are never negative
  if (std::isinf(v)) {
    inf_ = true;
    return;
  }
  int e = 0;
  const double m = std::frexp(v, &e);  // v = m·2^e, m in [0.5, 1)
  auto mant = static_cast<std::uint64_t>(std::ldexp(m, 53));  // exact: v = mant·2^(e-53)
  long p = static_cast<long>(e) - 53 + 1074;  // the bit of limb_ holding mant's lowest bit
  while (p < 0) {  // a subnormal: its low bits are zeros (v is a multiple of 2^-1074)
    mant >>= 1;
    ++p;
  }
  const auto i = static_cast<std::size_t>(p / 64);
  const auto sh = static_cast<unsigned>(p % 64);
  std::uint64_t parts[2] = {mant << sh, sh ? mant >> (64 - sh) : 0};
  for (std::size_t k = 0; k < 2; ++k) {
    std::uint64_t carry = parts[k];
    for (std::size_t j = i + k; carry != 0 && j < kLimbs; ++j) {
      limb_[j] += carry;
      carry = limb_[j] < carry ? 1 : 0;
    }
  }
}

void ExactSum::add(const ExactSum& o) {
  inf_ |= o.inf_;
  std::uint64_t carry = 0;
  for (std::size_t j = 0; j < kLimbs; ++j) {
    const std::uint64_t s = limb_[j] + o.limb_[j];
    const std::uint64_t c1 = s < limb_[j] ? 1 : 0;
    limb_[j] = s + carry;
    carry = c1 + (limb_[j] < s ? 1 : 0);
  }
}

double ExactSum::value() const {
  if (inf_) return HUGE_VAL;
  std::size_t top = kLimbs;
  while (top > 0 && limb_[top - 1] == 0) --top;
  double v = 0;
  for (std::size_t j = top; j > 0 && j + 3 > top; --j)
    v += std::ldexp(static_cast<double>(limb_[j - 1]), static_cast<int>(64 * (j - 1)) - 1074);
  return v;
}

nlohmann::ordered_json ExactSum::to_json() const {
  json limbs = json::array();
  for (std::size_t j = 0; j < kLimbs; ++j)
    if (limb_[j]) {
      char buf[24];
      std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(limb_[j]));
      limbs.push_back({j, buf});
    }
  return {{"inf", inf_}, {"limbs", limbs}};
}

ExactSum ExactSum::from_json(const nlohmann::ordered_json& j) {
  ExactSum s;
  s.inf_ = j.at("inf").get<bool>();
  for (const json& l : j.at("limbs")) {
    const auto k = l.at(0).get<std::size_t>();
    if (k >= kLimbs) throw std::invalid_argument("limb out of range");
    s.limb_[k] = std::stoull(l.at(1).get<std::string>(), nullptr, 16);
  }
  return s;
}

nlohmann::ordered_json to_json(const Sweep& s) {
  json fns = json::array();
  for (const FunctionSweep& f : s.fns) {
    json sums = json::array(), sq = json::array(), failures = json::array();
    for (const ExactSum& e : f.ulp_sum) sums.push_back(e.to_json());
    for (const ExactSum& e : f.ulp_sq_sum) sq.push_back(e.to_json());
    for (const Failure& x : f.failures)
      failures.push_back({hex32(x.bits), hx(x.got), hx(x.expected), hx(x.ulp), x.zero_sign});
    fns.push_back({{"function", subject::function_name(f.fn)}, {"provided", f.provided},
                   {"answered", f.answered}, {"why", f.why}, {"row", row_state(f.row)},
                   {"ulp_sum", sums}, {"ulp_sq_sum", sq}, {"failing", f.failing},
                   {"failures", failures}, {"observations", observation_state(f.row, f.fact_ends)}});
  }
  json findings = json::array();
  for (const subject::Finding& f : s.subject.findings)
    findings.push_back({{"op", subject::op_name(f.op)}, {"kind", subject::kind_name(f.status.kind)},
                        {"message", f.status.message}, {"x", hx(f.x)}, {"dy", ohx(f.dy)},
                        {"index", f.index}});
  json done = json::array();
  for (const BitRange& d : s.done) done.push_back(range_json(d));
  const SubjectResult& sr = s.subject;
  // The claims' texts as the run gave them ("framework default: ..."), which the items alone do
  // not carry.
  json texts = json::object();
  for (const subject::Function& fn : subject::all_functions)
    for (Format fmt : all_formats)
      texts[subject::function_name(fn) + "@" + std::string(subject::dtype_name(fmt))] =
          sr.claims.get(fn, fmt).text;
  return {{"schema", kShardSchema},
          {"identity", {{"spec", s.id.spec}, {"description", s.id.description},
                        {"reference", s.id.reference}, {"functions", s.id.functions},
                        {"claims", s.id.claims}, {"range", range_json(s.id.total)},
                        {"failure_cap", s.id.cap}}},
          {"part", range_json(s.part)},
          {"done", done},
          {"subject", {{"provides", sr.provides}, {"strided", sr.strided}, {"claim_texts", texts},
                       {"fresh_evaluations", sr.fresh_evaluations},
                       {"claims_source", sr.claims_source}, {"gated", sr.gated},
                       {"failed_results", sr.failed_results}, {"findings", findings}}},
          {"command", s.command},
          {"claim_args", s.claim_args},
          {"inputs", s.inputs},
          {"reference_fast", s.reference_fast},
          {"reference_fallback", s.reference_fallback},
          {"seconds", s.seconds},
          {"functions", fns}};
}

Sweep from_json(const nlohmann::ordered_json& j) {
  try {
    if (j.at("schema") != kShardSchema)
      throw std::invalid_argument("schema " + j.at("schema").dump() + ", not " + kShardSchema);
    const json& ij = j.at("identity");
    Identity id;
    id.spec = ij.at("spec").get<std::string>();
    id.description = ij.at("description").get<std::string>();
    id.reference = ij.at("reference").get<std::string>();
    id.functions = ij.at("functions").get<std::vector<std::string>>();
    id.claims = ij.at("claims").get<std::vector<std::string>>();
    id.total = range_from(ij.at("range"));
    id.cap = ij.at("failure_cap").get<std::size_t>();
    for (const std::string& f : id.functions)
      if (!subject::parse_function(f)) throw std::invalid_argument("unknown function " + f);
    const json& sj = j.at("subject");
    SubjectResult sr;
    sr.spec = id.spec;
    sr.description = id.description;
    sr.provides = sj.at("provides").get<std::vector<std::string>>();
    sr.strided = sj.at("strided").get<bool>();
    sr.fresh_evaluations = sj.at("fresh_evaluations").get<bool>();
    sr.claims_source = sj.at("claims_source").get<std::string>();
    for (const std::string& c : id.claims) sr.claims.apply(c);
    for (const subject::Function& fn : subject::all_functions)
      for (Format fmt : all_formats) {
        Claim c = sr.claims.get(fn, fmt);
        c.text = sj.at("claim_texts")
                     .at(subject::function_name(fn) + "@" + std::string(subject::dtype_name(fmt)))
                     .get<std::string>();
        sr.claims.set(fn, fmt, c);
      }
    sr.gated = sj.at("gated").get<bool>();
    sr.failed_results = sj.at("failed_results").get<std::size_t>();
    for (const json& f : sj.at("findings")) {
      subject::Finding fd;
      const auto op = subject::parse_op(f.at("op").get<std::string>());
      const auto kind = parse_kind(f.at("kind").get<std::string>());
      if (!op || !kind) throw std::invalid_argument("bad finding " + f.dump());
      fd.op = *op;
      fd.status = subject::Status::make(*kind, f.at("message").get<std::string>());
      fd.x = rd(f.at("x"));
      fd.dy = ord(f.at("dy"));
      fd.index = f.at("index").get<std::size_t>();
      sr.findings.push_back(std::move(fd));
    }
    Sweep s = blank(id, sr, nullptr, range_from(j.at("part")));
    for (const json& d : j.at("done")) add_done(s.done, range_from(d));
    s.command = j.at("command").get<std::string>();
    s.claim_args = j.at("claim_args").get<std::vector<std::string>>();
    s.inputs = j.at("inputs").get<std::uint64_t>();
    s.reference_fast = j.at("reference_fast").get<std::uint64_t>();
    s.reference_fallback = j.at("reference_fallback").get<std::uint64_t>();
    s.seconds = j.at("seconds").get<double>();
    const json& fns = j.at("functions");
    if (fns.size() != s.fns.size()) throw std::invalid_argument("wrong number of functions");
    for (std::size_t i = 0; i < fns.size(); ++i) {
      FunctionSweep& f = s.fns[i];
      const json& fj = fns[i];
      if (fj.at("function") != subject::function_name(f.fn))
        throw std::invalid_argument("functions out of order");
      f.provided = fj.at("provided").get<bool>();
      f.answered = fj.at("answered").get<bool>();
      f.why = fj.at("why").get<std::string>();
      row_from(f.row, fj.at("row"));
      for (std::size_t r = 0; r < f.ulp_sum.size(); ++r) {
        f.ulp_sum[r] = ExactSum::from_json(fj.at("ulp_sum").at(r));
        f.ulp_sq_sum[r] = ExactSum::from_json(fj.at("ulp_sq_sum").at(r));
      }
      if (fj.contains("observations")) observation_state_from(fj.at("observations"), f.row, f.fact_ends);
      f.failing = fj.at("failing").get<std::vector<std::uint64_t>>();
      if (f.failing.size() != std::size(kRegions)) throw std::invalid_argument("wrong regions");
      for (const json& x : fj.at("failures")) {
        const BitRange b = parse_range(x.at(0).get<std::string>() + ":0x100000000");
        f.failures.push_back({static_cast<std::uint32_t>(b.lo), rd(x.at(1)), rd(x.at(2)),
                              rd(x.at(3)), x.at(4).get<bool>()});
      }
    }
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("malformed: ") + e.what());
  }
}

Sweep merge(std::vector<Sweep> parts) {
  if (parts.empty()) throw std::invalid_argument("nothing to merge");
  std::sort(parts.begin(), parts.end(),
            [](const Sweep& a, const Sweep& b) { return a.part.lo < b.part.lo; });
  Sweep acc = std::move(parts.front());
  for (std::size_t i = 1; i < parts.size(); ++i) {
    if (!(parts[i].id == acc.id))
      throw std::invalid_argument("the parts are of different sweeps (subject, functions, claims, "
                                  "range, reference or failure cap differ)");
    if (parts[i].part.lo < acc.part.hi)
      throw std::invalid_argument("the parts overlap: " + range_text(parts[i].part) + " begins before " +
                                  hex32(acc.part.hi));
    acc.part.hi = parts[i].part.hi;
    absorb(acc, std::move(parts[i]));
  }
  return acc;
}

std::string missing(const Sweep& s) {
  std::uint64_t at = s.id.total.lo;
  for (const BitRange& d : s.done) {
    if (d.lo > at) return "bit patterns " + range_text({at, d.lo}) + " are missing";
    at = std::max(at, d.hi);
  }
  if (at < s.id.total.hi) return "bit patterns " + range_text({at, s.id.total.hi}) + " are missing";
  return "";
}

Sweep run(const SweepOptions& o, std::uint64_t* resumed) {
  if (o.report.subjects.size() != 1) throw std::logic_error("exhaustive::run: one subject");
#ifdef __GLIBC__
  // Each block allocates and frees buffers of a few MiB per thread; glibc's default trimming
  // handed that memory back to the kernel after every block (madvise) and faulted it in again,
  // about 12 % of a four-function sweep's CPU time spent in the kernel. Keep it (the sweep's
  // peak is tens of MiB).
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
#endif
  const std::string& spec = o.report.subjects.front();
  subject::OpenOptions oo;
  oo.call_timeout_seconds = o.report.call_timeout_seconds;
  std::unique_ptr<subject::Subject> first = subject::open(spec, oo);
  const subject::Capabilities caps = first->capabilities();
  if (!caps.fresh_evaluations)
    throw subject::SpecError(subject::SpecError::Kind::usage,
                             spec + ": saved arrays answer only the inputs they hold; --exhaustive "
                                    "needs a subject that evaluates any input");
  SubjectResult sr = describe_subject(*first, spec, o.report);
  Identity id;
  id.spec = spec;
  id.description = sr.description;
  id.reference = kReferenceName;
  for (const subject::Function& f : o.report.functions) id.functions.push_back(subject::function_name(f));
  id.claims = sr.claims.items();
  id.total = o.range;
  id.cap = o.cap;
  const BitRange part = shard_part(o.range, o.shard);
  Sweep acc = blank(id, sr, &caps, part);
  acc.command = o.report.command;
  acc.claim_args = o.report.claims;

  if (!o.checkpoint.empty()) {
    std::ifstream f(o.checkpoint, std::ios::binary);
    if (f) {
      json j;
      try {
        j = json::parse(f);
      } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument("the checkpoint " + o.checkpoint + " cannot be read: " + e.what());
      }
      Sweep cp = from_json(j);
      if (!(cp.id == id) || !(cp.part == part))
        throw std::invalid_argument("the checkpoint " + o.checkpoint +
                                    " is of another sweep (subject, functions, claims, range, "
                                    "shard or reference differ); remove it to start afresh");
      acc = std::move(cp);
      acc.subject.description = sr.description;
      if (resumed) *resumed = acc.inputs;
    }
  }

  // The blocks still to do, in sweep order.
  std::vector<BitRange> todo;
  for (std::uint64_t b = part.lo; b < part.hi; b += kBlock) {
    const BitRange blk{b, std::min(part.hi, b + kBlock)};
    bool done = false;
    for (const BitRange& d : acc.done) done |= d.lo <= blk.lo && blk.hi <= d.hi;
    if (!done) todo.push_back(blk);
  }
  const std::uint64_t total_inputs = count_inputs(part);
  const Sweep empty = blank(id, sr, &caps, part);

  std::mutex mu;  // guards acc
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};  // a worker failed: the others take no new block
  const unsigned nthreads =
      static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(o.report.threads, todo.size())));
  // Each worker measures through a subject of its own (the first one's is already open).
  auto worker = [&](unsigned t) {
    try {
      std::unique_ptr<subject::Subject> sub = t == 0 ? std::move(first) : subject::open(spec, oo);
      for (;;) {
        if (stop) break;
        const std::size_t k = next.fetch_add(1);
        if (k >= todo.size()) break;
        Sweep b = empty;
        sweep_block(*sub, todo[k], b);
        std::lock_guard lock(mu);
        absorb(acc, std::move(b));
      }
    } catch (...) {
      stop = true;
      throw;  // run_workers rethrows the first
    }
  };
  Progress progress;
  progress.enabled = o.report.progress;
  auto last_checkpoint = std::chrono::steady_clock::now();
  const std::string what = "exhaustive binary32 " + range_text(part);
  // While the workers sweep: the progress line, and the checkpoint every checkpoint_seconds.
  auto tick = [&] {
    std::uint64_t done_inputs = 0;
    std::string state;
    bool some_done = false;
    const bool due = !o.checkpoint.empty() &&
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - last_checkpoint)
                             .count() >= o.checkpoint_seconds;
    {
      std::lock_guard lock(mu);
      done_inputs = acc.inputs;
      if (due && !stop) state = to_json(acc).dump() + "\n";
      some_done = !acc.done.empty();
    }
    if (!state.empty()) {
      write_atomically(o.checkpoint, state);
      last_checkpoint = std::chrono::steady_clock::now();
      // The tests' interruption point: a checkpoint with some blocks in it is on disk.
      if (some_done) cleanup::test_stall("exhaustive-checkpoint");
    }
    progress.show(what.c_str(), static_cast<std::size_t>(done_inputs), static_cast<std::size_t>(total_inputs));
  };
  run_workers(nthreads, worker, tick, std::chrono::milliseconds(200));
  tick();
  return acc;
}

Report to_report(const Sweep& s, const Options& opt) {
  Report r;
  r.options = opt;
  r.options.formats = {kFmt};
  r.options.properties = false;
  r.options.plots = false;
  r.started_utc = utc_now();
  SubjectResult sr = s.subject;
  sr.properties.status = "skipped";
  sr.properties.reason = "check --exhaustive runs the sweep only (check without --exhaustive runs "
                         "the property suite)";
  json fns = json::array();
  for (const FunctionSweep& f : s.fns) {
    const subject::Op op{f.fn.form, f.fn.quantity == Quantity::value ? subject::Direction::forward
                                                                     : subject::Direction::backward,
                         kFmt};
    if (!f.provided) {
      sr.not_measured.push_back(subject::op_name(op) + ": the subject does not provide " +
                                subject::op_name(op));
      continue;
    }
    if (!f.answered) {
      sr.not_measured.push_back(subject::op_name(op) + ": " +
                                (f.why.empty() ? "no result for any input" : f.why));
      continue;
    }
    Row row = f.row;
    for (std::size_t i = 0; i < row.regions.size(); ++i) {
      Stats& st = row.regions[i];
      st.mean_ulp = f.ulp_sum[i].value();
      st.rms_ulp = f.ulp_sq_sum[i].value();
      stats_finish(st);
      if (st.worst_x) st.worst_expected = ref::correctly_rounded(row.form, row.quantity, *st.worst_x, kFmt);
    }
    row.meets_claim = row.claim_breaks == 0 &&
                      (!row.claim || !row.claim->claims_anything() || row.no_result == 0);
    json by_region = json::object(), failures = json::array();
    for (std::size_t i = 0; i < std::size(kRegions); ++i) by_region[region_key(kRegions[i])] = f.failing[i];
    for (const Failure& x : f.failures) {
      const double xv = from_bits(x.bits, kFmt);
      failures.push_back({{"x", hexfloat(xv)}, {"bits", hex32(x.bits)},
                          {"region", region_name(regions_of(xv, kFmt).front())},
                          {"expected", hexfloat(x.expected)}, {"got", hexfloat(x.got)},
                          {"ulp", x.ulp}, {"zero_sign_mismatch", x.zero_sign}});
    }
    const std::uint64_t failing = f.failing[static_cast<std::size_t>(Region::overall)];
    fns.push_back({{"function", subject::function_name(f.fn)},
                   {"claim", row.claim && row.claim->claims_anything() ? json(row.claim->text) : json("none")},
                   {"inputs", row.regions[static_cast<std::size_t>(Region::overall)].count},
                   {"failing", failing},
                   {"failing_by_region", by_region},
                   {"failures", failures},
                   {"failures_truncated", failing > f.failures.size()}});
    r.rows.push_back(std::move(row));
  }
  r.subjects = {sr};
  r.inputs32.total = static_cast<std::size_t>(s.inputs);
  r.seconds_campaign = s.seconds;
  r.exhaustive = {{"format", "binary32"},
                  {"range", {{"lo", hex32(s.id.total.lo)}, {"hi", hex32(s.id.total.hi)}}},
                  {"all_of_binary32", s.id.total == BitRange{}},
                  {"inputs", s.inputs},
                  {"nan_patterns_skipped", (s.id.total.hi - s.id.total.lo) - s.inputs},
                  {"reference", s.id.reference},
                  {"reference_fast", s.reference_fast},
                  {"reference_fallback", s.reference_fallback},
                  {"failure_cap", s.id.cap},
                  {"functions", fns}};
  finish(r);
  return r;
}

namespace testing {
ScopedScalarFold::ScopedScalarFold() : saved_(g_scalar_fold.exchange(true)) {}
ScopedScalarFold::~ScopedScalarFold() { g_scalar_fold.store(saved_); }
}  // namespace testing

}  // namespace gelucheck::report::exhaustive
