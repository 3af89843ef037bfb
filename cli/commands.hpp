// The subcommands of `gelucheck`, one file each; main.cpp registers them with CLI11.
#pragma once
#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "gelucheck/exhaustive.hpp"  // its defaults

namespace gelucheck::report {
struct Options;
struct Report;
}

namespace gelucheck::cli {
// Each adds its subcommand to `app` and returns the action to run when it is chosen; the action
// returns the process exit code.
std::function<int()> add_eval_command(CLI::App& app);    // cli/eval_command.cpp
std::function<int()> add_report_command(CLI::App& app);  // cli/report_command.cpp
std::function<int()> add_check_command(CLI::App& app);   // cli/check_command.cpp
std::function<int()> add_merge_command(CLI::App& app);   // cli/merge_command.cpp
std::function<int()> add_diff_command(CLI::App& app);    // cli/diff_command.cpp

// report and check: run, write, print the verdict; the exit code (cli/run_report.cpp).
struct RunTargets {
  std::string out;
  std::string junit;  // empty: none
  bool gate = false;
};
int run_report(const report::Options& opt, const RunTargets& t);
// The second half of run_report, for a report made otherwise (check --exhaustive, merge): writes
// it (and the JUnit XML), prints the verdict, returns the exit code.
int finish_report(const report::Report& rep, const RunTargets& t);

// check --exhaustive (cli/exhaustive_command.cpp): the sweep's own options.
struct ExhaustiveArgs {
  std::string range;  // --range LO:HI (bit patterns); empty: all of binary32
  std::string shard;  // --shard K/N; empty: the whole range
  std::size_t cap = report::exhaustive::kDefaultFailureCap;                  // --failures
  bool restart = false;                                                      // --restart
  double checkpoint_seconds = report::exhaustive::kDefaultCheckpointSeconds;  // --checkpoint-every
};
int run_exhaustive(const report::Options& opt, const ExhaustiveArgs& a, const RunTargets& t);

// Options both commands take (seed, points, threads, properties, plots, quiet), added to `sub`
// and applied to `opt` by the returned function (which returns a usage message or "").
std::function<std::string(report::Options&)> add_campaign_options(CLI::App* sub);

}  // namespace gelucheck::cli
