// Batched, guarded evaluation of a subject (harness.hpp).
#include "gelucheck/harness.hpp"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>

#include "npy.hpp"

namespace gelucheck::subject {
namespace {

using Alone = Finding::Alone;
constexpr std::size_t kNone = static_cast<std::size_t>(-1);
// Inputs named in Finding::more_x after the first.
constexpr std::size_t kMoreInputs = 4;
// A timed-out batch is split in this many parts (a crashed one in two): each level of the
// bisection of a hang costs one deadline, so fewer, wider levels cost fewer deadlines.
constexpr std::size_t kHangParts = 8;

struct Job {
  Subject& s;
  bool in_process;  // Capabilities::in_process: only then can a call write into our buffers
  Op op;
  const HarnessOptions& o;
  std::span<const double> xs, dys;  // dys empty for a forward
  Evaluation& ev;
  std::size_t bisected = 0;  // inputs the bisection has ended at (the budget, max_findings)
  std::map<Status::Kind, std::size_t> calls;  // calls that ended with each kind
};

// One call on [b, e) with private copies of the inputs; the inputs' bits are compared after.
// Its results, when it has them, go to out[0, e - b) (null: not wanted).
Status one_call(Job& j, std::size_t b, std::size_t e, double* out, std::size_t* changed) {
  const Format fmt = j.op.format;
  const std::size_t n = e - b, w = element_size(fmt);
  const std::vector<unsigned char> x = encode(fmt, j.xs.subspan(b, n));
  const std::vector<unsigned char> dy =
      j.dys.empty() ? std::vector<unsigned char>() : encode(fmt, j.dys.subspan(b, n));
  // The subject's own copies of the inputs, compared with them after the call. A subject in
  // another process (lib:, cmd:) reads them from a pipe: its host compares its own copies and
  // says what changed (wrote_input), and nothing can write into ours.
  std::vector<unsigned char> xcopy, dycopy;
  if (j.in_process) {
    xcopy = x;
    dycopy = dy;
  }
  const unsigned char* cx = j.in_process ? xcopy.data() : x.data();
  const unsigned char* cdy = j.in_process ? dycopy.data() : dy.data();
  // In process, the output starts as a pattern no GELU returns for every element (all-ones bytes:
  // NaNs with full payloads), so a subject that writes nothing is not mistaken for one that did.
  // Another process's results come whole from its pipe (or the call fails), and its host starts
  // its own output so.
  const std::unique_ptr<unsigned char[]> y(new unsigned char[n * w]);
  if (j.in_process) std::memset(y.get(), 0xff, n * w);
  Call c{j.op, cx, dy.empty() ? nullptr : cdy, y.get(), n, j.o.stride};
  Status st;
  try {
    st = j.s.call(c);
  } catch (const std::exception& ex) {
    st = Status::make(Status::Kind::failed, std::string("threw: ") + ex.what());
  }
  if (st.ok() && j.in_process && (xcopy != x || dycopy != dy)) {
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
  } else if (st.kind == Status::Kind::wrote_input) {
    // The subject said so itself (its message names the element); the first element then.
    *changed = b;
  }
  // Results of a call that wrote into its inputs are still its results: they are measured, and
  // the write is one finding.
  if (out && (st.ok() || st.kind == Status::Kind::wrote_input)) decode_into(fmt, y.get(), n, out);
  return st;
}

bool failure(const Status& st) {
  return !st.ok() && st.kind != Status::Kind::unavailable && st.kind != Status::Kind::wrote_input;
}

void mark_failed(Job& j, std::size_t b, std::size_t e) {
  for (std::size_t i = b; i < e; ++i) {
    if (!j.ev.failed[i]) ++j.ev.failed_count;
    j.ev.failed[i] = true;
    j.ev.y[i] = NAN;
  }
}

// The finding of this misbehaviour (kind and confirmation) so far, or null.
Finding* same(Job& j, Status::Kind k, Alone a) {
  for (Finding& f : j.ev.findings)
    if (f.status.kind == k && f.alone == a) return &f;
  return nullptr;
}

Finding& add(Job& j, const Status& st, Alone a, std::size_t i) {
  Finding f;
  f.op = j.op;
  f.status = st;
  f.x = j.xs[i];
  f.index = i;
  if (!j.dys.empty()) f.dy = j.dys[i];
  f.alone = a;
  f.calls = 0;  // set from Job::calls at the end
  f.stderr_tail = st.stderr_tail;
  j.ev.findings.push_back(std::move(f));
  return j.ev.findings.back();
}

// Input i misbehaves (st): its finding, or one more input of the same misbehaviour's finding.
void found_at(Job& j, const Status& st, Alone a, std::size_t i, std::size_t without_result) {
  if (Finding* f = same(j, st.kind, a)) {
    if (f->more_x.size() < kMoreInputs) f->more_x.push_back(j.xs[i]);
    f->inputs += without_result;
    return;
  }
  add(j, st, a, i).inputs = without_result;
}

void keep_batch(Job& j, Finding& f, std::size_t b, std::size_t e, std::size_t position) {
  f.batch_x.assign(j.xs.begin() + static_cast<std::ptrdiff_t>(b),
                   j.xs.begin() + static_cast<std::ptrdiff_t>(e));
  if (!j.dys.empty())
    f.batch_dy.assign(j.dys.begin() + static_cast<std::ptrdiff_t>(b),
                      j.dys.begin() + static_cast<std::ptrdiff_t>(e));
  f.position = position;
}

// A needs_batch finding for [b, e): the batch kept, and replayed alone in a fresh instance to
// say whether it alone reproduces the misbehaviour (its results are not used: they are the parts').
void needs_batch(Job& j, const Status& st, std::size_t b, std::size_t e, std::size_t position) {
  j.s.fresh_start();
  std::size_t changed = b;
  const Status again = one_call(j, b, e, nullptr, &changed);
  const bool reproduces = failure(again);
  if (reproduces) ++j.calls[again.kind];
  // A call that timed out while each of its parts answered, and that answers when replayed
  // (under a deadline its parts have since recalibrated), was slow, not hung: no finding.
  if (st.kind == Status::Kind::timed_out && !reproduces) return;
  Finding& f = add(j, st, Alone::needs_batch, b);
  keep_batch(j, f, b, e, position);
  f.batch_reproduces = reproduces;
}

// The call [b, e) failed with st and is not bisected further (the budget is spent): its inputs
// have no result and count for the finding of that misbehaviour; a new one names no cause.
void unbisected(Job& j, std::size_t b, std::size_t e, const Status& st) {
  const std::size_t before = j.ev.failed_count;
  mark_failed(j, b, e);
  const std::size_t lost = j.ev.failed_count - before;
  for (Finding& f : j.ev.findings)
    if (f.status.kind == st.kind) {
      f.inputs += lost;
      return;
    }
  Finding& f = add(j, st, Alone::not_tried, b);
  f.inputs = lost;
  keep_batch(j, f, b, e, kNone);
}

// Replays input i alone, in a fresh instance of the subject where it has one. The answer's
// status; with `keep`, its result, when it has one, goes into the evaluation (an input whose
// call failed but that computes alone has that result).
Status replay_alone(Job& j, std::size_t i, bool keep) {
  j.s.fresh_start();
  double out = NAN;
  std::size_t changed = i;
  Status st = one_call(j, i, i + 1, &out, &changed);
  if (failure(st)) ++j.calls[st.kind];
  if (keep && (st.ok() || st.kind == Status::Kind::wrote_input)) {
    j.ev.y[i] = out;
    if (j.ev.failed[i]) --j.ev.failed_count;
    j.ev.failed[i] = false;
  }
  return st;
}

// What a call's evaluation says about a failure of the call containing it: none here (passed;
// a write into the inputs or unavailable inputs explain no crash), a finding or a count of it
// (explained), or an input that failed in the batch but not alone (unexplained).
enum class Outcome { passed, explained, unexplained };

// Evaluates [b, e); a failure is bisected (while the budget lasts) to the inputs that show it,
// each confirmed alone. `unexplained_at` receives the leaf that failed in the batch but not
// alone: the caller reports its batch.
Outcome run(Job& j, std::size_t b, std::size_t e, std::size_t& unexplained_at, bool top) {
  if (b >= e) return Outcome::passed;
  std::size_t changed = b;
  // The results go straight to the evaluation's (left as they are when the call fails).
  const Status st = one_call(j, b, e, j.ev.y.data() + b, &changed);
  if (st.ok() || st.kind == Status::Kind::wrote_input) {
    if (st.kind != Status::Kind::wrote_input) return Outcome::passed;
    ++j.calls[st.kind];
    // Its results are measured; the write is confirmed on the element it changed, alone.
    if (Finding* f = same(j, st.kind, Alone::reproduces)) {
      if (f->more_x.size() < kMoreInputs && changed != f->index) f->more_x.push_back(j.xs[changed]);
      return Outcome::passed;
    }
    if (same(j, st.kind, Alone::needs_batch)) return Outcome::passed;
    const Status alone = replay_alone(j, changed, false);  // the batch's results stay
    if (alone.kind == Status::Kind::wrote_input) {
      Finding& f = add(j, st, Alone::reproduces, changed);
      if (!alone.stderr_tail.empty()) f.stderr_tail = alone.stderr_tail;
    } else {
      // The element it wrote computes without writing alone: the batch shows the write.
      needs_batch(j, st, b, e, changed - b);
    }
    return Outcome::passed;
  }
  if (st.kind == Status::Kind::unavailable) {
    // Not a misbehaviour: the subject cannot answer these inputs (saved arrays without them).
    mark_failed(j, b, e);
    if (j.ev.unavailable_why.empty()) j.ev.unavailable_why = st.message;
    return Outcome::passed;
  }
  ++j.calls[st.kind];
  if (j.bisected >= j.o.max_findings) {  // budget spent: counted, not bisected
    unbisected(j, b, e, st);
    return Outcome::explained;
  }
  if (e - b == 1) {
    ++j.bisected;
    mark_failed(j, b, e);
    const Status alone = replay_alone(j, b, true);
    if (!failure(alone)) {
      // Computes fine alone: not the cause; its result (alone) is kept.
      if (!top) {
        unexplained_at = b;  // the caller reports its batch
        return Outcome::unexplained;
      }
      // A batch of one that fails only after earlier calls (state): kept as a batch, no cause.
      if (!same(j, st.kind, Alone::needs_batch)) needs_batch(j, st, b, e, 0);
      return Outcome::explained;
    }
    const std::size_t before = j.ev.findings.size();
    found_at(j, alone, Alone::reproduces, b, 1);
    if (j.ev.findings.size() > before && alone.stderr_tail.empty())
      j.ev.findings.back().stderr_tail = st.stderr_tail;
    return Outcome::explained;
  }
  const std::size_t parts = st.kind == Status::Kind::timed_out ? kHangParts : 2;
  const std::size_t step = (e - b + parts - 1) / parts;
  bool explained = false;
  std::size_t leaf = kNone;
  for (std::size_t pb = b; pb < e; pb += step) {
    std::size_t at = kNone;
    const Outcome o = run(j, pb, std::min(e, pb + step), at, false);
    explained |= o == Outcome::explained;
    if (o == Outcome::unexplained && leaf == kNone) leaf = at;
  }
  if (explained && leaf == kNone) return Outcome::explained;
  // Each part alone passed (or failed only at an element that computes fine alone): the failure
  // needs this batch — a length- or state-dependent bug. No input is named as its cause.
  if (!same(j, st.kind, Alone::needs_batch)) needs_batch(j, st, b, e, leaf == kNone ? kNone : leaf - b);
  return Outcome::explained;
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
  Job j{s, s.capabilities().in_process, op, o, xs, dys, ev, 0, {}};
  const std::size_t batch = std::max<std::size_t>(o.batch, 1);
  for (std::size_t b = 0; b < xs.size(); b += batch) {
    std::size_t at = kNone;
    run(j, b, std::min(xs.size(), b + batch), at, true);
  }
  for (Finding& f : ev.findings) f.calls = std::max<std::size_t>(j.calls[f.status.kind], 1);
  if (ev.failed_count == xs.size() && !xs.empty() && ev.findings.empty()) ev.unavailable = true;
  return ev;
}

std::string values(const std::vector<double>& v) {
  std::string s;
  for (double x : v) s += (s.empty() ? "" : ", ") + hexfloat(x);
  return s;
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
  if (!f.batch_x.empty()) {
    // The batch shows it; no input is its cause.
    s += " in a call of " + std::to_string(f.batch_x.size()) + " element" +
         (f.batch_x.size() == 1 ? "" : "s") + " from x = " + hexfloat(f.x) + " (index " +
         std::to_string(f.index) + ")";
    if (f.alone == Finding::Alone::needs_batch) {
      s += ": no input of it misbehaves alone; ";
      s += f.batch_reproduces ? "the batch alone does, in a fresh instance (a length-dependent bug)"
                              : "nor does the batch alone in a fresh instance: it needs the calls "
                                "before it too (state)";
      if (f.position < f.batch_x.size())
        s += " (the bisection ended at its element " + std::to_string(f.position) + ", x = " +
             hexfloat(f.batch_x[f.position]) + ", which computes fine alone)";
    } else {
      s += ", not bisected (the finding budget was spent)";
    }
  } else {
    s += " at x = " + hexfloat(f.x);
    if (f.dy) s += ", dy = " + hexfloat(*f.dy);
    if (f.alone == Finding::Alone::reproduces) s += " (reproduces alone in a fresh instance)";
    if (!f.more_x.empty()) s += "; also at x = " + values(f.more_x);
  }
  if (f.inputs > 1) s += "; " + std::to_string(f.inputs) + " inputs without a result";
  if (f.calls > 1) s += "; " + std::to_string(f.calls) + " calls ended so";
  return s;
}

void merge(std::vector<Finding>& into, Finding f) {
  for (Finding& g : into) {
    if (!(g.op == f.op) || g.status.kind != f.status.kind || g.alone != f.alone) continue;
    g.calls += f.calls;
    g.inputs += f.inputs;
    if (g.batch_x.empty()) {  // a batch's first x names no input: only named inputs are listed
      std::vector<double> xs{f.x};
      xs.insert(xs.end(), f.more_x.begin(), f.more_x.end());
      for (double x : xs)
        if (g.more_x.size() < kMoreInputs) g.more_x.push_back(x);
    }
    return;
  }
  into.push_back(std::move(f));
}

std::vector<std::string> save_batch(const Finding& f, const std::string& dir) {
  if (f.batch_x.empty())
    throw std::invalid_argument("save_batch: the finding (" + describe(f) + ") carries no batch");
  std::filesystem::create_directories(dir);
  const std::string stem = dir + "/" + std::string(name(f.op.form)) + "." +
                           std::string(dtype_name(f.op.format));
  // The saved-array layout's element types (docs/subjects.md): bfloat16 as its bit patterns.
  const npy::Type type = f.op.format == Format::binary64   ? npy::Type::f8
                         : f.op.format == Format::binary32 ? npy::Type::f4
                         : f.op.format == Format::binary16 ? npy::Type::f2
                                                           : npy::Type::u2;
  const auto bits = [&](const std::vector<double>& v) {
    std::vector<std::uint64_t> b;
    for (double x : v) b.push_back(*to_bits(x, f.op.format));
    return b;
  };
  std::vector<std::string> paths{stem + ".x.npy"};
  npy::write_file(paths[0], type, bits(f.batch_x));
  const bool bwd = f.op.direction == Direction::backward;
  if (bwd) {
    paths.push_back(stem + ".dy.npy");
    npy::write_file(paths[1], type, bits(f.batch_dy));
  }
  paths.push_back(stem + ".eval.txt");
  std::ofstream txt(paths.back(), std::ios::binary | std::ios::trunc);
  const int digits = static_cast<int>(2 * element_size(f.op.format));
  for (std::size_t i = 0; i < f.batch_x.size(); ++i) {
    char line[64];
    std::snprintf(line, sizeof line, "0x%0*" PRIx64, digits, *to_bits(f.batch_x[i], f.op.format));
    txt << line;
    if (bwd) {
      std::snprintf(line, sizeof line, " 0x%0*" PRIx64, digits,
                    *to_bits(f.batch_dy[i], f.op.format));
      txt << line;
    }
    txt << '\n';
  }
  txt.close();
  if (!txt) throw std::runtime_error("save_batch: cannot write " + paths.back());
  return paths;
}

std::string replay_command(const Finding& f, const std::string& spec, const std::string& dir) {
  const auto quoted = [](const std::string& w) {
    std::string q = "'";
    for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  const bool bwd = f.op.direction == Direction::backward;
  return "gelucheck eval --subject " + quoted(spec) + " --form " + std::string(name(f.op.form)) +
         " --format " + std::string(name(f.op.format)) + " --quantity " +
         (bwd ? "backward" : "value") + " --bits < " +
         quoted(dir + "/" + std::string(name(f.op.form)) + "." +
                std::string(dtype_name(f.op.format)) + ".eval.txt");
}

}  // namespace gelucheck::subject
