// Batched, guarded evaluation of a subject (harness.hpp).
#include "gelucheck/harness.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gelucheck::subject {
namespace {

struct Job {
  Subject& s;
  Op op;
  const HarnessOptions& o;
  std::span<const double> xs, dys;  // dys empty for a forward
  Evaluation& ev;
  bool wrote_input_found = false;
};

// One call on [b, e) with private copies of the inputs; the inputs' bits are compared after.
Status one_call(Job& j, std::size_t b, std::size_t e, std::vector<double>& out,
                std::size_t* changed) {
  const Format fmt = j.op.format;
  const std::size_t n = e - b, w = element_size(fmt);
  const std::vector<unsigned char> x = encode(fmt, j.xs.subspan(b, n));
  const std::vector<unsigned char> dy =
      j.dys.empty() ? std::vector<unsigned char>() : encode(fmt, j.dys.subspan(b, n));
  std::vector<unsigned char> xcopy = x, dycopy = dy;
  // The output starts as a pattern no GELU returns for every element (all-ones bytes: NaNs
  // with full payloads), so a subject that writes nothing is not mistaken for one that did.
  std::vector<unsigned char> y(n * w, 0xff);
  Call c{j.op, xcopy.data(), dy.empty() ? nullptr : dycopy.data(), y.data(), n, j.o.stride};
  Status st;
  try {
    st = j.s.call(c);
  } catch (const std::exception& ex) {
    st = Status::make(Status::Kind::failed, std::string("threw: ") + ex.what());
  }
  if (st.ok() && (xcopy != x || dycopy != dy)) {
    // Name the first element changed, for the reader.
    std::size_t k = 0;
    const bool in_x = xcopy != x;
    const std::vector<unsigned char>& a = in_x ? x : dy;
    const std::vector<unsigned char>& bb = in_x ? xcopy : dycopy;
    while (k < n && std::memcmp(a.data() + k * w, bb.data() + k * w, w) == 0) ++k;
    st = Status::make(Status::Kind::wrote_input,
                      std::string("changed ") + (in_x ? "x" : "dy") + " (element " +
                          std::to_string(k) + " of a call of " + std::to_string(n) + ")");
    *changed = b + k;
  }
  // Results of a call that wrote into its inputs are still its results: they are measured, and
  // the write is one finding.
  if (st.ok() || st.kind == Status::Kind::wrote_input) out = decode(fmt, y.data(), n);
  return st;
}

void mark_failed(Job& j, std::size_t b, std::size_t e) {
  for (std::size_t i = b; i < e; ++i) {
    if (!j.ev.failed[i]) ++j.ev.failed_count;
    j.ev.failed[i] = true;
    j.ev.y[i] = NAN;
  }
}

void add_finding(Job& j, std::size_t i, const Status& st) {
  Finding f{j.op, st, j.xs[i], std::nullopt, i};
  if (!j.dys.empty()) f.dy = j.dys[i];
  j.ev.findings.push_back(std::move(f));
}

// Evaluates [b, e); on failure bisects while the finding budget lasts.
void run(Job& j, std::size_t b, std::size_t e) {
  if (b >= e) return;
  std::vector<double> out;
  std::size_t changed = b;
  const Status st = one_call(j, b, e, out, &changed);
  if (st.ok() || st.kind == Status::Kind::wrote_input) {
    for (std::size_t i = b; i < e; ++i) j.ev.y[i] = out[i - b];
    if (st.kind == Status::Kind::wrote_input && !j.wrote_input_found) {
      j.wrote_input_found = true;  // once per evaluation: it is one misbehaviour
      add_finding(j, changed, st);
    }
    return;
  }
  if (st.kind == Status::Kind::unavailable) {
    // Not a misbehaviour: the subject cannot answer these inputs (saved arrays without them).
    mark_failed(j, b, e);
    if (j.ev.unavailable_why.empty()) j.ev.unavailable_why = st.message;
    return;
  }
  if (e - b == 1) {
    if (j.ev.findings.size() < j.o.max_findings) add_finding(j, b, st);
    mark_failed(j, b, e);
    return;
  }
  if (j.ev.findings.size() >= j.o.max_findings) {  // budget spent: counted, not bisected
    mark_failed(j, b, e);
    return;
  }
  const std::size_t mid = b + (e - b) / 2;
  const std::size_t before = j.ev.findings.size();
  run(j, b, mid);
  run(j, mid, e);
  // Both halves passed alone: the failure needs the whole batch (a length- or state-dependent
  // bug). Record it against the batch's first element, and keep the halves' results.
  if (j.ev.findings.size() == before && st.kind != Status::Kind::unavailable) {
    Finding f{j.op, st, j.xs[b], std::nullopt, b};
    f.status.message += " (only in a call of " + std::to_string(e - b) +
                        " elements from this one; each half alone passed)";
    if (!j.dys.empty()) f.dy = j.dys[b];
    j.ev.findings.push_back(std::move(f));
  }
}

Evaluation go(Subject& s, const Op& op, std::span<const double> xs, std::span<const double> dys,
              const HarnessOptions& o) {
  Evaluation ev;
  ev.y.assign(xs.size(), NAN);
  ev.failed.assign(xs.size(), false);
  if (!s.capabilities().provides(op)) {
    ev.unavailable = true;
    ev.unavailable_why = "the subject does not provide " + op_name(op);
    ev.failed.assign(xs.size(), true);
    ev.failed_count = xs.size();
    return ev;
  }
  Job j{s, op, o, xs, dys, ev};
  const std::size_t batch = std::max<std::size_t>(o.batch, 1);
  for (std::size_t b = 0; b < xs.size(); b += batch) run(j, b, std::min(xs.size(), b + batch));
  if (ev.failed_count == xs.size() && !xs.empty() && ev.findings.empty()) ev.unavailable = true;
  return ev;
}

}  // namespace

Evaluation forward(Subject& s, Form form, Format fmt, std::span<const double> xs,
                   const HarnessOptions& o) {
  return go(s, Op{form, Direction::forward, fmt}, xs, {}, o);
}

Evaluation backward(Subject& s, Form form, Format fmt, std::span<const double> xs,
                    std::span<const double> dys, const HarnessOptions& o) {
  if (dys.size() != xs.size()) throw std::invalid_argument("backward: x and dy sizes differ");
  return go(s, Op{form, Direction::backward, fmt}, xs, dys, o);
}

Evaluation evaluate(Subject& s, Function f, Format fmt, std::span<const double> xs,
                    const HarnessOptions& o) {
  if (f.quantity == Quantity::value) return forward(s, f.form, fmt, xs, o);
  const std::vector<double> ones(xs.size(), 1.0);
  return backward(s, f.form, fmt, xs, ones, o);
}

std::string describe(const Finding& f) {
  std::string s = op_name(f.op) + " " + std::string(kind_name(f.status.kind));
  if (!f.status.message.empty()) s += " (" + f.status.message + ")";
  s += " at x = " + hexfloat(f.x);
  if (f.dy) s += ", dy = " + hexfloat(*f.dy);
  return s;
}

}  // namespace gelucheck::subject
