// `gelucheck report [--out DIR] [--seed S] [--points N]` (a contract, docs/cli.md): the main job.
// Measures the library's two paths and the real peers found in this installation (PyTorch,
// oneDNN: subject::peer_specs()) against the MPFR reference, with the property suite on each, and
// writes DIR/report.json, DIR/report.md, DIR/report.html and the plots (reports/,
// docs/report.md). The gate counts only the subjects that claim something (the library's accurate
// path): peers are measured, not gated.
//
// Exit codes: those of main.cpp (0 ok, 2 usage — a bad option or value, an --out that must not be
// replaced (gelucheck/output_dir.hpp), a run that does not fit in memory; 3 failure — e.g. --out
// not writable, gnuplot failed), plus kExitGate (4): with --gate, a claim is broken or a property
// failed or could not be run; the report is written all the same.
#include <stdlib.h>
#include <unistd.h>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "options.hpp"
#include "gelucheck/report.hpp"
#include "gelucheck/subject.hpp"

namespace gelucheck::cli {
namespace {

struct CampaignArgs {
  std::uint64_t seed = report::kDefaultSeed;
  std::size_t points = report::kDefaultPoints;
  unsigned threads = report::kDefaultThreads;
  unsigned property_cases = report::kDefaultPropertyCases;
  double timeout = report::kDefaultCallTimeoutSeconds;
  std::string proptests;
  std::string formats = "f64,f32,bf16,f16";
  std::string functions = "tanh.value,tanh.derivative,erf.value,erf.derivative";
  bool no_properties = false, no_plots = false, quiet = false;
};

struct ReportArgs {
  std::string out = "gelucheck-report";
  std::vector<std::string> subjects;
  bool no_peers = false, no_variants = false, gate = false;
};

}  // namespace

std::function<std::string(report::Options&)> add_campaign_options(CLI::App* sub) {
  auto a = std::make_shared<CampaignArgs>();
  sub->add_option("--seed", a->seed,
                  "Seed of the random inputs and of the property suite: an unsigned 64-bit "
                  "integer, decimal or 0x-hex")
      ->capture_default_str()
      ->transform(unsigned_word<std::uint64_t>());
  sub->add_option("--points", a->points,
                  "Random + grid inputs per sampled format (binary64, binary32); hard points and "
                  "specials come on top; the 16-bit formats are always exhaustive (" +
                      std::to_string(report::kMinPoints) + " to " +
                      std::to_string(report::kMaxPoints) + ")")
      ->capture_default_str()
      ->transform(unsigned_word<std::size_t>())
      ->check(CLI::Range(report::kMinPoints, report::kMaxPoints));
  sub->add_option("--threads", a->threads, "Worker threads (results do not depend on it)")
      ->capture_default_str()
      ->transform(unsigned_word<unsigned>())
      ->check(CLI::Range(1u, 64u));
  sub->add_option("--timeout", a->timeout,
                  "Seconds one call of an out-of-process subject may take before it is killed "
                  "(a hang is a finding)")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 86400.0));
  sub->add_option("--proptests", a->proptests,
                  "The property suite's executable (default: the gelucheck_proptests built or "
                  "installed with this gelucheck)");
  sub->add_option("--property-cases", a->property_cases,
                  "RapidCheck cases per property (RC_PARAMS max_success, unless RC_PARAMS is set)")
      ->capture_default_str()
      ->transform(unsigned_word<unsigned>())
      ->check(CLI::Range(1u, 100000000u));
  sub->add_option("--formats", a->formats, "Formats to measure: f64,f32,bf16,f16")
      ->capture_default_str();
  sub->add_option("--functions", a->functions,
                  "Functions to measure: tanh.value,tanh.derivative,erf.value,erf.derivative")
      ->capture_default_str();
  sub->add_flag("--no-properties", a->no_properties, "Do not run the property suite");
  sub->add_flag("--no-plots", a->no_plots, "Do not draw plots (no gnuplot needed)");
  sub->add_flag("--quiet", a->quiet, "No progress on stderr (shown only on a terminal anyway)");
  return [a](report::Options& opt) -> std::string {
    if (a->no_properties && !a->proptests.empty())
      return "--proptests and --no-properties contradict each other";
    opt.seed = a->seed;
    opt.points = a->points;
    opt.threads = a->threads;
    opt.call_timeout_seconds = a->timeout;
    opt.properties = !a->no_properties;
    opt.proptests = a->proptests;
    opt.property_cases = a->property_cases;
    opt.plots = !a->no_plots;
    opt.progress = !a->quiet && isatty(STDERR_FILENO);
    return parse_formats_and_functions(a->formats, a->functions, opt.formats, opt.functions);
  };
}

std::function<int()> add_report_command(CLI::App& app) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* sub = app.add_subcommand(
      "report", "The main job: measure the library's accurate and naive paths and the real peers "
                "of this installation (PyTorch, oneDNN) against the MPFR reference — binary64 and "
                "binary32 sampled, bfloat16 and binary16 exhaustively, both forms, value and "
                "derivative — with the tanh-erf gap and the property suite on each; write "
                "DIR/report.json, DIR/report.md, DIR/report.html and plots");
  sub->add_option("--out", args->out,
                  "Directory to write (an existing one is replaced only if empty or a gelucheck "
                  "output holding nothing else; docs/cli.md)")
      ->capture_default_str();
  sub->add_option("--subject", args->subjects,
                  "Measure these subjects instead of accurate, naive and the peers (repeatable; "
                  "specs as for `gelucheck check`)");
  sub->add_flag("--no-peers", args->no_peers,
                "Leave out the peers (PyTorch, oneDNN, ONNX Runtime, ggml: those installed)");
  sub->add_flag("--no-variants", args->no_variants,
                "Do not compare each peer with its variants (layouts, threads, ISA builds; as "
                "`gelucheck diff PEER --variants`)");
  sub->add_flag("--gate",
                args->gate,
                "Exit 4 when a subject that claims something breaks it, a property fails on it, "
                "or the property suite could not be run");
  auto apply = add_campaign_options(sub);

  return [args, apply]() -> int {
    report::Options opt;
    if (const std::string why = apply(opt); !why.empty()) {
      std::fprintf(stderr, "gelucheck report: %s\n", why.c_str());
      return kExitUsage;
    }
    if (!args->subjects.empty()) {
      if (args->no_peers) {
        std::fprintf(stderr, "gelucheck report: --subject and --no-peers contradict each other\n");
        return kExitUsage;
      }
      opt.subjects = args->subjects;
    } else if (!args->no_peers) {
      // The peers run single-threaded, like the library, unless the user says otherwise: oneDNN's
      // OpenMP reads OMP_NUM_THREADS in its child (the PyTorch adapter is given --threads 1).
      setenv("OMP_NUM_THREADS", "1", /*overwrite=*/0);
      for (const std::string& p : subject::peer_specs()) opt.subjects.push_back(p);
      if (!args->no_variants) opt.variants_of = subject::peer_specs();
    }
    opt.command = "gelucheck report";
    return run_report(opt, {args->out, "", args->gate});
  };
}

}  // namespace gelucheck::cli
