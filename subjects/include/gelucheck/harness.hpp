// gelucheck/harness.hpp — calling an untrusted subject safely, in batches, from the checks.
//
// Every check evaluates a subject through these functions, never through Subject::call directly:
// they batch, keep private copies of the inputs (a subject that writes into x or dy is caught
// here: the bits are compared after every call), and turn a failing batch into findings by
// bisection — a subject that crashes on one element among 65,536 is found with about 2·16 calls,
// and the other 65,535 results are still measured — each confirmed by a replay of its input
// alone in a fresh instance of the subject, and each misbehaviour of an op reported once.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gelucheck/subject.hpp"

namespace gelucheck::subject {

// One misbehaviour of one op in one evaluation, with the input (and dy) that shows it. The same
// misbehaviour at several inputs or in several calls is ONE finding with counts: x is the first
// input, `more_x` the next few.
struct Finding {
  Op op;
  Status status;           // never ok; the status of the call that shows it
  double x = 0;            // the input (a value of op.format); for needs_batch, the batch's first
  std::optional<double> dy;
  std::size_t index = 0;   // its position in the evaluated sequence

  // How the finding was confirmed. A crash, hang or other failure bisected to one input is
  // replayed on that input alone in a fresh instance of the subject (Subject::fresh_start).
  enum class Alone {
    not_tried,    // no replay: the subject has no fresh instance (in-process), a write into the
                  // inputs (shown by the call itself), or the finding budget was spent
    reproduces,   // the input alone, in a fresh instance, misbehaves the same way: it is the cause
    needs_batch,  // nothing alone misbehaves: the batch does (a length- or state-dependent bug);
                  // x names no cause, the batch below shows it
  };
  Alone alone = Alone::not_tried;
  std::size_t calls = 1;    // calls of this op answered with this kind in the evaluation: the
                            // batches, bisection steps and replays (a hang remembered by the
                            // subject is answered without calling it)
  std::size_t inputs = 0;   // inputs left without a result by this misbehaviour (0: a write into
                            // the inputs, whose results are measured)
  std::vector<double> more_x;  // the next inputs it was found at after x, in order (a few)
  std::string stderr_tail;     // what the subject wrote on stderr in the call that shows it
  // needs_batch: the call that misbehaves while each part of it alone does not — its inputs
  // (and dy for a backward), as sent; `position` is the offset in it of the element the bisection
  // ended at when one did fail inside the batch but not alone (npos when every part passed).
  std::vector<double> batch_x, batch_dy;
  std::size_t position = static_cast<std::size_t>(-1);
  // needs_batch: whether the batch, replayed alone in a fresh instance, misbehaves again (a
  // length-dependent bug); false when it needs the calls before it too (state).
  bool batch_reproduces = false;
};

struct Evaluation {
  std::vector<double> y;          // results as doubles (values of the format); NaN where failed
  std::vector<bool> failed;       // per element: no result (its call failed, or none was made)
  std::vector<Finding> findings;  // one per misbehaviour (kind and confirmation), in the order
                                  // found; the bisection stops after max_findings inputs
  std::size_t failed_count = 0;
  // The op is not provided at all (capabilities) or every call answered unavailable.
  bool unavailable = false;
  std::string unavailable_why;
  bool complete() const { return !unavailable && failed_count == 0; }
};

struct HarnessOptions {
  std::size_t batch = 65536;     // elements per call
  std::size_t max_findings = 8;  // bisect until this many failing inputs have been found; later
                                 // failing batches are marked failed whole (counted in
                                 // failed_count and in their finding's `inputs`, not bisected)
  std::size_t stride = 1;        // Call::stride (only if the subject is strided)
};

// The forward at xs.
Evaluation forward(Subject& s, Form form, Format fmt, std::span<const double> xs,
                   const HarnessOptions& o = {});
// The backward (VJP) at xs with the given dy.
Evaluation backward(Subject& s, Form form, Format fmt, std::span<const double> xs,
                    std::span<const double> dys, const HarnessOptions& o = {});
// A function as the checks use it: the value is the forward, the derivative the backward with dy = 1.
Evaluation evaluate(Subject& s, Function f, Format fmt, std::span<const double> xs,
                    const HarnessOptions& o = {});

// One line for a report: "tanh.forward.f64 crashed (killed by signal 11) at x = -0x1.8p+3
// (reproduces alone in a fresh process)"; with the counts when it is more than one input or call.
std::string describe(const Finding& f);

// Folds a finding of another evaluation (a later chunk of the campaign, another property) into
// `into`: one with the same op, kind and confirmation takes its counts (calls, inputs) and its
// inputs into more_x (a few); otherwise it is appended. Give f.index in the caller's numbering.
void merge(std::vector<Finding>& into, Finding f);

// A needs_batch finding's batch saved for replay: FORM.DT.x.npy (and FORM.DT.dy.npy for a
// backward) in `dir` (created if missing), the layout of an npy: directory (docs/subjects.md,
// "Saved arrays") in the op's format, plus FORM.DT.eval.txt, the batch as `gelucheck eval --bits`
// input lines. Returns the paths written; throws std::runtime_error on an I/O error and
// std::invalid_argument for a finding without a batch.
std::vector<std::string> save_batch(const Finding& f, const std::string& dir);
// A command line that replays the batch saved by save_batch(f, dir) on the subject `spec` in one
// call (gelucheck eval reads up to 4096 lines into one call; a longer batch is split there).
std::string replay_command(const Finding& f, const std::string& spec, const std::string& dir);

}  // namespace gelucheck::subject
