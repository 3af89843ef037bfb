// `gelucheck eval` (shared DESIGN.md §4, a contract): one result per input line, read from stdin.
//
// Decisions (docs/cli.md): lines that are empty, blank, or whose first non-blank character is
// `#` are skipped silently. A line that does not parse gets a message on stderr naming its
// number and text, nothing on stdout, and eval GOES ON with the next line; the exit code is then
// 1. stdout is flushed before every message, so when both streams go to one place the order is
// the input's. A computation failure (the reference's precision cap) is exit 3, at once.
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "gelucheck/common.hpp"
#include "gelucheck/gelu.hpp"
#include "gelucheck/reference.hpp"

namespace gelucheck::cli {
namespace {

enum class Impl { reference, accurate, naive };

struct EvalOptions {
  std::string impl = "reference";
  std::string form = "tanh";
  std::string quantity = "value";
  std::string format = "binary64";
};

// The library in the format's working type: double for binary64, float for the rest; binary16
// and bfloat16 results are the float result rounded once more (double rounding, as frameworks
// do it). x is a value of fmt, so the conversion to float is exact for the three small formats.
double library(Impl impl, Form form, Quantity q, double x, Format fmt) {
  const Path path = impl == Impl::naive ? Path::naive : Path::accurate;
  if (fmt == Format::binary64)
    return q == Quantity::value ? scalar(form, x, path) : scalar_deriv(form, x, path);
  const float xf = static_cast<float>(x);
  const float r = q == Quantity::value ? scalar(form, xf, path) : scalar_deriv(form, xf, path);
  return round_to_format(static_cast<double>(r), fmt);
}

// Blank, empty or a comment: skipped.
bool skippable(const std::string& line) {
  for (char c : line) {
    if (c == '#') return true;
    if (c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f') return false;
  }
  return true;
}

int run(const EvalOptions& o) {
  // The option values were checked by CLI11 (IsMember), so these parses succeed.
  const Impl impl = o.impl == "reference" ? Impl::reference
                    : o.impl == "accurate" ? Impl::accurate : Impl::naive;
  const Form form = *parse_form(o.form);
  const Quantity q = *parse_quantity(o.quantity);
  const Format fmt = *parse_format(o.format);

  int rc = kExitOk;
  std::string line;
  for (long lineno = 1; std::getline(std::cin, line); ++lineno) {
    if (skippable(line)) continue;
    // CRLF input is accepted; the \r is no part of the text (nor of a message quoting it).
    if (line.back() == '\r') line.pop_back();
    // One rounding from the text to the format (DESIGN.md §4), not via binary64 first.
    const std::optional<double> parsed = parse_real(line, fmt);
    if (!parsed) {
      std::fflush(stdout);
      std::fprintf(stderr,
                   "gelucheck eval: line %ld: cannot read \"%s\" as a number (decimal, C99 hex "
                   "float, inf, -inf or nan)\n",
                   lineno, line.c_str());
      rc = kExitBadInput;
      continue;
    }
    const double x = *parsed;
    double r;
    try {
      r = impl == Impl::reference ? ref::correctly_rounded(form, q, x, fmt)
                                  : library(impl, form, q, x, fmt);
    } catch (const ref::ReferenceError& e) {
      std::fflush(stdout);
      std::fprintf(stderr, "gelucheck eval: line %ld: the reference failed at x = %s: %s\n",
                   lineno, hexfloat(x).c_str(), e.what());
      return kExitFailure;
    }
    std::printf("%s\t%s\t%s\n", hexfloat(x).c_str(), hexfloat(r).c_str(),
                decimal_roundtrip(r, fmt).c_str());
  }
  if (std::cin.bad() || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "gelucheck eval: I/O error on standard input or output\n");
    return kExitFailure;
  }
  return rc;
}

}  // namespace

std::function<int()> add_eval_command(CLI::App& app) {
  auto opts = std::make_shared<EvalOptions>();
  CLI::App* sub = app.add_subcommand(
      "eval",
      "Evaluate one GELU function at each input read from standard input, one per line.");
  sub->footer(
      "Input: one number per line: decimal or C99 hex float (0x1.8p-3), inf, -inf or nan. Empty,\n"
      "blank and #-comment lines are skipped. Each input is first rounded to nearest-even in\n"
      "--format, once, from the exact number written; that value is the one used.\n"
      "Output, one line per input, tab-separated: the input used (C99 hex float), the result\n"
      "(C99 hex float), the result in decimal with just enough digits to round-trip in --format.\n"
      "A bad line: message on stderr with its line number, nothing on stdout, eval goes on and\n"
      "exits with 1 at the end. Exit codes: 0 ok, 1 bad input, 2 usage, 3 computation failure.\n"
      "Implementations: reference = correctly rounded (MPFR); accurate / naive = the library in\n"
      "double for binary64, in float for binary32; for binary16 and bfloat16 the library computes\n"
      "in float and its result is rounded to the format (double rounding, as frameworks do).");
  sub->add_option("--impl", opts->impl,
                  "reference (correctly rounded), accurate or naive (the library's two paths)")
      ->check(CLI::IsMember({"reference", "accurate", "naive"}))
      ->capture_default_str();
  sub->add_option("--form", opts->form, "tanh (gelu_new) or erf (x*Phi(x))")
      ->check(CLI::IsMember({"tanh", "erf"}))
      ->capture_default_str();
  sub->add_option("--quantity", opts->quantity, "value or derivative")
      ->check(CLI::IsMember({"value", "derivative"}))
      ->capture_default_str();
  sub->add_option("--format", opts->format,
                  "binary64, binary32, binary16 or bfloat16: inputs and results are values of it")
      ->check(CLI::IsMember({"binary64", "binary32", "binary16", "bfloat16"}))
      ->capture_default_str();
  return [opts] { return run(*opts); };
}

}  // namespace gelucheck::cli
