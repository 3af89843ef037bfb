// `gelucheck eval` (shared DESIGN.md §4, a contract): one result per input line, read from stdin.
//
// Decisions (docs/cli.md): lines that are empty, blank, or whose first non-blank character is
// `#` are skipped silently. A line that does not parse gets a message on stderr naming its
// number and quoting it (control bytes escaped, cut to 200 bytes), nothing on stdout, and eval
// GOES ON with the next line; the exit code is then 1. stdout is flushed before every message,
// so when both streams go to one place the order is the input's. A computation failure (the
// reference's precision cap), a read error on stdin (a directory, a closed descriptor) and a
// write error on stdout are exit 3, at once: eval stops at the first output it cannot write.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

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

// Whether descriptor 0 was closed when gelucheck started (`gelucheck eval <&-`). Decided before
// main, and the number then taken by /dev/null, so that no file gelucheck opens later gets
// descriptor 0 and is read as if it were the input.
const bool stdin_closed = [] {
  if (fcntl(STDIN_FILENO, F_GETFD) >= 0 || errno != EBADF) return false;
  open("/dev/null", O_RDONLY | O_CLOEXEC);  // lowest free descriptor: 0
  return true;
}();

// Longest line kept (a longer one cannot be a number worth reading, and is reported as bad);
// the rest of it is read and counted, not kept.
constexpr std::size_t kMaxLine = std::size_t{1} << 20;
// Bytes of a bad line quoted in its message.
constexpr std::size_t kQuoteBytes = 200;

enum class Read { line, end, error };

// Reads one line of stdin without its '\n' (the last may lack one). `length` is the line's full
// length; `line` holds at most kMaxLine bytes of it. Read::error leaves errno set.
Read read_line(std::string& line, std::size_t& length) {
  line.clear();
  length = 0;
  int c;
  while ((c = getc_unlocked(stdin)) != EOF && c != '\n') {
    if (length++ < kMaxLine) line += static_cast<char>(c);
  }
  if (c == EOF && std::ferror(stdin)) return Read::error;
  return c == EOF && length == 0 ? Read::end : Read::line;
}

// A line as a message shows it: in double quotes, with NUL as \0, tab and CR as \t and \r, the
// other control bytes and every byte from 0x7f up as \xNN, and '"' and '\' escaped, so that no
// byte of the input can move the cursor, change colours or hide the rest of the message; the
// first kQuoteBytes bytes, then "... (N bytes)".
std::string quote(std::string_view line, std::size_t length) {
  std::string q = "\"";
  for (std::size_t i = 0; i < line.size() && i < kQuoteBytes; ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    if (c == 0) q += "\\0";
    else if (c == '\t') q += "\\t";
    else if (c == '\r') q += "\\r";
    else if (c == '"' || c == '\\') (q += '\\') += static_cast<char>(c);
    else if (c < 0x20 || c >= 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      q += hex;
    } else {
      q += static_cast<char>(c);
    }
  }
  q += '"';
  if (length > kQuoteBytes) q += "... (" + std::to_string(length) + " bytes)";
  return q;
}

// Writes one result line. False once standard output has failed, with the message written:
// eval stops there rather than compute results nobody will see.
bool emit(double x, double r, Format fmt) {
  const int n = std::printf("%s\t%s\t%s\n", hexfloat(x).c_str(), hexfloat(r).c_str(),
                            decimal_roundtrip(r, fmt).c_str());
  if (n >= 0 && !std::ferror(stdout)) return true;
  std::fprintf(stderr, "gelucheck eval: cannot write to standard output: %s\n", std::strerror(errno));
  return false;
}

int run(const EvalOptions& o) {
  // The option values were checked by CLI11 (IsMember), so these parses succeed.
  const Impl impl = o.impl == "reference" ? Impl::reference
                    : o.impl == "accurate" ? Impl::accurate : Impl::naive;
  const Form form = *parse_form(o.form);
  const Quantity q = *parse_quantity(o.quantity);
  const Format fmt = *parse_format(o.format);

  if (stdin_closed) {
    std::fprintf(stderr, "gelucheck eval: cannot read standard input: it is closed\n");
    return kExitFailure;
  }
  int rc = kExitOk;
  std::string line;
  std::size_t length = 0;
  Read got;
  for (long lineno = 1; (got = read_line(line, length)) == Read::line; ++lineno) {
    if (skippable(line)) continue;
    // CRLF input is accepted; the \r is no part of the text (nor of a message quoting it).
    if (line.back() == '\r') {
      line.pop_back();
      --length;
    }
    // One rounding from the text to the format (DESIGN.md §4), not via binary64 first.
    const std::optional<double> parsed =
        length <= kMaxLine ? parse_real(line, fmt) : std::optional<double>();
    if (!parsed) {
      std::fflush(stdout);
      std::fprintf(stderr,
                   "gelucheck eval: line %ld: cannot read %s as a number (decimal, C99 hex "
                   "float, inf, -inf or nan)\n",
                   lineno, quote(line, length).c_str());
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
    if (!emit(x, r, fmt)) return kExitFailure;
  }
  if (got == Read::error) {
    const int err = errno;
    std::fflush(stdout);
    std::fprintf(stderr, "gelucheck eval: cannot read standard input: %s\n", std::strerror(err));
    return kExitFailure;
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "gelucheck eval: cannot write to standard output: %s\n", std::strerror(errno));
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
      "exits with 1 at the end. Exit codes: 0 ok, 1 bad input, 2 usage, 3 computation failure or\n"
      "I/O error (stdin unreadable, stdout unwritable: eval stops at once).\n"
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
