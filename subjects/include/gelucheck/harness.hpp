// gelucheck/harness.hpp — calling an untrusted subject safely, in batches, from the checks.
//
// Every check evaluates a subject through these functions, never through Subject::call directly:
// they batch, keep private copies of the inputs (a subject that writes into x or dy is caught
// here: the bits are compared after every call), and turn a failing batch into findings with one
// input each by bisection — a subject that crashes on one element among 65,536 is found with
// about 2·16 calls, and the other 65,535 results are still measured.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gelucheck/subject.hpp"

namespace gelucheck::subject {

// One misbehaviour, with the single input (and dy) that shows it.
struct Finding {
  Op op;
  Status status;           // never ok
  double x = 0;            // the input (a value of op.format)
  std::optional<double> dy;
  std::size_t index = 0;   // its position in the evaluated sequence
};

struct Evaluation {
  std::vector<double> y;          // results as doubles (values of the format); NaN where failed
  std::vector<bool> failed;       // per element: no result (its call failed, or none was made)
  std::vector<Finding> findings;  // bisected failures, in input order, at most max_findings
  std::size_t failed_count = 0;
  // The op is not provided at all (capabilities) or every call answered unavailable.
  bool unavailable = false;
  std::string unavailable_why;
  bool complete() const { return !unavailable && failed_count == 0; }
};

struct HarnessOptions {
  std::size_t batch = 65536;     // elements per call
  std::size_t max_findings = 8;  // bisect until this many findings; later failing batches are
                                 // marked failed whole (counted in failed_count, not bisected)
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

// One line for a report: "crashed (killed by signal 11) at x = -0x1.8p+3".
std::string describe(const Finding& f);

}  // namespace gelucheck::subject
