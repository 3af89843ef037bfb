// `gelucheck`: the top-level command. It registers the subcommands of commands.hpp and runs the
// chosen one. Exit codes (docs/cli.md): 0 ok; 1 bad input (a line eval could not parse); 2 usage
// (unknown option, bad value, no subcommand — CLI11's message); 3 a computation or I/O failure
// (e.g. the reference reached its precision cap, or stdout could not be written — `--help >
// /dev/full`), never a silently wrong answer; 4 report --gate.
#include <cstdio>
#include <exception>
#include <new>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "gelucheck/cleanup.hpp"
#include "mpi_ranks.hpp"

namespace {
// Flushes both stdout views (iostream, used by CLI11's help, and stdio); false, with a message on
// stderr, when anything written to stdout could not be written.
bool stdout_written() {
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "gelucheck: cannot write to standard output\n");
    return false;
  }
  return true;
}
}  // namespace

namespace {
int run(int argc, char** argv);
}

int main(int argc, char** argv) {
  // Under mpirun (a GELUCHECK_MPI build) every rank runs the same command; check --exhaustive
  // splits its range over them (cli/exhaustive_command.cpp). Otherwise nothing.
  gelucheck::cli::mpi::init(&argc, &argv);
  const int rc = run(argc, argv);
  gelucheck::cli::mpi::finalize();
  return rc;
}

namespace {
int run(int argc, char** argv) {
  namespace cli = gelucheck::cli;
  // SIGINT/SIGTERM/SIGHUP end every child and remove every temporary path (cleanup.hpp).
  gelucheck::cleanup::install();
  CLI::App app{"gelucheck: verified numerics and differential testing for the GELU activation.",
               "gelucheck"};
  app.set_version_flag("--version", std::string("gelucheck ") + GELUCHECK_VERSION);
  app.require_subcommand(1);
  app.footer("Exit codes: 0 ok, 1 bad input, 2 usage error, 3 computation or I/O failure;\n"
             "report --gate: 4 when a claimed bound or a property fails.\n"
             "Run `gelucheck SUBCOMMAND --help` for each subcommand; docs/cli.md has the details.");

  // Each add_* call appends one subcommand; remember which action belongs to which.
  std::vector<std::pair<CLI::App*, std::function<int()>>> commands;
  for (auto add : {cli::add_eval_command, cli::add_report_command, cli::add_check_command,
                   cli::add_merge_command, cli::add_diff_command}) {
    auto action = add(app);
    commands.emplace_back(app.get_subcommands([](CLI::App*) { return true; }).back(),
                          std::move(action));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // An unknown first word: CLI11 reports only "A subcommand is required" (require_subcommand
    // is checked before the leftover arguments), which hides the typo. Name the word instead.
    if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr && app.get_subcommands().empty() &&
        !app.remaining().empty()) {
      const std::string word = app.remaining().front();
      std::string known;
      for (const auto& [sub, action] : commands)
        known += (known.empty() ? "" : ", ") + sub->get_name();
      std::fprintf(stderr, "gelucheck: unknown %s \"%s\" (the subcommands are: %s)\n"
                           "Run with --help for more information.\n",
                   word.rfind('-', 0) == 0 ? "option" : "subcommand", word.c_str(), known.c_str());
      return cli::kExitUsage;
    }
    // --help and --version are "errors" with exit code 0 in CLI11; every real parse error is a
    // usage error (2) whatever CLI11's own numbering.
    const int rc = app.exit(e);
    if (rc == 0 && !stdout_written()) return cli::kExitFailure;
    return rc == 0 ? cli::kExitOk : cli::kExitUsage;
  }
  int rc = cli::kExitUsage;  // stays so only if no subcommand ran: unreachable (require_subcommand)
  try {
    for (auto& [sub, action] : commands)
      if (sub->parsed()) {
        rc = action();
        break;
      }
  } catch (const std::bad_alloc&) {
    // The commands refuse what they can tell will not fit (gelucheck/resources.hpp); this is what
    // got past that estimate.
    std::fflush(stdout);
    std::fprintf(stderr, "gelucheck: out of memory; ask for less work\n");
    return cli::kExitFailure;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "gelucheck: %s\n", e.what());
    return cli::kExitFailure;
  }
  // Output the action buffered but could not write (full disk, closed pipe) is a failure, not a
  // success that lost its results.
  if (rc == cli::kExitOk && !stdout_written()) return cli::kExitFailure;
  return rc;
}
}  // namespace
