// The subcommands of `gelucheck`, one file each; main.cpp registers them with CLI11.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace gelucheck::cli {
// Each adds its subcommand to `app` and returns the action to run when it is chosen; the action
// returns the process exit code.
std::function<int()> add_eval_command(CLI::App& app);    // cli/eval_command.cpp
std::function<int()> add_report_command(CLI::App& app);  // cli/report_command.cpp
}  // namespace gelucheck::cli
