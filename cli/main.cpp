// `gelucheck`: the top-level command. It registers the subcommands of commands.hpp and runs the
// chosen one. Exit codes (docs/cli.md): 0 ok; 1 bad input (a line eval could not parse); 2 usage
// (unknown option, bad value, no subcommand — CLI11's message); 3 a computation or I/O failure
// (e.g. the reference reached its precision cap), never a silently wrong answer; 4 report --gate.
#include <cstdio>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "exit_codes.hpp"

int main(int argc, char** argv) {
  namespace cli = gelucheck::cli;
  CLI::App app{"gelucheck: verified numerics and differential testing for the GELU activation.",
               "gelucheck"};
  app.set_version_flag("--version", std::string("gelucheck ") + GELUCHECK_VERSION);
  app.require_subcommand(1);
  app.footer("Exit codes: 0 ok, 1 bad input, 2 usage error, 3 computation or I/O failure;\n"
             "report --gate: 4 when a claimed bound or a property fails.\n"
             "Run `gelucheck SUBCOMMAND --help` for each subcommand; docs/cli.md has the details.");

  // Each add_* call appends one subcommand; remember which action belongs to which.
  std::vector<std::pair<CLI::App*, std::function<int()>>> commands;
  for (auto add : {cli::add_eval_command, cli::add_report_command}) {
    auto action = add(app);
    commands.emplace_back(app.get_subcommands([](CLI::App*) { return true; }).back(),
                          std::move(action));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with exit code 0 in CLI11; every real parse error is a
    // usage error (2) whatever CLI11's own numbering.
    const int rc = app.exit(e);
    return rc == 0 ? cli::kExitOk : cli::kExitUsage;
  }
  try {
    for (auto& [sub, action] : commands)
      if (sub->parsed()) return action();
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "gelucheck: %s\n", e.what());
    return cli::kExitFailure;
  }
  return cli::kExitUsage;  // unreachable: require_subcommand(1)
}
