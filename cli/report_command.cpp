// `gelucheck report [--out DIR] [--seed S] [--points N]` (shared DESIGN.md §4, a contract): runs
// the built-in accuracy campaign and writes DIR/report.json, DIR/report.md and the plots
// (reports/, docs/report.md).
//
// Exit codes: those of main.cpp (0 ok, 2 usage — bad option or value, an --out that must not be
// replaced (gelucheck/output_dir.hpp), 3 failure — e.g. --out not writable, gnuplot failed), plus kExitGate (4): with --gate, a claim is broken or a property
// failed or could not be run; the report is written all the same.
#include <unistd.h>

#include <charconv>
#include <memory>
#include <optional>
#include <cstdint>
#include <cstdio>
#include <string>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "gelucheck/output_dir.hpp"
#include "gelucheck/report.hpp"
#include "gelucheck/resources.hpp"

namespace gelucheck::cli {
namespace {

struct ReportArgs {
  std::string out = "gelucheck-report";
  std::string seed = std::to_string(report::kDefaultSeed);
  std::string points = std::to_string(report::kDefaultPoints);
  unsigned threads = 2;
  unsigned property_cases = 1000;
  std::string proptests;
  bool no_properties = false, no_plots = false, gate = false, quiet = false;
  int planted = 0;
};

// An unsigned integer, decimal or 0x-hex, the whole string, within [lo, hi]; nothing else.
std::optional<std::uint64_t> parse_uint(const std::string& s, std::uint64_t lo, std::uint64_t hi) {
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const char* b = s.data() + (hex ? 2 : 0);
  const char* e = s.data() + s.size();
  if (b == e) return std::nullopt;
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(b, e, v, hex ? 16 : 10);
  if (ec != std::errc{} || p != e || v < lo || v > hi) return std::nullopt;
  return v;
}

int usage(const std::string& msg) {
  std::fprintf(stderr, "gelucheck report: %s\n", msg.c_str());
  return kExitUsage;
}

// Refuses (usage, exit 2) a run that will not fit in memory, saying how much it needs; says how
// long it will take when that is long, or on a terminal.
int check_resources(const report::Options& opt, const std::string& points) {
  const report::Estimate est = report::estimate(opt);
  const AvailableMemory avail = available_memory(opt.threads);
  if (est.bytes > avail.bytes)
    return usage("--points " + points + " needs about " + mebibytes(est.bytes) +
                 " of memory (8 bytes per input and about 32 MiB besides), but " + avail.source +
                 " is " + mebibytes(avail.bytes) + "; ask for fewer points");
  constexpr double kLong = 3600;  // a run this long is said even without a terminal
  if (opt.progress || est.seconds > kLong)
    std::fprintf(stderr, "gelucheck report: about %s of work on %u thread(s) (estimated from "
                 "--points; the property suite and the plots come on top), %s of memory%s\n",
                 report::describe_seconds(est.seconds).c_str(), opt.threads,
                 mebibytes(est.bytes).c_str(),
                 est.seconds > kLong ? "; SIGINT or SIGTERM stops it cleanly" : "");
  return kExitOk;
}

}  // namespace

std::function<int()> add_report_command(CLI::App& app) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* sub = app.add_subcommand(
      "report", "Run the accuracy campaign (accurate and naive paths, double and float, both "
                "forms, value and derivative) against the MPFR reference, the tanh-erf gap and "
                "the property suite; write DIR/report.json, DIR/report.md and plots");
  sub->add_option("--out", args->out,
                  "Directory to write (an existing one is replaced only if empty or a gelucheck output holding nothing else; docs/cli.md)")
      ->capture_default_str();
  sub->add_option("--seed", args->seed,
                  "Seed of the random inputs and of the property suite: an unsigned 64-bit "
                  "integer, decimal or 0x-hex")
      ->capture_default_str();
  sub->add_option("--points", args->points,
                  "Random + grid inputs per format (" + std::to_string(report::kMinPoints) +
                      " to " + std::to_string(report::kMaxPoints) +
                      "); hard points and specials come on top")
      ->capture_default_str();
  sub->add_option("--threads", args->threads, "Worker threads (results do not depend on it)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 64u));
  sub->add_option("--proptests", args->proptests,
                  "The property suite's executable (default: the gelucheck_proptests built with "
                  "this gelucheck)");
  sub->add_option("--property-cases", args->property_cases,
                  "RapidCheck cases per property (RC_PARAMS max_success, unless RC_PARAMS is set)")
      ->capture_default_str()
      ->check(CLI::Range(1u, 100000000u));
  sub->add_flag("--no-properties", args->no_properties, "Do not run the property suite");
  sub->add_flag("--no-plots", args->no_plots, "Do not draw plots (no gnuplot needed)");
  sub->add_flag("--gate", args->gate,
                "Exit 4 when the accurate path breaks its claimed bound, a property fails, or "
                "the property suite could not be run");
  sub->add_flag("--quiet", args->quiet, "No progress on stderr (shown only on a terminal anyway)");
  // Hidden (empty group): for the gate's own test; the report says so in large letters.
  sub->add_option("--test-only-plant-regression-ulps", args->planted,
                  "TEST ONLY: move every accurate result this many ulps away from zero")
      ->group("")
      ->check(CLI::Range(0, 1000));

  return [args]() -> int {
    report::Options opt;
    const auto seed = parse_uint(args->seed, 0, UINT64_MAX);
    if (!seed)
      return usage("--seed " + args->seed + ": not an unsigned 64-bit integer (decimal or 0x-hex)");
    const auto points = parse_uint(args->points, report::kMinPoints, report::kMaxPoints);
    if (!points)
      return usage("--points " + args->points + ": not an integer in [" +
                   std::to_string(report::kMinPoints) + ", " + std::to_string(report::kMaxPoints) + "]");
    opt.seed = *seed;
    opt.points = static_cast<std::size_t>(*points);
    opt.threads = args->threads;
    opt.properties = !args->no_properties;
    opt.proptests = args->proptests;
    opt.property_cases = args->property_cases;
    opt.plots = !args->no_plots;
    opt.progress = !args->quiet && isatty(STDERR_FILENO);
    opt.planted_regression_ulps = args->planted;
    if (args->no_properties && !args->proptests.empty())
      return usage("--proptests and --no-properties contradict each other");
    if (const int rc = check_resources(opt, args->points); rc != kExitOk) return rc;

    try {
      report::check_writable(args->out);  // fail before the campaign, not after it
    } catch (const output::Refused& e) {
      return usage(e.what());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gelucheck report: %s\n", e.what());
      return kExitFailure;
    }
    const report::Report rep = report::run(opt);
    try {
      for (const std::string& note : report::write(rep, args->out))
        std::fprintf(stderr, "gelucheck report: %s\n", note.c_str());
    } catch (const output::Refused& e) {
      return usage(e.what());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gelucheck report: %s\n", e.what());
      return kExitFailure;
    }

    std::printf("gelucheck report: wrote %s/report.md (read this), %s/report.json (schema %s)%s\n",
                args->out.c_str(), args->out.c_str(), report::kSchema,
                opt.plots ? " and the plots (*.png)" : "");
    if (rep.properties.status != "run")
      std::printf("gelucheck report: properties NOT run (%s): %s\n", rep.properties.status.c_str(),
                  rep.properties.reason.c_str());
    if (rep.gate_failures.empty()) {
      std::printf("gelucheck report: every claim holds%s\n",
                  rep.properties.status == "run" ? " and every property passed" : "");
      return kExitOk;
    }
    std::FILE* to = args->gate ? stderr : stdout;
    std::fflush(stdout);
    std::fprintf(to, "gelucheck report: %zu gate failure(s):\n", rep.gate_failures.size());
    for (const std::string& f : rep.gate_failures) std::fprintf(to, "  %s\n", f.c_str());
    return args->gate ? kExitGate : kExitOk;
  };
}

}  // namespace gelucheck::cli
