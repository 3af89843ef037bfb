// `gelucheck check SPEC [--claim C]... [--formats f64,f32,bf16,f16] [--functions F,...]
//   [--out DIR] [--gate] [--junit FILE] [--seed S] [--exhaustive [--range LO:HI] [--shard K/N]
//   [--failures N] [--restart] [--checkpoint-every S]]` (a contract, docs/cli.md, docs/subjects.md):
// everything gelucheck knows how to check, on one subject — the accuracy campaign (binary64 and
// binary32 sampled, bfloat16 and binary16 exhaustively), the property suite, the findings of the
// harness (crashes, hangs, writes into inputs) — written as a report like `gelucheck report`'s.
//
// The subject is held to --claim; without it, to what it claims of itself; a subject that claims
// nothing is held to what every framework's own tests demand (Claim::framework_default). Accuracy
// is always measured; only --gate turns a broken claim into exit 4. --exhaustive measures every
// binary32 input instead (cli/exhaustive_command.cpp).
#include <string>
#include <vector>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "gelucheck/report.hpp"
#include "gelucheck/subject.hpp"

namespace gelucheck::cli {
namespace {

struct CheckArgs {
  std::string first;               // SPEC
  std::vector<std::string> spec;   // further words of a cmd: spec, after --
  std::vector<std::string> claims;
  std::string out = "gelucheck-check";
  std::string junit;
  bool gate = false;
  bool exhaustive = false;
  ExhaustiveArgs ex;
};

}  // namespace

std::function<int()> add_check_command(CLI::App& app) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* sub = app.add_subcommand(
      "check", "Check one subject — the library, a shared library (lib:PATH), a program "
               "(cmd:COMMAND...), saved arrays (npy:DIR) — with the accuracy campaign and every "
               "property; write DIR/report.md, DIR/report.html and DIR/report.json");
  sub->add_option("spec", args->first,
                  "The subject: accurate | naive | reference | broken:NAME | a peer (torch, "
                  "onednn, onnxruntime, ggml[:OPTIONS]) | lib:PATH[:MAP] | "
                  "'cmd:COMMAND ARGS...' | npy:DIR (docs/subjects.md). A cmd: spec is one "
                  "argument (quote it), or its words follow a --")
      ->required();
  sub->add_option("words", args->spec, "More words of a cmd: spec (after --)");
  sub->add_option("--claim", args->claims,
                  "What the subject promises: none | cr | faithful | ulp:N | "
                  "allclose:atol=A,rtol=R, for all functions and formats, or FUNCTION[@DT]=CLAIM "
                  "for some (repeatable; later items override earlier ones where they overlap)");
  sub->add_option("--out", args->out,
                  "Directory to write (an existing one is replaced only if empty or a gelucheck "
                  "output holding nothing else; docs/cli.md)")
      ->capture_default_str();
  sub->add_option("--junit", args->junit,
                  "Also write JUnit XML here: a test case per property, per claimed row and per "
                  "finding");
  sub->add_flag("--gate", args->gate,
                "Exit 4 when a claim breaks, a property fails, or the subject crashed, hung or "
                "wrote into its inputs");
  sub->add_flag("--exhaustive", args->exhaustive,
                "Every binary32 input (all 2^32 bit patterns but the NaNs) of the --functions, "
                "instead of the sampled campaign and the property suite; resumes from its "
                "checkpoint beside --out when interrupted (docs/cli.md, \"Exhaustive binary32\")");
  sub->add_option("--range", args->ex.range,
                  "--exhaustive over the bit patterns [LO, HI) only (LO:HI, decimal or 0x-hex), "
                  "for tests and for a look at one region");
  sub->add_option("--shard", args->ex.shard,
                  "--exhaustive: run part K of N (K/N, 1 <= K <= N) and write --out/shard.json; "
                  "`gelucheck merge` makes the report of all N");
  sub->add_option("--failures", args->ex.cap,
                  "--exhaustive: failing inputs listed per function (the counts are complete)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{0}, std::size_t{100000000}));
  sub->add_flag("--restart", args->ex.restart,
                "--exhaustive: discard the checkpoint of an interrupted sweep and start afresh");
  sub->add_option("--checkpoint-every", args->ex.checkpoint_seconds,
                  "--exhaustive: seconds between checkpoints")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0));
  auto apply = add_campaign_options(sub);

  return [args, apply]() -> int {
    report::Options opt;
    if (const std::string why = apply(opt); !why.empty())
      return usage_error("gelucheck check", why);
    std::string spec = args->first;
    if (!args->spec.empty() && spec.rfind("cmd:", 0) != 0)
      return usage_error("gelucheck check", "extra words after the spec \"" + spec +
                                                "\" (only a cmd: spec has words)");
    for (const std::string& w : args->spec) spec += " " + w;
    opt.subjects = {spec};
    opt.claims = args->claims;
    for (const std::string& c : opt.claims) {
      try {
        subject::ClaimSet probe;
        probe.apply(c);
      } catch (const std::invalid_argument& e) {
        return usage_error("gelucheck check", std::string("--claim ") + c + ": " + e.what());
      }
    }
    opt.default_to_framework_claim = true;
    opt.gate_every_subject = true;
    opt.command = "gelucheck check " + spec;
    if (args->exhaustive) {
      opt.command += " --exhaustive";
      return run_exhaustive(opt, args->ex, {args->out, args->junit, args->gate});
    }
    if (!args->ex.range.empty() || !args->ex.shard.empty())
      return usage_error("gelucheck check", "--range and --shard need --exhaustive");
    return run_report(opt, {args->out, args->junit, args->gate});
  };
}

}  // namespace gelucheck::cli
