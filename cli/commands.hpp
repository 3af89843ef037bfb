// The subcommands of `gelucheck`, one file each; main.cpp registers them with CLI11.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace gelucheck::report {
struct Options;
}

namespace gelucheck::cli {
// Each adds its subcommand to `app` and returns the action to run when it is chosen; the action
// returns the process exit code.
std::function<int()> add_eval_command(CLI::App& app);    // cli/eval_command.cpp
std::function<int()> add_report_command(CLI::App& app);  // cli/report_command.cpp
std::function<int()> add_check_command(CLI::App& app);   // cli/check_command.cpp

// report and check: run, write, print the verdict; the exit code (cli/run_report.cpp).
struct RunTargets {
  std::string out;
  std::string junit;  // empty: none
  bool gate = false;
};
int run_report(const report::Options& opt, const RunTargets& t);

// Options both commands take (seed, points, threads, properties, plots, quiet), added to `sub`
// and applied to `opt` by the returned function (which returns a usage message or "").
std::function<std::string(report::Options&)> add_campaign_options(CLI::App* sub);
}  // namespace gelucheck::cli
