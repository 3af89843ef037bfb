// `gelucheck eval` (a contract, docs/cli.md): one result per input line, read from stdin, of any
// subject (--subject SPEC, subject.hpp), evaluated through the harness in chunks.
//
// Decisions (docs/cli.md): lines that are empty, blank, or whose first non-blank character is
// `#` are skipped silently. A line that does not parse gets a message on stderr naming its
// number and quoting it (control bytes escaped, cut to 200 bytes), nothing on stdout, and eval
// GOES ON with the next line; the exit code is then 1. A line the subject has no result for (it
// crashed, hung, failed, or its op is not there for this input) or misbehaved on (wrote into its
// input) gets a message naming the line and the finding; the other lines are still printed, and
// the exit code is 3 at the end. stdout is flushed before every message, so when both streams go
// to one place the order is the input's. A read error on stdin (a directory, a closed descriptor)
// and a write error on stdout are exit 3 at once: eval stops at the first output it cannot write.
//
// Lines are read into a chunk of at most kChunk inputs, which is evaluated in one harness call
// when full, at the end of the input, or as soon as reading on would wait (an interactive user
// sees each result when the line is typed). Output order and messages do not depend on the chunks.
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "gelucheck/common.hpp"
#include "gelucheck/harness.hpp"
#include "gelucheck/subject.hpp"

namespace gelucheck::cli {
namespace {

struct EvalOptions {
  std::string impl = "reference";  // --impl: the alias of --subject for the built-ins
  std::string subject;             // --subject SPEC; empty: --impl's
  std::string form = "tanh";
  std::string quantity = "value";  // value | derivative | backward
  std::string format = "binary64";
  bool bits = false;
};

// Inputs per chunk: one harness call each (the harness's own batch is larger).
constexpr std::size_t kChunk = 4096;
// Failing lines bisected to a finding of their own per chunk, for an out-of-process subject: each
// bisection step of a subject that crashes restarts its process (docs/cli.md). In-process
// subjects get one finding per failing line.
constexpr std::size_t kOutOfProcessFindings = 32;

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

// Standard input through read(2) with a buffer of our own, so that eval knows when reading on
// would wait (then the pending chunk is evaluated first: `before_wait`).
class Input {
 public:
  explicit Input(std::function<void()> before_wait) : before_wait_(std::move(before_wait)) {}
  // Reads one line without its '\n' (the last may lack one). `length` is the line's full length;
  // `line` holds at most kMaxLine bytes of it. Read::error leaves errno set.
  Read read_line(std::string& line, std::size_t& length) {
    line.clear();
    length = 0;
    for (;;) {
      if (pos_ == end_) {
        if (eof_) return length == 0 ? Read::end : Read::line;
        if (!fill()) return Read::error;
        continue;
      }
      const char* b = buf_ + pos_;
      const void* nl = std::memchr(b, '\n', end_ - pos_);
      const std::size_t n = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - b) : end_ - pos_;
      if (length < kMaxLine) line.append(b, std::min(n, kMaxLine - length));
      length += n;
      pos_ += n;
      if (nl) {
        ++pos_;
        return Read::line;
      }
    }
  }

 private:
  bool fill() {
    pollfd p{STDIN_FILENO, POLLIN, 0};
    if (::poll(&p, 1, 0) == 0) before_wait_();
    ssize_t n;
    do n = ::read(STDIN_FILENO, buf_, sizeof buf_);
    while (n < 0 && errno == EINTR);
    if (n < 0) return false;
    pos_ = 0;
    end_ = static_cast<std::size_t>(n);
    eof_ = n == 0;
    return true;
  }
  std::function<void()> before_wait_;
  char buf_[1 << 16];
  std::size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
};

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

std::string_view trim(std::string_view s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

// Hex digits of a bit pattern of fmt: 16 for binary64, 8 for binary32, 4 for the 16-bit formats.
std::size_t pattern_digits(Format fmt) { return 2 * subject::element_size(fmt); }

// The text, without blanks, as [sign] "0x" hex digits — no '.', no 'p': a hex integer, which
// --bits reads as a bit pattern. The digits, or nullopt; `sign` tells whether a sign came first.
std::optional<std::string_view> hex_integer(std::string_view t, bool& sign) {
  sign = !t.empty() && (t[0] == '+' || t[0] == '-');
  if (sign) t.remove_prefix(1);
  if (t.size() < 3 || t[0] != '0' || (t[1] != 'x' && t[1] != 'X')) return std::nullopt;
  t.remove_prefix(2);
  for (char c : t)
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
  return t;
}

// One field of an input line read as a value of fmt: the number written, rounded once to fmt
// (never via binary64 first), or under --bits a bit pattern "0x" + exactly pattern_digits(fmt)
// hex digits. Unreadable: nullopt, and `why` may say more than the generic message.
std::optional<double> read_field(std::string_view text, Format fmt, bool bits, std::string& why) {
  const std::string_view t = trim(text);
  bool sign = false;
  if (bits) {
    if (const std::optional<std::string_view> digits = hex_integer(t, sign)) {
      if (sign) {
        why = "a bit pattern has no sign (a hex float needs a '.' or a 'p')";
        return std::nullopt;
      }
      if (digits->size() != pattern_digits(fmt)) {
        why = "a " + std::string(name(fmt)) + " bit pattern is 0x and exactly " +
              std::to_string(pattern_digits(fmt)) + " hex digits (a hex float needs a '.' or a 'p')";
        return std::nullopt;
      }
      return from_bits(std::stoull(std::string(*digits), nullptr, 16), fmt);
    }
  }
  return parse_real(t, fmt);
}

// Without --bits, a hex integer that looks like a bit pattern (any, in a 16-bit format; one of
// exactly the pattern's digits in the others) is read as the number it writes: said once.
bool looks_like_pattern(std::string_view text, Format fmt) {
  bool sign = false;
  const std::optional<std::string_view> digits = hex_integer(trim(text), sign);
  return digits && (subject::element_size(fmt) == 2 || digits->size() == pattern_digits(fmt));
}

// A hex integer's value as a reader expects it ("16256", not "1.626e+04"); %.17g is exact up to
// 17 digits, and shortest-round-trip beyond.
std::string integer_text(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

// Splits a line into blank-separated fields.
std::vector<std::string_view> fields(std::string_view s) {
  std::vector<std::string_view> f;
  std::size_t i = 0;
  const auto blank = [&](std::size_t k) { return s[k] == ' ' || s[k] == '\t' || s[k] == '\v' || s[k] == '\f'; };
  while (i < s.size()) {
    while (i < s.size() && blank(i)) ++i;
    const std::size_t b = i;
    while (i < s.size() && !blank(i)) ++i;
    if (i > b) f.push_back(s.substr(b, i - b));
  }
  return f;
}

// One input line kept until its chunk is evaluated: an input, or the message of a bad line, and
// a note said before it.
struct Entry {
  long lineno = 0;
  std::string note;     // said on stderr before this line's output
  std::string bad;      // non-empty: the line is bad, this is its message (nothing on stdout)
  std::size_t index = 0;  // the input's place in the chunk's xs
};

class Evaluator {
 public:
  Evaluator(subject::Subject& s, Form form, std::string_view quantity, Format fmt, bool bits)
      : s_(s), form_(form), fmt_(fmt), bits_(bits),
        backward_(quantity == "backward"), derivative_(quantity == "derivative") {
    ho_.batch = kChunk;
    ho_.max_findings = s.capabilities().in_process ? kChunk : kOutOfProcessFindings;
  }

  subject::Op op() const {
    return {form_, backward_ || derivative_ ? subject::Direction::backward
                                            : subject::Direction::forward, fmt_};
  }

  // Takes one line (not skippable); false once output has failed.
  bool take(long lineno, const std::string& line, std::size_t length) {
    Entry e;
    e.lineno = lineno;
    std::string why;
    std::optional<double> x, dy;
    if (length <= kMaxLine) {
      if (backward_) {
        const std::vector<std::string_view> f = fields(line);
        if (f.size() == 2) {
          x = read_field(f[0], fmt_, bits_, why);
          if (x) dy = read_field(f[1], fmt_, bits_, why);
        } else {
          why = "a backward line is two fields, x and dy, separated by blanks";
        }
      } else {
        x = read_field(line, fmt_, bits_, why);
      }
    }
    if (!x || (backward_ && !dy)) {
      e.bad = "gelucheck eval: line " + std::to_string(lineno) + ": cannot read " +
              quote(line, length) + (backward_ ? " as x dy" : " as a number") +
              " (decimal, C99 hex float, inf, -inf or nan" +
              (bits_ ? ", or a bit pattern 0x + " + std::to_string(pattern_digits(fmt_)) + " hex digits"
                     : std::string()) +
              ")" + (why.empty() ? "" : ": " + why) + "\n";
      bad_input_ = true;
    } else {
      if (!bits_ && !warned_) {
        for (std::string_view f : backward_ ? fields(line) : std::vector<std::string_view>{line})
          if (looks_like_pattern(f, fmt_)) {
            e.note = "gelucheck eval: line " + std::to_string(lineno) + ": " +
                     quote(trim(f), trim(f).size()) + " is read as the number " +
                     integer_text(*read_field(f, fmt_, false, why)) +
                     ", not as a bit pattern (with --bits, 0x and " +
                     std::to_string(pattern_digits(fmt_)) + " hex digits are one; a hex float "
                     "needs a '.' or a 'p'); said once\n";
            warned_ = true;
            break;
          }
      }
      e.index = xs_.size();
      xs_.push_back(*x);
      if (backward_) dys_.push_back(*dy);
    }
    entries_.push_back(std::move(e));
    return !output_failed_ && (entries_.size() < kChunk || flush());
  }

  // Evaluates the pending chunk and writes it out, in input order. False once output has failed.
  bool flush() {
    if (entries_.empty()) return !output_failed_;
    subject::Evaluation ev;
    if (!xs_.empty()) {
      if (backward_) ev = subject::backward(s_, form_, fmt_, xs_, dys_, ho_);
      else ev = subject::evaluate(s_, {form_, derivative_ ? Quantity::derivative : Quantity::value},
                                  fmt_, xs_, ho_);
    }
    std::vector<const subject::Finding*> finding(xs_.size(), nullptr);
    for (const subject::Finding& f : ev.findings)
      if (f.index < finding.size() && !finding[f.index]) finding[f.index] = &f;
    for (const Entry& e : entries_) {
      if (output_failed_) break;
      if (!e.note.empty()) say(e.note);
      if (!e.bad.empty()) {
        say(e.bad);
        continue;
      }
      const std::size_t i = e.index;
      if (const subject::Finding* f = finding[i]) {
        say("gelucheck eval: line " + std::to_string(e.lineno) + ": " + s_.spec() + ": " +
            subject::describe(*f) + "\n");
        misbehaved_ = true;
      }
      if (ev.failed[i]) {
        // One misbehaviour is one finding, said at its first input; the others it left without
        // a result point to it.
        const subject::Finding* same = nullptr;
        for (const subject::Finding& f : ev.findings)
          if (!same && f.inputs > 0) same = &f;
        if (!finding[i])
          say("gelucheck eval: line " + std::to_string(e.lineno) + ": " + s_.spec() +
              ": no result for " + subject::op_name(op()) + " at x = " + hexfloat(xs_[i]) +
              (backward_ ? ", dy = " + hexfloat(dys_[i]) : std::string()) + ": " +
              (!ev.unavailable_why.empty() ? ev.unavailable_why
               : same ? "its call failed: " + subject::describe(*same)
                      : "its batch failed and the findings of this chunk were spent") + "\n");
        misbehaved_ = true;
        continue;
      }
      emit(i, ev.y[i]);
    }
    entries_.clear();
    xs_.clear();
    dys_.clear();
    return !output_failed_;
  }

  // stdout written through; false (with the message said) when it cannot be.
  bool flush_stdout() {
    if (output_failed_) return false;
    if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return true;
    write_failed();
    return false;
  }

  int exit_code() const { return misbehaved_ ? kExitFailure : bad_input_ ? kExitBadInput : kExitOk; }

 private:
  void say(const std::string& msg) {
    std::fflush(stdout);
    std::fputs(msg.c_str(), stderr);
  }

  std::string bits_column(double v) const {
    char b[24];
    std::snprintf(b, sizeof b, "0x%0*" PRIx64, static_cast<int>(pattern_digits(fmt_)),
                  *to_bits(v, fmt_));
    return b;
  }

  // One result line: x [dy] result-hex result-decimal [result-bits], tab-separated. On a failed
  // write the message is said and eval stops.
  void emit(std::size_t i, double r) {
    std::string l = hexfloat(xs_[i]) + "\t";
    if (backward_) l += hexfloat(dys_[i]) + "\t";
    l += hexfloat(r) + "\t" + decimal_roundtrip(r, fmt_);
    if (bits_) l += "\t" + bits_column(r);
    l += "\n";
    if (std::fputs(l.c_str(), stdout) < 0 || std::ferror(stdout)) write_failed();
  }

  void write_failed() {
    std::fprintf(stderr, "gelucheck eval: cannot write to standard output: %s\n", std::strerror(errno));
    output_failed_ = true;
  }

  subject::Subject& s_;
  Form form_;
  Format fmt_;
  bool bits_, backward_, derivative_;
  subject::HarnessOptions ho_;
  std::vector<Entry> entries_;
  std::vector<double> xs_, dys_;
  bool bad_input_ = false, misbehaved_ = false, output_failed_ = false, warned_ = false;
};

int run(const EvalOptions& o) {
  // The option values were checked by CLI11 (IsMember), so these parses succeed.
  const Form form = *parse_form(o.form);
  const Format fmt = *parse_format(o.format);
  const std::string spec = o.subject.empty() ? o.impl : o.subject;
  std::unique_ptr<subject::Subject> s;
  try {
    s = subject::open(spec);
  } catch (const subject::SpecError& e) {
    std::fprintf(stderr, "gelucheck eval: %s\n", e.what());
    return e.kind == subject::SpecError::Kind::usage ? kExitUsage : kExitFailure;
  }
  Evaluator ev(*s, form, o.quantity, fmt, o.bits);
  if (!s->capabilities().provides(ev.op())) {
    std::fprintf(stderr, "gelucheck eval: %s does not provide %s\n", spec.c_str(),
                 subject::op_name(ev.op()).c_str());
    return kExitFailure;
  }
  if (stdin_closed) {
    std::fprintf(stderr, "gelucheck eval: cannot read standard input: it is closed\n");
    return kExitFailure;
  }
  bool writing = true;
  // Before reading waits: the chunk so far evaluated and written through (a pipe to a reader
  // that waits for each result gets it).
  Input in([&] { writing = writing && ev.flush() && ev.flush_stdout(); });
  std::string line;
  std::size_t length = 0;
  Read got = Read::end;
  for (long lineno = 1; writing && (got = in.read_line(line, length)) == Read::line; ++lineno) {
    if (skippable(line)) continue;
    // CRLF input is accepted; the \r is no part of the text (nor of a message quoting it).
    if (line.back() == '\r') {
      line.pop_back();
      --length;
    }
    writing = ev.take(lineno, line, length);
  }
  if (!writing) return kExitFailure;
  if (got == Read::error) {
    const int err = errno;
    if (!ev.flush()) return kExitFailure;
    std::fflush(stdout);
    std::fprintf(stderr, "gelucheck eval: cannot read standard input: %s\n", std::strerror(err));
    return kExitFailure;
  }
  if (!ev.flush() || !ev.flush_stdout()) return kExitFailure;
  return ev.exit_code();
}

}  // namespace

std::function<int()> add_eval_command(CLI::App& app) {
  auto opts = std::make_shared<EvalOptions>();
  CLI::App* sub = app.add_subcommand(
      "eval",
      "Evaluate one GELU function of a subject at each input read from standard input, one per line.");
  sub->footer(
      "Input: one number per line: decimal or C99 hex float (0x1.8p-3), inf, -inf or nan; with\n"
      "--quantity backward two, x and dy, separated by blanks. Empty, blank and #-comment lines are\n"
      "skipped. Each input is first rounded to nearest-even in --format, once, from the exact number\n"
      "written; that value is the one used. A hex integer such as 0x3f80 is the NUMBER it writes\n"
      "(16256) unless --bits is given; then 0x and exactly 4 (binary16, bfloat16), 8 (binary32) or\n"
      "16 (binary64) hex digits are a bit pattern (0x3f80 is bfloat16 1.0, 0x3ff0000000000000\n"
      "binary64 1.0), other hex integers and signed ones are bad lines, and hex floats (with a '.' or\n"
      "a 'p') are still numbers. Without --bits, the first hex integer that looks like a pattern\n"
      "(any, in a 16-bit format) is said on stderr, once.\n"
      "Output, one line per input, tab-separated: the input used (C99 hex float; for backward x,\n"
      "then dy), the result (C99 hex float), the result in decimal with just enough digits to\n"
      "round-trip in --format, and with --bits last the result's bit pattern (0x + 4, 8 or 16 digits).\n"
      "A bad line: message on stderr with its line number, nothing on stdout, eval goes on. A line\n"
      "the subject fails on (crash, hang, error, no result) or misbehaves on (writes its input): a\n"
      "message naming the line and the finding, no result line if there is no result, eval goes on.\n"
      "Exit codes: 0 ok, 1 bad input, 2 usage (also a malformed --subject), 3 a finding of the\n"
      "subject (it wins over 1), a subject that cannot be opened or does not provide the function,\n"
      "or an I/O error (stdin unreadable, stdout unwritable: eval stops at once).\n"
      "Subjects (docs/subjects.md): reference = correctly rounded (MPFR; the default); accurate /\n"
      "naive = the library's two paths, in double for binary64, in float for binary32; in binary16\n"
      "and bfloat16 accurate is correctly rounded by table (the library's kernel rounded once to the\n"
      "format) and naive rounds its float result again to the format (double rounding, as\n"
      "frameworks do); broken:NAME, a peer (torch, onednn, onnxruntime, ggml, with options),\n"
      "lib:PATH[:MAP], 'cmd:COMMAND ARGS...', npy:DIR. derivative is the backward with dy = 1.");
  CLI::Option* impl =
      sub->add_option("--impl", opts->impl,
                      "reference (correctly rounded), accurate or naive (the library's two paths): "
                      "the same as --subject with these")
          ->check(CLI::IsMember({"reference", "accurate", "naive"}))
          ->capture_default_str();
  sub->add_option("--subject", opts->subject,
                  "What to evaluate: accurate | naive | reference | broken:NAME | a peer "
                  "(torch[:OPTIONS], onednn[:OPTIONS], onnxruntime[:OPTIONS], ggml[:OPTIONS]) | "
                  "lib:PATH[:MAP] | 'cmd:COMMAND ARGS...' | npy:DIR (docs/subjects.md)")
      ->excludes(impl);
  sub->add_option("--form", opts->form, "tanh (gelu_new) or erf (x*Phi(x))")
      ->check(CLI::IsMember({"tanh", "erf"}))
      ->capture_default_str();
  sub->add_option("--quantity", opts->quantity,
                  "value, derivative, or backward (lines 'x dy', result dy*f'(x))")
      ->check(CLI::IsMember({"value", "derivative", "backward"}))
      ->capture_default_str();
  sub->add_option("--format", opts->format,
                  "binary64, binary32, binary16 or bfloat16 (or f64, f32, f16, bf16, as --formats "
                  "spells them): inputs and results are values of it")
      ->transform(CLI::Validator(
          [](std::string& s) -> std::string {
            // One table of names (subject::parse_dtype): either spelling, kept as the Format's.
            const std::optional<Format> f = subject::parse_dtype(s);
            if (!f) return s + " is not a format (binary64, binary32, binary16, bfloat16)";
            s = std::string(name(*f));
            return "";
          },
          "", "format"))
      ->capture_default_str();
  sub->add_flag("--bits", opts->bits,
                "Read 0x + 2*bytes hex digits as bit patterns of --format; print the result's "
                "pattern as a last column");
  return [opts] { return run(*opts); };
}

}  // namespace gelucheck::cli
