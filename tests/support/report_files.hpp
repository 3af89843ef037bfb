// What every report a test writes must be, whatever the test is about: report.json valid against
// the committed schema (reports/schema/report.schema.json), and every text file (report.md,
// report.json, report.html, plot-data/, the marker; a JUnit XML given by path) UTF-8 with no
// doubly encoded character. The checks are tests/support/check_report_files.py's, in Python
// (json, jsonschema, a strict UTF-8 decoder), so they share no code with what they check.
//
//   EXPECT_EQ(gelucheck::testing::report_file_problems({out}), "");
//
// Needs GELUCHECK_SOURCE_DIR defined (the tree that holds the script and the schema).
#pragma once

#include <string>
#include <vector>

#include "shell.hpp"

#ifndef GELUCHECK_SOURCE_DIR
#error "report_files.hpp needs GELUCHECK_SOURCE_DIR (target_compile_definitions)"
#endif

namespace gelucheck::testing {

// "" when every path passes; otherwise the checker's lines (one per problem), or why it could not
// check (python3-jsonschema missing is a failure: it is in scripts/debian-packages.txt).
// schema_only: the schema alone, not the text (for a report an older gelucheck wrote).
inline std::string report_file_problems(const std::vector<std::string>& paths, bool schema_only = false) {
  std::string cmd = "exec python3 '" GELUCHECK_SOURCE_DIR "/tests/support/check_report_files.py' " +
                    std::string(schema_only ? "--schema-only '" : "'") +
                    GELUCHECK_SOURCE_DIR "/reports/schema/report.schema.json'";
  for (const std::string& p : paths) cmd += " '" + p + "'";  // temporary paths: no quotes in them
  const ShellOutcome r = shell(cmd);
  if (r.code == 0) return "";
  return "check_report_files.py (" + r.why + "):\n" + r.output + r.errors;
}

}  // namespace gelucheck::testing
