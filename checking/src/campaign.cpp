// The campaign: every subject's functions in each format measured against the reference at the
// inputs of inputs.cpp, summarised per region.
//
// Cost: the reference dominates in binary64 (MPFR's erfc is 30 µs–0.5 ms a call), so each
// reference value is computed once per (input, form, quantity) and serves every subject, and, for
// the erf form, also the tanh form's "against the exact GELU" rows. In the other formats it is
// the fast reference, at 6–45 ns a result (docs/benchmarks.md). Points are shared out to threads
// in chunks; each point's results go to their own slots, and the summaries are then computed in
// input order, so the numbers do not depend on the number of threads.
#include <algorithm>
#include <optional>
#include <span>
#include <string>

#include "gelucheck/measure.hpp"
#include "gelucheck/reference.hpp"
#include "gelucheck/report.hpp"
#include "facts.hpp"
#include "fold.hpp"
#include "internal.hpp"

namespace gelucheck::report {

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

// One measured row: a subject's function in this format, against its own form's exact value, or
// (the tanh form) against the exact GELU.
struct RowSpec {
  std::size_t subject;
  subject::Function fn;
  Form against;
  std::size_t eval;  // which of the chunk's evaluations (one per subject and function) it reads
};

}  // namespace

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
      const subject::Op op = subject::op_of(f, fmt);
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
  // The reference: in binary32 and the 16-bit formats the fast one (ref::round_batch: a vector
  // double-double evaluation with a proven error bound, the MPFR path where its rounding test
  // cannot decide), at least 150 times cheaper than an enclosure (docs/benchmarks.md, "The fast
  // reference") and bit-identical in the rounded values, so every classification, count,
  // expected value and correctly rounded or faithful verdict is the same; its ulp/abs/rel figures
  // agree with the enclosure's to ~1e-9 relative, or to its resolution, 2^-70·|y| (measure.hpp;
  // docs/report.md, "The reference's resolution"). In binary64 the MPFR enclosure (there is no
  // fast path for it).
  const bool fast = fmt != Format::binary64;
  std::vector<ref::Rounded> rounded[2][2];  // [form][quantity], the chunk's inputs
  if (fast)
    for (int f = 0; f < 2; ++f)
      for (int q = 0; q < 2; ++q)
        if (need[f][q]) rounded[f][q].resize(chunk);
  const std::string what = "campaign " + std::string(name(fmt));
  std::vector<Facts> facts(rows.begin(), rows.end());  // the facts over every result (facts.hpp)
  for (std::size_t base = 0; base < n; base += chunk) {
    const std::size_t cn = std::min(chunk, n - base);
    const std::span<const double> cx(xs.data() + base, cn);
    for (std::size_t j = 0; j < evals.size(); ++j) {
      Eval& e = evals[j];
      ev[j] = subject::evaluate(*subs[e.subject], e.fn, fmt, cx);
      // One misbehaviour, one finding: the same one in a later chunk adds its counts to it.
      for (subject::Finding& fd : ev[j].findings) {
        fd.index += base;
        subject::merge(results[e.subject].findings, std::move(fd));
      }
      results[e.subject].failed_results += ev[j].unavailable ? 0 : ev[j].failed_count;
      e.answered |= !ev[j].unavailable;
      if (ev[j].unavailable && e.why.empty()) e.why = ev[j].unavailable_why;
    }
    if (fast) {
      // The fast reference a block of inputs at a time (its vector passes need several inputs);
      // a few milliseconds a chunk, so no progress line of its own.
      constexpr std::size_t kBlock = 1024;
      parallel_for((cn + kBlock - 1) / kBlock, opt.threads, Progress{}, what.c_str(), [&](std::size_t b) {
        const std::size_t lo = b * kBlock, len = std::min(kBlock, cn - lo);
        for (Form f : {Form::tanh, Form::erf})
          for (Quantity q : {Quantity::value, Quantity::derivative})
            if (need[static_cast<int>(f)][static_cast<int>(q)])
              ref::round_batch(f, q, fmt, cx.subspan(lo, len),
                               std::span(rounded[static_cast<int>(f)][static_cast<int>(q)]).subspan(lo, len));
      });
    }
    parallel_for(cn, opt.threads, progress, what.c_str(), [&](std::size_t c) {
      const double x = cx[c];
      for (Quantity q : {Quantity::value, Quantity::derivative}) {
        std::optional<ref::Enclosure> exact[2];
        if (!fast)
          for (Form f : {Form::tanh, Form::erf})
            if (need[static_cast<int>(f)][static_cast<int>(q)]) exact[static_cast<int>(f)] = ref::enclose(f, q, x, 128);
        for (std::size_t k = 0; k < m; ++k) {
          const RowSpec& sp = specs[k];
          if (sp.fn.quantity != q || ev[sp.eval].failed[c]) continue;
          const double r = ev[sp.eval].y[c];
          // The same three facts from either reference (measure.hpp, fold.hpp).
          auto put = [&](const auto& y, double rounded_y) {
            err[c * m + k] = measure(r, y, fmt);
            expected[c * m + k] = rounded_y;
            flags[c * m + k] = measure_flags(r, err[c * m + k], y, fmt);
          };
          if (fast) {
            const ref::Rounded& y = rounded[static_cast<int>(sp.against)][static_cast<int>(q)][c];
            put(y, y.rn);
          } else {
            const ref::Enclosure& y = *exact[static_cast<int>(sp.against)];
            put(y, y.rounded(fmt));
          }
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
        facts[k].point(rows[k], cx[c], e.y[c], expected[c * m + k]);
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

}  // namespace gelucheck::report
