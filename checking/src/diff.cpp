// `gelucheck diff`: two subjects bit by bit over the same inputs, the reference at every input
// where they differ (gelucheck/diff.hpp, docs/cli.md "Differential testing").
#include "gelucheck/diff.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <span>

#include "internal.hpp"

namespace gelucheck::report::diff {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::correctly_rounded: return "correctly rounded";
    case Verdict::faithful: return "faithful";
    case Verdict::neither: return "neither";
  }
  return "?";
}

std::uint64_t Comparison::disagreements() const {
  std::uint64_t n = 0;
  for (const OpDiff& d : ops) n += d.disagreements + d.only_a + d.only_b;
  return n;
}

namespace {

using json = nlohmann::ordered_json;
using subject::Evaluation;
using subject::Function;

using subject::op_of;

Verdict verdict_of(const Error& e) {
  if (meets(Claim::correctly_rounded(), e)) return Verdict::correctly_rounded;
  if (meets(Claim::faithful(), e)) return Verdict::faithful;
  return Verdict::neither;
}

// The run of disagreements being extended, across the sweep's blocks.
struct RunState {
  bool open = false;
  Run cur;
};

void close_run(OpDiff& d, RunState& rs) {
  if (!rs.open) return;
  ++d.run_count;
  if (d.runs.size() < kRunsKept) d.runs.push_back(rs.cur);
  if (!d.longest || rs.cur.count > d.longest->count) d.longest = rs.cur;
  rs.open = false;
}

// Folds one evaluation of both sides at xs (in evaluation order) into d. `order` is the order in
// which consecutive inputs make runs (by value for the sample; the identity for the sweep, whose
// blocks are in bit-pattern order); `offset` numbers xs[0] among all inputs of the op.
void fold(OpDiff& d, RunState& rs, std::span<const double> xs, const Evaluation& ea,
          const Evaluation& eb, std::span<const std::size_t> order, std::uint64_t offset,
          const Options& opt) {
  const Format fmt = d.format;
  std::vector<std::size_t> differ;
  std::vector<char> disagree(xs.size(), 0), compared(xs.size(), 0);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const bool fa = ea.failed[i], fb = eb.failed[i];
    if (fa && fb) continue;
    if (fa || fb) {
      ++(fa ? d.only_b : d.only_a);
      continue;
    }
    compared[i] = 1;
    ++d.both;
    if (!same_bits(ea.y[i], eb.y[i])) {
      disagree[i] = 1;
      differ.push_back(i);
    }
  }
  d.inputs += xs.size();
  d.disagreements += differ.size();

  // The reference at the disagreements only: what agrees needs no judge.
  std::vector<double> dx(differ.size());
  for (std::size_t k = 0; k < differ.size(); ++k) dx[k] = xs[differ[k]];
  std::vector<ref::Rounded> want(differ.size());
  constexpr std::size_t kChunk = 1024;
  const std::size_t chunks = (differ.size() + kChunk - 1) / kChunk;
  parallel_for(chunks, opt.threads, Progress{}, "reference", [&](std::size_t c) {
    const std::size_t lo = c * kChunk, n = std::min(kChunk, differ.size() - lo);
    ref::round_batch(d.function.form, d.function.quantity, fmt,
                     std::span<const double>(dx).subspan(lo, n),
                     std::span<ref::Rounded>(want).subspan(lo, n));
  });
  for (std::size_t k = 0; k < differ.size(); ++k) {
    const std::size_t i = differ[k];
    Disagreement g;
    g.x = xs[i];
    g.expected = want[k].rn;
    const Error e_a = measure(ea.y[i], want[k], fmt), e_b = measure(eb.y[i], want[k], fmt);
    g.a = {ea.y[i], e_a.ulp, verdict_of(e_a)};
    g.b = {eb.y[i], e_b.ulp, verdict_of(e_b)};
    ++d.a_verdicts[static_cast<int>(g.a.verdict)];
    ++d.b_verdicts[static_cast<int>(g.b.verdict)];
    // The better verdict wins (a zero of the wrong sign is 0 ulp away but not correctly
    // rounded), then the smaller error; equal errors of equal verdict are a tie (both NaN).
    const int va = static_cast<int>(g.a.verdict), vb = static_cast<int>(g.b.verdict);
    if (va < vb || (va == vb && g.a.ulp < g.b.ulp))
      ++d.a_better;
    else if (vb < va || (va == vb && g.b.ulp < g.a.ulp))
      ++d.b_better;
    else
      ++d.tie;
    for (Region r : regions_of(g.x, fmt)) ++d.regions[static_cast<std::size_t>(r)];
    if (d.first.size() < kFirstKept) d.first.push_back(g);
  }

  for (const std::size_t i : order) {
    if (std::isnan(xs[i])) continue;
    if (!compared[i] || !disagree[i]) {
      close_run(d, rs);
      continue;
    }
    if (!rs.open) {
      rs.open = true;
      rs.cur = {xs[i], xs[i], 0};
    }
    rs.cur.last = xs[i];
    ++rs.cur.count;
  }

  for (subject::Finding f : ea.findings) {
    f.index += offset;
    subject::merge(d.findings_a, std::move(f));
  }
  for (subject::Finding f : eb.findings) {
    f.index += offset;
    subject::merge(d.findings_b, std::move(f));
  }
}

Evaluation eval(subject::Subject& s, Function fn, Format fmt, std::span<const double> xs) {
  return subject::evaluate(s, fn, fmt, xs);
}

// The campaign's inputs of fmt, each once (the sample can hold a value twice: a hard point on
// the grid), in campaign order.
std::vector<double> sample(Format fmt, const Options& opt) {
  std::vector<double> xs = inputs(fmt, opt.seed, opt.points, nullptr);
  std::vector<double> out;
  out.reserve(xs.size());
  std::vector<std::uint64_t> sorted;
  for (double x : xs) sorted.push_back(bits(x));
  std::sort(sorted.begin(), sorted.end());
  std::vector<char> taken(sorted.size(), 0);
  for (double x : xs) {
    const auto it = std::lower_bound(sorted.begin(), sorted.end(), bits(x));
    char& t = taken[static_cast<std::size_t>(it - sorted.begin())];
    if (t) continue;
    t = 1;
    out.push_back(x);
  }
  return out;
}

OpDiff compare_op(subject::Subject& a, subject::Subject& b, Function fn, Format fmt,
                  const Options& opt) {
  OpDiff d;
  d.function = fn;
  d.format = fmt;
  const subject::Op op = op_of(fn, fmt);
  const bool pa = a.capabilities().provides(op), pb = b.capabilities().provides(op);
  if (!pa || !pb) {
    d.why_not = !pa && !pb ? "neither provides it"
                : !pa      ? a.spec() + " does not provide it"
                           : b.spec() + " does not provide it";
    return d;
  }
  d.compared = true;
  RunState rs;
  if (opt.exhaustive && fmt == Format::binary32) {
    const exhaustive::BitRange& r = opt.range;
    std::vector<double> xs;
    std::vector<std::size_t> order;
    const auto start = std::chrono::steady_clock::now();
    for (std::uint64_t lo = r.lo; lo < r.hi; lo += exhaustive::kBlock) {
      const std::uint64_t hi = std::min(r.hi, lo + exhaustive::kBlock);
      xs.clear();
      for (std::uint64_t p = lo; p < hi; ++p) {
        const double x = from_bits(p, Format::binary32);
        if (!std::isnan(x)) xs.push_back(x);
      }
      order.resize(xs.size());
      std::iota(order.begin(), order.end(), std::size_t{0});
      const Evaluation ea = eval(a, fn, fmt, xs), eb = eval(b, fn, fmt, xs);
      fold(d, rs, xs, ea, eb, order, d.inputs, opt);
      if (opt.progress) {
        const double el =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::fprintf(stderr, "\r%s",
                     progress_line(subject::op_name(op).c_str(), static_cast<std::size_t>(hi - r.lo),
                                   static_cast<std::size_t>(r.hi - r.lo), el)
                         .c_str());
      }
    }
    if (opt.progress) std::fprintf(stderr, "\n");
  } else {
    const std::vector<double> xs = sample(fmt, opt);
    std::vector<std::size_t> order(xs.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t i, std::size_t j) { return xs[i] < xs[j]; });
    const Evaluation ea = eval(a, fn, fmt, xs), eb = eval(b, fn, fmt, xs);
    fold(d, rs, xs, ea, eb, order, 0, opt);
  }
  close_run(d, rs);
  return d;
}

subject::OpenOptions open_options(const Options& opt) {
  subject::OpenOptions o;
  o.call_timeout_seconds = opt.call_timeout_seconds;
  return o;
}

}  // namespace

Result run(const Options& opt) {
  Result r;
  r.options = opt;
  r.started_utc = utc_now();
  const auto t0 = std::chrono::steady_clock::now();
  // The comparisons of the sample run opt.threads at a time, each on one thread (`report`'s
  // variants: torch's one-element-per-call layout alone takes most of them); a sweep's run one
  // after the other, each with opt.threads for the reference and its progress line its own.
  // Each comparison writes only its own slot, so the result does not depend on the order.
  const bool together = !opt.exhaustive && opt.pairs.size() > 1;
  Options each = opt;
  if (together) each.threads = 1;
  r.comparisons.resize(opt.pairs.size());
  parallel_for(opt.pairs.size(), together ? opt.threads : 1, Progress{}, "comparison",
               [&](std::size_t i) {
    const auto& [sa, sb] = opt.pairs[i];
    std::unique_ptr<subject::Subject> a = subject::open(sa, open_options(each));
    std::unique_ptr<subject::Subject> b = subject::open(sb, open_options(each));
    Comparison& c = r.comparisons[i];
    c.a = sa;
    c.b = sb;
    c.a_description = a->describe();
    c.b_description = b->describe();
    for (Format fmt : opt.formats)
      for (Function fn : opt.functions) c.ops.push_back(compare_op(*a, *b, fn, fmt, each));
  });
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

// --- report.json ----------------------------------------------------------------------------

namespace {

json value(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

json ulp_json(double u) { return std::isfinite(u) ? json(u) : value(u); }

json verdicts_json(const std::uint64_t (&v)[3]) {
  return {{"correctly_rounded", v[0]}, {"faithful", v[1]}, {"neither", v[2]}};
}

json run_json(const Run& r) {
  return {{"first", hexfloat(r.first)}, {"last", hexfloat(r.last)}, {"count", r.count}};
}

json findings_json(const std::vector<subject::Finding>& fs) {
  json a = json::array();
  for (const subject::Finding& f : fs)
    a.push_back({{"kind", std::string(subject::kind_name(f.status.kind))},
                 {"x", hexfloat(f.x)},
                 {"inputs", f.inputs},
                 {"text", subject::describe(f)}});
  return a;
}

json op_json(const OpDiff& d) {
  json o;
  o["op"] = subject::op_name(op_of(d.function, d.format));
  o["function"] = subject::function_name(d.function);
  o["format"] = std::string(name(d.format));
  o["compared"] = d.compared;
  if (!d.compared) {
    o["why_not"] = d.why_not;
    return o;
  }
  o["inputs"] = d.inputs;
  o["both_answered"] = d.both;
  o["disagreements"] = d.disagreements;
  o["only_a"] = d.only_a;
  o["only_b"] = d.only_b;
  o["a"] = verdicts_json(d.a_verdicts);
  o["b"] = verdicts_json(d.b_verdicts);
  o["better"] = {{"a", d.a_better}, {"b", d.b_better}, {"tie", d.tie}};
  json regions = json::object();
  for (Region r : kRegions) regions[region_key(r)] = d.regions[static_cast<std::size_t>(r)];
  o["regions"] = regions;
  json runs = json::array();
  for (const Run& r : d.runs) runs.push_back(run_json(r));
  o["runs"] = {{"count", d.run_count},
               {"longest", d.longest ? run_json(*d.longest) : json(nullptr)},
               {"first", runs}};
  json first = json::array();
  for (const Disagreement& g : d.first)
    first.push_back({{"x", hexfloat(g.x)},
                     {"expected", hexfloat(g.expected)},
                     {"a", hexfloat(g.a.got)},
                     {"a_ulp", ulp_json(g.a.ulp)},
                     {"a_verdict", verdict_name(g.a.verdict)},
                     {"b", hexfloat(g.b.got)},
                     {"b_ulp", ulp_json(g.b.ulp)},
                     {"b_verdict", verdict_name(g.b.verdict)}});
  o["first"] = first;
  o["findings"] = {{"a", findings_json(d.findings_a)}, {"b", findings_json(d.findings_b)}};
  return o;
}

}  // namespace

json to_json(const Result& r) {
  json j;
  j["schema"] = kSchema;
  j["generator"] = {{"program", "gelucheck diff"}, {"version", r.provenance.version}};
  j["command"] = r.options.command;
  j["started_utc"] = r.started_utc;
  j["seconds"] = r.seconds;
  std::vector<std::string> specs;
  for (const auto& [a, b] : r.options.pairs) {
    if (std::find(specs.begin(), specs.end(), a) == specs.end()) specs.push_back(a);
    if (std::find(specs.begin(), specs.end(), b) == specs.end()) specs.push_back(b);
  }
  j["provenance"] = provenance_json(r.provenance, specs);
  json formats = json::array();
  for (Format f : r.options.formats) formats.push_back(std::string(name(f)));
  j["inputs"] = {{"seed", r.options.seed},
                 {"points", r.options.points},
                 {"formats", formats},
                 {"binary32", r.options.exhaustive ? "every bit pattern in range" : "sampled"},
                 {"range", r.options.exhaustive ? json(exhaustive::range_text(r.options.range))
                                                : json(nullptr)}};
  json cs = json::array();
  std::uint64_t total = 0;
  for (const Comparison& c : r.comparisons) {
    json ops = json::array();
    for (const OpDiff& d : c.ops) ops.push_back(op_json(d));
    total += c.disagreements();
    cs.push_back({{"a", {{"spec", c.a}, {"description", c.a_description}}},
                  {"b", {{"spec", c.b}, {"description", c.b_description}}},
                  {"identical", c.identical()},
                  {"disagreements", c.disagreements()},
                  {"ops", ops}});
  }
  j["comparisons"] = cs;
  j["identical"] = total == 0;
  return j;
}

}  // namespace gelucheck::report::diff
