// Placeholder until issue "gelucheck report" lands: the subcommand exists and says so honestly.
#include <cstdio>

#include "commands.hpp"

namespace gelucheck::cli {
std::function<int()> add_report_command(CLI::App& app) {
  app.add_subcommand("report", "Run the accuracy campaign and write the report (not built yet)");
  return [] {
    std::fputs("gelucheck report: not implemented yet\n", stderr);
    return 2;
  };
}
}  // namespace gelucheck::cli
