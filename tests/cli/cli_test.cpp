// `gelucheck` run as a subprocess, checked against docs/cli.md (a contract).
// Expected results come from the MPFR reference (ref::correctly_rounded), the library called
// directly (for --impl accurate/naive: the wiring is what is under test), or are derived by hand
// in the comments — never from eval's own output.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gelucheck/common.hpp"
#include "gelucheck/reference.hpp"
#include "gelucheck/gelu.hpp"
#include "gelucheck/process.hpp"
#include "shell.hpp"

namespace gelucheck {
namespace {

struct Outcome {
  int code = -1;
  std::string out, err;
  std::vector<std::string> lines() const {
    std::vector<std::string> v;
    std::istringstream in(out);
    for (std::string l; std::getline(in, l);) v.push_back(l);
    return v;
  }
};

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs `gelucheck ARGS` with `input` on stdin; captures stdout, stderr and the exit code.
Outcome gelucheck(const std::string& args, const std::string& input = "") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() /
                       ("gelucheck_cli_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "in", std::ios::binary) << input;
  const std::string cmd = std::string("'") + GELUCHECK_BIN + "' " + args + " <'" +
                          (dir / "in").string() + "' >'" + (dir / "out").string() + "' 2>'" +
                          (dir / "err").string() + "'";
  Outcome r;
  r.code = testing::shell(cmd).code;
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  fs::remove_all(dir);
  return r;
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> f;
  std::size_t start = 0;
  for (std::size_t i; (i = line.find('\t', start)) != std::string::npos; start = i + 1)
    f.push_back(line.substr(start, i - start));
  f.push_back(line.substr(start));
  return f;
}

// One output line must be exactly: hex(x used) TAB hex(expected) TAB a decimal that reads back
// (rounded to fmt) as expected, with at most the digits fmt needs.
void expect_line(const std::string& line, double x_used, double expected, Format fmt) {
  const auto f = split_tabs(line);
  ASSERT_EQ(f.size(), 3u) << "line: " << line;
  EXPECT_EQ(f[0], hexfloat(x_used)) << "line: " << line;
  EXPECT_EQ(f[1], hexfloat(expected)) << "x = " << hexfloat(x_used);
  const std::optional<double> back = parse_real(f[2]);
  ASSERT_TRUE(back.has_value()) << "decimal field: " << f[2];
  EXPECT_TRUE(same_bits(round_to_format(*back, fmt), expected))
      << "decimal " << f[2] << " does not round-trip to " << hexfloat(expected);
  const int max_digits = fmt == Format::binary64 ? 17 : fmt == Format::binary32 ? 9
                         : fmt == Format::binary16 ? 5 : 4;
  int digits = 0;
  bool leading = true;
  for (char c : f[2].substr(0, f[2].find_first_of("eE"))) {
    if (c < '0' || c > '9') continue;
    if (c != '0') leading = false;
    if (!leading) ++digits;
  }
  EXPECT_LE(digits, max_digits) << f[2];
}

TEST(CliEval, GeluNewTableThroughEvalWithDefaults) {
  // Defaults: --impl reference --form tanh --quantity value --format binary64.
  const double xs[] = {-3, -1, 0, 0.5, 1, 2};
  const double table[] = {-0.00364, -0.15881, 0.00000, 0.34571, 0.84119, 1.95460};  // gelu_new's
  const Outcome r = gelucheck("eval", "-3\n-1\n0\n0.5\n1\n2\n");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto lines = r.lines();
  ASSERT_EQ(lines.size(), 6u) << r.out;
  for (int i = 0; i < 6; ++i) {
    const double want = ref::correctly_rounded(Form::tanh, Quantity::value, xs[i], Format::binary64);
    expect_line(lines[i], xs[i], want, Format::binary64);
    EXPECT_LE(std::fabs(std::strtod(split_tabs(lines[i])[1].c_str(), nullptr) - table[i]), 0.5e-5);
  }
  EXPECT_EQ(lines[2], "0x0p+0\t0x0p+0\t0");  // by hand: f(0) = 0 exactly
}

TEST(CliEval, EveryFormQuantityAndFormatAgainstTheReference) {
  const std::string input = "-38.5\n-21\n-0.7525\n-0x1.8p+1\n1e-310\n2.6989\n0.1\n7\n1e300\n";
  const double xs[] = {-38.5, -21, -0.7525, -3, 1e-310, 2.6989, 0.1, 7, 1e300};
  for (Form f : {Form::tanh, Form::erf})
    for (Quantity q : {Quantity::value, Quantity::derivative})
      for (Format fmt : {Format::binary64, Format::binary32, Format::binary16, Format::bfloat16}) {
        const Outcome r = gelucheck(std::string("eval --form ") + std::string(name(f)) +
                                    " --quantity " + std::string(name(q)) + " --format " +
                                    std::string(name(fmt)),
                                input);
        ASSERT_EQ(r.code, 0) << r.err;
        const auto lines = r.lines();
        ASSERT_EQ(lines.size(), 9u) << r.out;
        for (int i = 0; i < 9; ++i) {
          const double x = round_to_format(xs[i], fmt);
          expect_line(lines[i], x, ref::correctly_rounded(f, q, x, fmt), fmt);
        }
      }
}

TEST(CliEval, InputsAreConvertedToTheFormatFirst) {
  // By hand: 0.1 = 0x1.999999…p-4; to 11 bits 0x1.998p-4 (the dropped bits 0x0.0019… < half),
  // to 8 bits 0x1.9ap-4 (0x1.99999 → 1.1001101 after rounding up the 0.1001… tail), to 24 bits
  // 0x1.99999ap-4. 1e6 overflows binary16 (max 65504) to inf; 65519 rounds to 65504 in it.
  EXPECT_EQ(split_tabs(gelucheck("eval --format binary16", "0.1\n").lines().at(0))[0], "0x1.998p-4");
  EXPECT_EQ(split_tabs(gelucheck("eval --format bfloat16", "0.1\n").lines().at(0))[0], "0x1.9ap-4");
  EXPECT_EQ(split_tabs(gelucheck("eval --format binary32", "0.1\n").lines().at(0))[0],
            "0x1.99999ap-4");
  EXPECT_EQ(gelucheck("eval --format binary16", "1e6\n").out, "inf\tinf\tinf\n");
  EXPECT_EQ(split_tabs(gelucheck("eval --format binary16", "65519\n").lines().at(0))[0],
            "0x1.ffcp+15");
  // Result decimal field for binary16 uses at most 5 digits: f(1) = 0.841… → 0x1.aecp-1.
  const auto f = split_tabs(gelucheck("eval --format binary16", "1\n").lines().at(0));
  EXPECT_EQ(f[1], hexfloat(ref::correctly_rounded(Form::tanh, Quantity::value, 1.0,
                                                  Format::binary16)));
  EXPECT_LE(f[2].size(), 7u) << f[2];
}

TEST(CliEval, InputsAreRoundedOnceFromTheTextNotViaBinary64) {
  // By hand (docs/cli.md: the nearest value of the format to the number written):
  // 1 + 2^-24 = 1.000000059604644775390625 is the binary32 midpoint of 1 and 1 + 2^-23, and the
  // string is 1e-32 above it → 1 + 2^-23. Via binary64 it would land on the midpoint → 1.
  // 1 + 2^-11 = 1.00048828125 is the binary16 midpoint of 1 and 1 + 2^-10; 1e-26 above → up.
  // 0x1.000001000000001p+0 has 60 significant bits: 1 + 2^-24 + 2^-60, above the midpoint.
  // 65520 is the binary16 midpoint of 65504 and 2^16 (= overflow): ties to even → inf; just
  // below it → 65504. An exact decimal midpoint 1.000000178813934326171875 = 1 + 3·2^-24 ties
  // to the even 1 + 2^-22. bfloat16: 1 + 2^-8 + 2^-60 → 1 + 2^-7.
  struct Case { const char* fmt; const char* in; double x; };
  const Case cases[] = {
      {"binary32", "1.00000005960464477539062500000001", 0x1.000002p+0},
      {"binary32", "1.000000059604644775390625", 1.0},
      {"binary32", "1.000000178813934326171875", 0x1.000004p+0},
      {"binary32", "0x1.000001000000001p+0", 0x1.000002p+0},
      {"binary32", "-0x1.000001000000001p+0", -0x1.000002p+0},
      {"binary16", "1.00048828125000000000000001", 0x1.004p+0},
      {"binary16", "1.00048828124999999999999999", 1.0},
      {"binary16", "65520", INFINITY},
      {"binary16", "65519.999999999999999999", 65504.0},
      {"binary16", "-65519.999999999999999999", -65504.0},
      {"bfloat16", "0x1.010000000000001p+0", 0x1.02p+0},
  };
  for (const Case& c : cases) {
    const Format fmt = *parse_format(c.fmt);
    const Outcome r = gelucheck(std::string("eval --format ") + c.fmt, std::string(c.in) + "\n");
    ASSERT_EQ(r.code, 0) << c.in << ": " << r.err;
    const auto lines = r.lines();
    ASSERT_EQ(lines.size(), 1u) << r.out;
    SCOPED_TRACE(std::string(c.fmt) + " " + c.in);
    expect_line(lines[0], c.x, ref::correctly_rounded(Form::tanh, Quantity::value, c.x, fmt), fmt);
  }
  // binary64 is unchanged: the input is the nearest double (1 + 2^-53 ties to 1; above → up).
  const Outcome d = gelucheck("eval", "1.00000000000000011102230246251565404236316680908203125\n"
                                      "1.000000000000000111022302462515654042363166809082031251\n");
  ASSERT_EQ(d.code, 0) << d.err;
  ASSERT_EQ(d.lines().size(), 2u);
  EXPECT_EQ(split_tabs(d.lines()[0])[0], "0x1p+0");
  EXPECT_EQ(split_tabs(d.lines()[1])[0], "0x1.0000000000001p+0");
}

TEST(CliEval, CrlfBadLineIsQuotedWithoutTheCarriageReturn) {
  const Outcome r = gelucheck("eval", "abc\r\n1\r\n");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("line 1: cannot read \"abc\" as a number"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
  ASSERT_EQ(r.lines().size(), 1u) << r.out;
  EXPECT_EQ(split_tabs(r.lines()[0])[0], "0x1p+0");
}

TEST(CliEval, BadLinesAreQuotedWithEveryControlByteEscaped) {
  // NUL (which once ended the quote), ESC (a terminal colour sequence), DEL, a byte above 0x7f,
  // a tab, a quote and a backslash: each shown as an escape, none raw on stderr.
  const std::string bad = std::string("a\0b", 3) + "\x1b[31m" + "\x7f" + "\xff" + "\t\"\\z";
  const Outcome r = gelucheck("eval", bad + "\n1\n");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("line 1: cannot read \"a\\0b\\x1b[31m\\x7f\\xff\\t\\\"\\\\z\" as a number"),
            std::string::npos) << r.err;
  for (char c : r.err) EXPECT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7f)) << "raw byte " << int(c);
  EXPECT_EQ(r.lines().size(), 1u);  // and eval went on
}

TEST(CliEval, LongBadLinesAreCut) {
  // 1 MB of garbage is quoted by its first 200 bytes and its length, not echoed whole; a line
  // beyond the 1 MiB kept is bad too, and the next line is still read.
  const std::string mb(1000000, 'x'), over(3u << 20, '7');
  const Outcome r = gelucheck("eval", mb + "\n" + over + "\n2\n");
  EXPECT_EQ(r.code, 1);
  EXPECT_LT(r.err.size(), 1000u);
  EXPECT_NE(r.err.find("line 1: cannot read \"" + std::string(200, 'x') + "\"... (1000000 bytes)"),
            std::string::npos) << r.err.substr(0, 500);
  EXPECT_NE(r.err.find("line 2: cannot read \"" + std::string(200, '7') + "\"... (3145728 bytes)"),
            std::string::npos) << r.err.substr(0, 500);
  ASSERT_EQ(r.lines().size(), 1u);
  EXPECT_EQ(split_tabs(r.lines()[0])[0], "0x1p+1");
}

TEST(CliEval, AReadErrorOnStdinIsExitThree) {
  // A directory (read() fails with EISDIR) and a closed descriptor: not an empty input.
  for (const char* redirect : {"</", "<&-"}) {
    const std::string err = (std::filesystem::temp_directory_path() /
                             ("gelucheck_cli_stdin_" + std::to_string(::getpid()))).string();
    const std::string cmd = std::string("'") + GELUCHECK_BIN + "' eval " + redirect + " 2>'" + err + "'";
    const testing::ShellOutcome o = testing::shell(cmd);
    const std::string msg = slurp(err);
    std::filesystem::remove(err);
    EXPECT_EQ(o.code, 3) << redirect << ": " << o.why << ": " << msg;
    EXPECT_NE(msg.find("cannot read standard input"), std::string::npos) << redirect << ": " << msg;
  }
}

TEST(CliEval, StopsAtTheFirstOutputFailure) {
  // Standard output is /dev/full; we feed an endless stream of inputs through a pipe. eval must
  // stop (its end of the pipe closes) after the first failed write, that is within its stdio
  // buffer and the pipe's (1 MiB: Child asks for it): far fewer than the 16 MB we are ready to
  // send.
  gelucheck::process::Child c({{"/bin/sh", "-c", std::string("exec '") + GELUCHECK_BIN +
                                                       "' eval --form erf >/dev/full"}, "", {}},
                              "/dev/null");
  const std::string chunk = [] {
    std::string s;
    for (int i = 0; i < 1000; ++i) s += "-0.75\n";
    return s;
  }();
  std::size_t sent = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  while (sent < (16u << 20) && c.write_all(chunk.data(), chunk.size(), deadline)) sent += chunk.size();
  EXPECT_EQ(c.error(), "end of stream") << "eval read " << sent << " bytes and is still reading";
  EXPECT_LT(sent, 2u << 20);
  const gelucheck::process::Exit e = c.finish();
  EXPECT_EQ(e.shell_status(), 3) << e.why;
}

TEST(CliUsage, UnknownSubcommandIsNamed) {
  for (const char* word : {"bogus", "evl", "--bogus"}) {
    const Outcome r = gelucheck(word);
    EXPECT_EQ(r.code, 2) << word;
    EXPECT_EQ(r.out, "") << word;
    EXPECT_NE(r.err.find(std::string("\"") + word + "\""), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("eval, report"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("A subcommand is required"), std::string::npos) << r.err;
  }
  // No word at all is still CLI11's message.
  EXPECT_NE(gelucheck("").err.find("A subcommand is required"), std::string::npos);
}

TEST(CliUsage, UnwritableStdoutIsAFailure) {
  // /dev/full accepts the open and fails every write with ENOSPC: help, version and eval's
  // results must not be reported as written (exit 3, a message on stderr).
  ASSERT_TRUE(std::filesystem::exists("/dev/full"));
  for (const char* args : {"--help", "--version", "eval --help", "eval"}) {
    const std::string err = (std::filesystem::temp_directory_path() /
                             ("gelucheck_cli_full_" + std::to_string(::getpid()))).string();
    const std::string cmd = std::string("echo 1 | '") + GELUCHECK_BIN + "' " + args +
                            " >/dev/full 2>'" + err + "'";
    const testing::ShellOutcome o = testing::shell(cmd);
    const std::string msg = slurp(err);
    std::filesystem::remove(err);
    EXPECT_EQ(o.code, 3) << args << ": " << o.why << ": " << msg;
    EXPECT_NE(msg, "") << args;
  }
}

TEST(CliEval, SpecialInputs) {
  // Limits by hand: f(+inf) = +inf, f(−inf) = −0 (from below), NaN → NaN; f(±0) = ±0;
  // f′(±inf) = 1 / −0, f′(0) = 1/2 exactly.
  const Outcome v = gelucheck("eval", "inf\n-inf\nnan\n-0\n+inf\nINF\n");
  ASSERT_EQ(v.code, 0) << v.err;
  EXPECT_EQ(v.out,
            "inf\tinf\tinf\n-inf\t-0x0p+0\t-0\nnan\tnan\tnan\n-0x0p+0\t-0x0p+0\t-0\n"
            "inf\tinf\tinf\ninf\tinf\tinf\n");
  const Outcome d = gelucheck("eval --quantity derivative --form erf", "inf\n-inf\n0\n");
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_EQ(d.out, "inf\t0x1p+0\t1\n-inf\t-0x0p+0\t-0\n0x0p+0\t0x1p-1\t0.5\n");
}

TEST(CliEval, AcceptedSpellings) {
  // Hex float, blanks around, CRLF line ends, exponent forms: all the same number 3 → -3.
  const Outcome r = gelucheck("eval", "-0x1.8p+1\n  -3  \n-3\r\n-3e0\n-3.000\n");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto lines = r.lines();
  ASSERT_EQ(lines.size(), 5u);
  for (const auto& l : lines) EXPECT_EQ(l, lines[0]);
  EXPECT_EQ(split_tabs(lines[0])[0], "-0x1.8p+1");
}

TEST(CliEval, BadLinesNamedOnStderrSkippedAndExitOne) {
  // Line 3 and line 6 are bad; eval goes on, prints the good lines in order, exits 1.
  const Outcome r = gelucheck("eval", "1\n\n1.5x\n# a comment\n   \nbogus text\n2\n");
  EXPECT_EQ(r.code, 1);
  const auto lines = r.lines();
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_EQ(split_tabs(lines[0])[0], "0x1p+0");
  EXPECT_EQ(split_tabs(lines[1])[0], "0x1p+1");
  EXPECT_NE(r.err.find("line 3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\"1.5x\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("line 6"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\"bogus text\""), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("line 2"), std::string::npos) << "an empty line is not an error: " << r.err;
  // Only blank and comment lines: no output, success.
  const Outcome empty = gelucheck("eval", "\n# nothing\n\n");
  EXPECT_EQ(empty.code, 0);
  EXPECT_EQ(empty.out, "");
  EXPECT_EQ(empty.err, "");
}

TEST(CliUsage, UnknownOptionsAndBadValuesAreUsageErrors) {
  const Outcome unknown = gelucheck("eval --bogus", "1\n");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_EQ(unknown.out, "");
  EXPECT_NE(unknown.err.find("--bogus"), std::string::npos) << unknown.err;
  const Outcome form = gelucheck("eval --form foo", "1\n");
  EXPECT_EQ(form.code, 2);
  EXPECT_EQ(form.out, "");
  EXPECT_NE(form.err.find("foo"), std::string::npos) << form.err;
  for (const char* args : {"eval --impl fast", "eval --quantity slope", "eval --format binary128",
                           "", "nosuchcommand", "eval --form"}) {
    const Outcome r = gelucheck(args, "1\n");
    EXPECT_EQ(r.code, 2) << "gelucheck " << args << ": " << r.err;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_NE(r.err, "") << args;
  }
}

TEST(CliUsage, HelpOnEverySubcommandAndVersion) {
  for (const char* args : {"--help", "eval --help", "report --help", "-h", "eval -h"}) {
    const Outcome r = gelucheck(args);
    EXPECT_EQ(r.code, 0) << args << ": " << r.err;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << args << ": " << r.out;
  }
  const Outcome eval_help = gelucheck("eval --help");
  for (const char* needle : {"--impl", "--subject", "--bits", "backward", "--form", "--quantity",
                             "--format", "reference", "double rounding", "binary16", "16256",
                             "Exit codes"})
    EXPECT_NE(eval_help.out.find(needle), std::string::npos) << needle;
  const Outcome v = gelucheck("--version");
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.out, std::string("gelucheck ") + GELUCHECK_VERSION + "\n");
}

TEST(CliEval, LibraryImplementationsAreWiredThrough) {
  // eval --impl accurate|naive must print exactly what the library returns: double for
  // binary64, float for binary32, and float then rounded to the format for the small ones.
  const double xs[] = {-20, -3, -0.75, 0.5, 2, 10};
  std::string input;
  for (double x : xs) input += hexfloat(x) + "\n";
  for (Path path : {Path::accurate, Path::naive})
    for (Form f : {Form::tanh, Form::erf})
      for (Quantity q : {Quantity::value, Quantity::derivative})
        for (Format fmt : {Format::binary64, Format::binary32, Format::binary16, Format::bfloat16}) {
          const Outcome r = gelucheck(std::string("eval --impl ") +
                                      (path == Path::accurate ? "accurate" : "naive") +
                                      " --form " + std::string(name(f)) + " --quantity " +
                                      std::string(name(q)) + " --format " + std::string(name(fmt)),
                                  input);
          ASSERT_EQ(r.code, 0) << r.err;
          const auto lines = r.lines();
          ASSERT_EQ(lines.size(), 6u);
          for (int i = 0; i < 6; ++i) {
            const double x = round_to_format(xs[i], fmt);
            double want;
            if (fmt == Format::binary64) {
              want = q == Quantity::value ? scalar(f, x, path) : scalar_deriv(f, x, path);
            } else {
              const float xf = static_cast<float>(x);
              const float y = q == Quantity::value ? scalar(f, xf, path) : scalar_deriv(f, xf, path);
              want = round_to_format(static_cast<double>(y), fmt);
            }
            expect_line(lines[i], x, want, fmt);
          }
        }
}

// ---------------------------------------------------------------------------------------------
// eval through the subjects: --subject, --bits, the backward, findings.

std::string formats_args(Format fmt) { return std::string(" --format ") + std::string(name(fmt)); }

TEST(CliEvalSubject, SubjectAndImplAreTheSame) {
  // --impl X is --subject X for the built-ins, bit for bit, in every format and quantity; the
  // default is the reference.
  const std::string input = "-38.5\n-3\n-0.75\n0\n1e-310\n0.5\n7\n";
  for (const char* who : {"reference", "accurate", "naive"})
    for (const char* q : {"value", "derivative"})
      for (Format fmt : all_formats) {
        const std::string rest = std::string(" --quantity ") + q + formats_args(fmt);
        const Outcome a = gelucheck(std::string("eval --subject ") + who + rest, input);
        const Outcome b = gelucheck(std::string("eval --impl ") + who + rest, input);
        ASSERT_EQ(a.code, 0) << a.err;
        EXPECT_EQ(a.out, b.out) << who << rest;
        EXPECT_EQ(a.lines().size(), 7u);
        if (std::string(who) == "reference") {
          EXPECT_EQ(gelucheck("eval" + rest, input).out, a.out);
        }
      }
  // Both: a usage error, nothing evaluated.
  const Outcome both = gelucheck("eval --subject accurate --impl naive", "1\n");
  EXPECT_EQ(both.code, 2);
  EXPECT_EQ(both.out, "");
  EXPECT_NE(both.err.find("--subject"), std::string::npos) << both.err;
}

TEST(CliEvalSubject, SpecsThatCannotBeOpened) {
  // Malformed: usage (2); well-formed but not there: unavailable (3); each with the message.
  const Outcome bad = gelucheck("eval --subject bogus:x", "1\n");
  EXPECT_EQ(bad.code, 2) << bad.err;
  EXPECT_NE(bad.err.find("bogus:x"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.out, "");
  const Outcome gone = gelucheck("eval --subject lib:/nonexistent/libgelu.so", "1\n");
  EXPECT_EQ(gone.code, 3) << gone.err;
  EXPECT_NE(gone.err.find("/nonexistent/libgelu.so"), std::string::npos) << gone.err;
  EXPECT_EQ(gone.out, "");
}

TEST(CliEvalSubject, ChunksKeepTheOrderAndTheMessages) {
  // 9000 inputs (three chunks of at most 4096), a bad line on each side of the first boundary and
  // one in the last chunk: every good line in order, each bad line named, whatever the chunks.
  // By hand: 2^k is exact in binary64, and f(x) = x for these k >= 6 (tanh u = 1 to binary64:
  // 1 - tanh u < 2^-54 once u > 19), so each good line is "2^k  2^k" again.
  std::string in;
  std::vector<long> bad_lines;
  long lineno = 0;
  for (int i = 0; i < 9000; ++i) {
    ++lineno;
    if (i == 4095 || i == 4096 || i == 8999) {
      in += "oops\n";
      bad_lines.push_back(lineno);
      continue;
    }
    in += hexfloat(std::ldexp(1.0, 6 + i % 900)) + "\n";
  }
  const Outcome r = gelucheck("eval --subject accurate", in);
  EXPECT_EQ(r.code, 1);
  const std::vector<std::string> lines = r.lines();
  ASSERT_EQ(lines.size(), 9000u - bad_lines.size());
  std::size_t k = 0;
  for (int i = 0; i < 9000; ++i) {
    if (i == 4095 || i == 4096 || i == 8999) continue;
    const std::string x = hexfloat(std::ldexp(1.0, 6 + i % 900));
    EXPECT_EQ(lines[k++].substr(0, 2 * x.size() + 2), x + "\t" + x + "\t") << "line " << i + 1;
  }
  std::size_t at = 0;
  for (long b : bad_lines) {
    const std::size_t p = r.err.find("line " + std::to_string(b) + ": cannot read \"oops\"", at);
    ASSERT_NE(p, std::string::npos) << "line " << b << " in order: " << r.err;
    at = p;
  }
}

// Bit patterns by hand: sign, exponent, fraction of each format.
struct Pattern {
  const char* text;
  double value;
};

TEST(CliEvalBits, PatternsAreReadAndResultsWrittenInEveryFormat) {
  struct Case {
    Format fmt;
    std::vector<Pattern> in;
    const char* zero;      // the pattern of +0, of -0, of +inf and of 1/2 (f'(0) = 1/2)
    const char* minus_zero;
    const char* inf;
    const char* half;
  };
  const Case cases[] = {
      {Format::bfloat16,
       {{"0x3f80", 1.0}, {"0xbf80", -1.0}, {"0x4040", 3.0}, {"0x0001", 0x1p-133},
        {"0x7f7f", 0x1.fep+127}, {"0x8000", -0.0}, {"0x7f80", INFINITY}, {"0xff80", -INFINITY},
        {"0X3F80", 1.0}, {"  0x3f80  ", 1.0}},
       "0x0000", "0x8000", "0x7f80", "0x3f00"},
      {Format::binary16,
       {{"0x3c00", 1.0}, {"0xbc00", -1.0}, {"0x4200", 3.0}, {"0x0001", 0x1p-24},
        {"0x7bff", 65504.0}, {"0x8000", -0.0}, {"0x7c00", INFINITY}, {"0xfc00", -INFINITY}},
       "0x0000", "0x8000", "0x7c00", "0x3800"},
      {Format::binary32,
       {{"0x3f800000", 1.0}, {"0xbf800000", -1.0}, {"0x40400000", 3.0}, {"0x00000001", 0x1p-149},
        {"0x7f800000", INFINITY}, {"0xff800000", -INFINITY}, {"0x80000000", -0.0}},
       "0x00000000", "0x80000000", "0x7f800000", "0x3f000000"},
      {Format::binary64,
       {{"0x3ff0000000000000", 1.0}, {"0xbff0000000000000", -1.0}, {"0x4008000000000000", 3.0},
        {"0x0000000000000001", 0x1p-1074}, {"0x7ff0000000000000", INFINITY},
        {"0xfff0000000000000", -INFINITY}, {"0x8000000000000000", -0.0}},
       "0x0000000000000000", "0x8000000000000000", "0x7ff0000000000000", "0x3fe0000000000000"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(name(c.fmt)));
    std::string input;
    for (const Pattern& p : c.in) input += std::string(p.text) + "\n";
    const Outcome r = gelucheck("eval --bits" + formats_args(c.fmt), input);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const auto lines = r.lines();
    ASSERT_EQ(lines.size(), c.in.size()) << r.out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const auto f = split_tabs(lines[i]);
      ASSERT_EQ(f.size(), 4u) << lines[i];
      EXPECT_EQ(f[0], hexfloat(c.in[i].value)) << c.in[i].text;
      const double want = ref::correctly_rounded(Form::tanh, Quantity::value, c.in[i].value, c.fmt);
      EXPECT_EQ(f[1], hexfloat(want)) << c.in[i].text;
      // The results' patterns, through the encoding's one home.
      EXPECT_EQ(std::strtoull(f[3].c_str(), nullptr, 16), *to_bits(want, c.fmt)) << lines[i];
      EXPECT_EQ(f[3].size(), 2 + 2 * (c.fmt == Format::binary64 ? 8u : c.fmt == Format::binary32 ? 4u : 2u));
    }
    // Results by hand: f(+0) = +0, f(-0) = -0, f(+inf) = +inf, f(-inf) = -0, f'(0) = 1/2.
    const auto bits_of = [&](const std::string& args, const std::string& in) {
      const Outcome o = gelucheck("eval --bits" + formats_args(c.fmt) + args, in);
      EXPECT_EQ(o.code, 0) << o.err;
      return o.lines().empty() ? std::string() : split_tabs(o.lines()[0]).back();
    };
    EXPECT_EQ(bits_of("", std::string(c.zero) + "\n"), c.zero);
    EXPECT_EQ(bits_of("", std::string(c.minus_zero) + "\n"), c.minus_zero);
    EXPECT_EQ(bits_of("", std::string(c.inf) + "\n"), c.inf);
    EXPECT_EQ(bits_of("", "-inf\n"), c.minus_zero);
    EXPECT_EQ(bits_of(" --quantity derivative", std::string(c.zero) + "\n"), c.half);
    // Round trip: the results' patterns read back are the results.
    std::string again;
    for (const std::string& l : lines) again += split_tabs(l)[3] + "\n";
    const Outcome back = gelucheck("eval --bits" + formats_args(c.fmt), again);
    ASSERT_EQ(back.code, 0) << back.err;
    ASSERT_EQ(back.lines().size(), lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i)
      EXPECT_EQ(split_tabs(back.lines()[i])[0], split_tabs(lines[i])[1]) << back.lines()[i];
  }
}

TEST(CliEvalBits, WhatIsAPatternAndWhatIsANumber) {
  // Under --bits: hex floats (a '.' or a 'p') and decimals are still numbers; 0x with another
  // number of digits, or with a sign, is a bad line that says why.
  const Outcome r = gelucheck("eval --bits --format bfloat16",
                              "0x1.8p+1\n3\n0x3f8\n-0x3f80\n0x3f800\n0x3f80\n");
  EXPECT_EQ(r.code, 1);
  const auto lines = r.lines();
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_EQ(split_tabs(lines[0])[0], "0x1.8p+1");
  EXPECT_EQ(split_tabs(lines[1])[0], "0x1.8p+1");
  EXPECT_EQ(split_tabs(lines[2])[0], "0x1p+0");
  for (const char* l : {"line 3", "line 4", "line 5"})
    EXPECT_NE(r.err.find(l), std::string::npos) << l << ": " << r.err;
  EXPECT_NE(r.err.find("exactly 4 hex digits"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no sign"), std::string::npos) << r.err;
  // Without --bits 0x3f80 is the number 16256 = 0x1.fcp+13, as ever, and said once on stderr.
  const Outcome n = gelucheck("eval --format bfloat16", "0x3f80\n0x4040\n");
  EXPECT_EQ(n.code, 0) << n.err;
  ASSERT_EQ(n.lines().size(), 2u);
  EXPECT_EQ(split_tabs(n.lines()[0])[0], "0x1.fcp+13");
  EXPECT_EQ(split_tabs(n.lines()[0]).size(), 3u);
  EXPECT_NE(n.err.find("line 1: \"0x3f80\" is read as the number 16256"), std::string::npos) << n.err;
  EXPECT_EQ(n.err.find("line 2"), std::string::npos) << "said once: " << n.err;
  // In binary64 a short hex integer is not taken for a pattern: no word.
  EXPECT_EQ(gelucheck("eval", "0x10\n").err, "");
  EXPECT_NE(gelucheck("eval", "0x3ff0000000000000\n").err.find("--bits"), std::string::npos);
}

TEST(CliEvalBackward, DyColumnAgainstTheReference) {
  // dy powers of two: dy·f'(x) is exact, so RN(dy·f'(x)) = dy·RN(f'(x)) where nothing over- or
  // underflows; dy = 1 is the derivative's line exactly.
  const double xs[] = {-3, -0.75, 0, 0.5, 2};
  const double dys[] = {1, 2, -0.5, 0.25, -4};
  for (Form form : {Form::tanh, Form::erf})
    for (Format fmt : all_formats) {
      std::string in, deriv_in;
      for (double x : xs)
        for (double dy : dys) in += hexfloat(x) + " \t" + hexfloat(dy) + "\n";
      for (double x : xs) deriv_in += hexfloat(x) + "\n";
      const std::string args = std::string(" --form ") + std::string(name(form)) + formats_args(fmt);
      const Outcome r = gelucheck("eval --quantity backward" + args, in);
      ASSERT_EQ(r.code, 0) << r.err;
      const auto lines = r.lines();
      ASSERT_EQ(lines.size(), 25u) << r.out;
      const auto deriv = gelucheck("eval --quantity derivative" + args, deriv_in).lines();
      ASSERT_EQ(deriv.size(), 5u);
      for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j) {
          const auto f = split_tabs(lines[static_cast<std::size_t>(i * 5 + j)]);
          ASSERT_EQ(f.size(), 4u);
          EXPECT_EQ(f[0], hexfloat(xs[i]));
          EXPECT_EQ(f[1], hexfloat(dys[j]));
          const double d = ref::correctly_rounded(form, Quantity::derivative, xs[i], fmt);
          EXPECT_EQ(f[2], hexfloat(dys[j] * d)) << "x = " << xs[i] << ", dy = " << dys[j];
          if (dys[j] == 1) {
            const auto g = split_tabs(deriv[static_cast<std::size_t>(i)]);
            EXPECT_EQ(f[2] + "\t" + f[3], g[1] + "\t" + g[2]);
          }
        }
    }
  // --bits: the dy column may be a pattern too, and the result's pattern comes last.
  // By hand: f'(0) = 1/2, dy = 0x4000 = 2 in bfloat16 → 1 = 0x3f80.
  const Outcome b = gelucheck("eval --quantity backward --bits --format bfloat16", "0x0000 0x4000\n");
  EXPECT_EQ(b.out, "0x0p+0\t0x1p+1\t0x1p+0\t1\t0x3f80\n") << b.err;
  // One field, three fields, a bad dy: bad lines, eval goes on.
  const Outcome bad = gelucheck("eval --quantity backward", "1\n1 2 3\n1 x\n1 1\n");
  EXPECT_EQ(bad.code, 1);
  EXPECT_EQ(bad.lines().size(), 1u) << bad.out;
  for (const char* l : {"line 1", "line 2", "line 3"})
    EXPECT_NE(bad.err.find(l), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("as x dy"), std::string::npos) << bad.err;
}

TEST(CliEvalFindings, ASubjectsMisbehaviourIsNamedByLine) {
  // broken:writes-input: every result right, the input overwritten: a finding (exit 3), the
  // lines still printed, and a bad line among them still its own message.
  const Outcome w = gelucheck("eval --subject broken:writes-input", "1\nx\n2\n");
  EXPECT_EQ(w.code, 3) << w.err;
  ASSERT_EQ(w.lines().size(), 2u) << w.out;
  expect_line(w.lines()[1], 2, ref::correctly_rounded(Form::tanh, Quantity::value, 2, Format::binary64),
              Format::binary64);
  EXPECT_NE(w.err.find("line 1: broken:writes-input: tanh.forward.f64 wrote_input"), std::string::npos)
      << w.err;
  EXPECT_NE(w.err.find("line 2: cannot read"), std::string::npos) << w.err;
  // broken:lies fails every 16-bit call: each line its own "failed" finding, nothing on stdout;
  // in binary64 it is the library.
  const Outcome l = gelucheck("eval --subject broken:lies --format bfloat16", "1\n-3\n# c\n2\n");
  EXPECT_EQ(l.code, 3);
  EXPECT_EQ(l.out, "");
  for (const char* line : {"line 1: broken:lies: tanh.forward.bf16 failed", "line 2:", "line 4:"})
    EXPECT_NE(l.err.find(line), std::string::npos) << line << ": " << l.err;
  EXPECT_NE(l.err.find("at x = -0x1.8p+1"), std::string::npos) << l.err;
  EXPECT_EQ(gelucheck("eval --subject broken:lies", "1\n").code, 0);
}

TEST(CliEvalFindings, SharedLibraryThroughItsHost) {
  // The test library of the subject tests: the library's accurate path under the ABI, in a
  // child process; its binary32 results are the library's, bit for bit.
  const double xs[] = {-20, -3, -0.75, 0.5, 2, 10};
  std::string input;
  for (double x : xs) input += hexfloat(x) + "\n";
  const Outcome r =
      gelucheck(std::string("eval --subject lib:") + GOOD_LIB + " --format binary32 --form erf", input);
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(r.lines().size(), 6u) << r.out;
  for (int i = 0; i < 6; ++i) {
    const float y = scalar(Form::erf, static_cast<float>(xs[i]), Path::accurate);
    expect_line(r.lines()[static_cast<std::size_t>(i)], xs[i], y, Format::binary32);
  }
  // It has no 16-bit ops: said at once.
  const Outcome n = gelucheck(std::string("eval --subject lib:") + GOOD_LIB + " --format bfloat16", "1\n");
  EXPECT_EQ(n.code, 3);
  EXPECT_NE(n.err.find("does not provide tanh.forward.bf16"), std::string::npos) << n.err;
  // The defective one segfaults at x = 13 in tanh binary64 (and returns y = x elsewhere): that
  // line is a crash finding, the others are printed.
  const Outcome c = gelucheck(std::string("eval --subject lib:") + BAD_LIB, "1\n13\n2\n");
  EXPECT_EQ(c.code, 3) << c.err;
  EXPECT_EQ(c.out, "0x1p+0\t0x1p+0\t1\n0x1p+1\t0x1p+1\t2\n");
  EXPECT_NE(c.err.find("line 2: lib:"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("crashed"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("at x = 0x1.ap+3"), std::string::npos) << c.err;
  // Its binary32 erf writes x[0] when some x is 3, after y = x: a finding, and the results
  // measured all the same (they read NaN when the host dropped them).
  const Outcome w = gelucheck(std::string("eval --subject lib:") + BAD_LIB + " --format binary32 --form erf",
                              "3\n4\n");
  EXPECT_EQ(w.code, 3) << w.err;
  EXPECT_EQ(w.out, "0x1.8p+1\t0x1.8p+1\t3\n0x1p+2\t0x1p+2\t4\n");
  EXPECT_NE(w.err.find("wrote_input"), std::string::npos) << w.err;
}

}  // namespace
}  // namespace gelucheck
