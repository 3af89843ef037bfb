// `gelucheck diff SPEC_A SPEC_B` and `gelucheck diff PEER --variants` (a contract, docs/cli.md,
// "Differential testing"): two subjects over the same inputs, bit by bit; every input where they
// differ is counted, grouped into regions and runs, the first ones listed, and at each the
// reference says which side is right (gelucheck/diff.hpp). Writes DIR/report.md and
// DIR/report.json (schema gelucheck.diff/1) and, with --junit, JUnit XML.
//
// Exit codes: 0 (identical, or differing without --gate), 2 usage (a bad option, a spec that is
// not a subject, --variants of something that is not a peer, an --out that must not be replaced),
// 3 failure (a subject that cannot be opened, I/O), 4 with --gate when some input differs.
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "gelucheck/diff.hpp"
#include "gelucheck/output_dir.hpp"
#include "gelucheck/render.hpp"
#include "options.hpp"

namespace gelucheck::cli {
namespace {

struct DiffArgs {
  std::vector<std::string> specs;
  bool variants = false, exhaustive = false, gate = false, quiet = false;
  std::string range, out = "gelucheck-diff", junit;
  std::string formats = "f64,f32,bf16,f16";
  std::string functions = "tanh.value,tanh.derivative,erf.value,erf.derivative";
  std::uint64_t seed = report::kDefaultSeed;
  std::size_t points = report::kDefaultPoints;
  unsigned threads = report::kDefaultThreads;
  double timeout = report::kDefaultCallTimeoutSeconds;
};

int run(const DiffArgs& a) {
  namespace d = report::diff;
  d::Options opt;
  if (const std::string why =
          parse_formats_and_functions(a.formats, a.functions, opt.formats, opt.functions);
      !why.empty())
    return usage_error("gelucheck diff", why);
  opt.seed = a.seed;
  opt.points = a.points;
  opt.threads = a.threads;
  opt.call_timeout_seconds = a.timeout;
  opt.progress = !a.quiet && isatty(STDERR_FILENO);
  opt.exhaustive = a.exhaustive;
  if (!a.range.empty()) {
    if (!a.exhaustive) return usage_error("gelucheck diff", "--range needs --exhaustive");
    try {
      opt.range = report::exhaustive::parse_range(a.range);
    } catch (const std::invalid_argument& e) {
      return usage_error("gelucheck diff", std::string("--range: ") + e.what());
    }
  }
  if (a.exhaustive && std::find(opt.formats.begin(), opt.formats.end(), Format::binary32) ==
                          opt.formats.end())
    return usage_error("gelucheck diff",
                       "--exhaustive sweeps binary32: --formats must include f32");
  // The peers run single-threaded unless a variant says otherwise, as in `gelucheck report`:
  // oneDNN's OpenMP reads OMP_NUM_THREADS in its child.
  setenv("OMP_NUM_THREADS", "1", /*overwrite=*/0);
  try {
    if (a.variants) {
      if (a.specs.size() != 1)
        return usage_error("gelucheck diff", "--variants takes one spec, a peer's name");
      const std::vector<std::string> vs = subject::variant_specs(a.specs[0]);
      if (vs.empty())
        return usage_error("gelucheck diff", a.specs[0] + " has no variant this machine can run");
      for (const std::string& v : vs) opt.pairs.emplace_back(a.specs[0], v);
    } else {
      if (a.specs.size() != 2)
        return usage_error("gelucheck diff",
                           "give two specs (gelucheck diff A B), or one peer and --variants");
      opt.pairs.emplace_back(a.specs[0], a.specs[1]);
    }
  } catch (const subject::SpecError& e) {
    std::fprintf(stderr, "gelucheck diff: %s\n", e.what());
    return e.kind == subject::SpecError::Kind::usage ? kExitUsage : kExitFailure;
  }
  opt.command = "gelucheck diff";
  for (const std::string& s : a.specs) opt.command += " " + s;
  if (a.variants) opt.command += " --variants";
  if (a.exhaustive) opt.command += " --exhaustive" + (a.range.empty() ? "" : " --range " + a.range);

  auto say = [](const std::exception& e, int rc) {
    std::fprintf(stderr, "gelucheck diff: %s\n", e.what());
    return rc;
  };
  try {
    output::check(a.out);  // fail before the work, not after it
  } catch (const output::Refused& e) {
    return say(e, kExitUsage);
  } catch (const std::exception& e) {
    return say(e, kExitFailure);
  }
  d::Result r;
  try {
    r = d::run(opt);
  } catch (const subject::SpecError& e) {
    return say(e, e.kind == subject::SpecError::Kind::usage ? kExitUsage : kExitFailure);
  } catch (const std::exception& e) {
    return say(e, kExitFailure);
  }
  try {
    for (const std::string& note : d::write(r, a.out))
      std::fprintf(stderr, "gelucheck diff: %s\n", note.c_str());
  } catch (const output::Refused& e) {
    return say(e, kExitUsage);
  } catch (const std::exception& e) {
    return say(e, kExitFailure);
  }
  if (!a.junit.empty() && !write_whole_file(a.junit, d::to_junit(r))) {
    std::fprintf(stderr, "gelucheck diff: cannot write the JUnit XML to %s\n", a.junit.c_str());
    return kExitFailure;
  }
  std::printf("gelucheck diff: wrote %s/report.md and %s/report.json (schema %s)%s%s\n",
              a.out.c_str(), a.out.c_str(), d::kSchema, a.junit.empty() ? "" : ", JUnit XML to ",
              a.junit.c_str());
  bool differ = false;
  for (const d::Comparison& c : r.comparisons) {
    std::size_t ops = 0, differing = 0;
    for (const d::OpDiff& o : c.ops) {
      if (!o.compared) continue;
      ++ops;
      if (o.disagreements + o.only_a + o.only_b > 0) ++differing;
    }
    differ = differ || !c.identical();
    if (c.identical())
      std::printf("gelucheck diff: %s and %s: identical in %zu op(s)\n", c.a.c_str(), c.b.c_str(),
                  ops);
    else
      std::printf("gelucheck diff: %s and %s: differ at %llu input(s) in %zu of %zu op(s)\n",
                  c.a.c_str(), c.b.c_str(), static_cast<unsigned long long>(c.disagreements()),
                  differing, ops);
  }
  return differ && a.gate ? kExitGate : kExitOk;
}

}  // namespace

std::function<int()> add_diff_command(CLI::App& app) {
  auto a = std::make_shared<DiffArgs>();
  CLI::App* sub = app.add_subcommand(
      "diff", "Compare two subjects bit by bit over the same inputs (or a peer with each of its "
              "variants: --variants); at every input where they differ, the reference says which "
              "side is right; write DIR/report.md and DIR/report.json");
  sub->add_option("specs", a->specs,
                  "SPEC_A SPEC_B (any two subjects, as for `gelucheck check`), or one peer's name "
                  "with --variants")
      ->required();
  sub->add_flag("--variants", a->variants,
                "Compare the peer with each of its variants this machine can run (layouts, "
                "threads, ISA builds; docs/subjects.md, \"Peers\")");
  sub->add_option("--formats", a->formats, "Formats to compare: f64,f32,bf16,f16")
      ->capture_default_str();
  sub->add_option("--functions", a->functions,
                  "Functions to compare: tanh.value,tanh.derivative,erf.value,erf.derivative")
      ->capture_default_str();
  sub->add_flag("--exhaustive", a->exhaustive,
                "binary32: every bit pattern (but the NaNs) instead of the campaign's sample");
  sub->add_option("--range", a->range,
                  "--exhaustive over the bit patterns [LO, HI) only (LO:HI, decimal or 0x-hex)");
  sub->add_option("--seed", a->seed, "Seed of the sampled inputs (the campaign's)")
      ->capture_default_str()
      ->transform(unsigned_word<std::uint64_t>());
  sub->add_option("--points", a->points,
                  "Random + grid inputs per sampled format (the campaign's; hard points and "
                  "specials come on top)")
      ->capture_default_str()
      ->transform(unsigned_word<std::size_t>())
      ->check(CLI::Range(report::kMinPoints, report::kMaxPoints));
  sub->add_option("--threads", a->threads,
                  "Comparisons run at a time (a sweep: threads for the reference at the "
                  "disagreements); results do not depend on it")
      ->capture_default_str()
      ->transform(unsigned_word<unsigned>())
      ->check(CLI::Range(1u, 64u));
  sub->add_option("--timeout", a->timeout,
                  "Seconds one call of an out-of-process subject may take before it is killed")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 86400.0));
  sub->add_option("--out", a->out,
                  "Directory to write (an existing one is replaced only if empty or a gelucheck "
                  "output holding nothing else)")
      ->capture_default_str();
  sub->add_option("--junit", a->junit, "Also write JUnit XML here: a test case per op");
  sub->add_flag("--gate", a->gate, "Exit 4 when the subjects differ at some input");
  sub->add_flag("--quiet", a->quiet, "No progress on stderr (shown only on a terminal anyway)");
  return [a]() -> int { return run(*a); };
}

}  // namespace gelucheck::cli
