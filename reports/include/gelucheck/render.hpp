// gelucheck/render.hpp — the files of a report and of a diff, from what the checks found
// (gelucheck/report.hpp, gelucheck/diff.hpp; checking/): report.json (schema gelucheck.report/3,
// reports/schema/), report.md and report-details.md, report.html, JUnit XML and the gnuplot plots,
// written through output::Writer (gelucheck/output_dir.hpp) so that a failure or a signal never
// leaves a half-written directory.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "gelucheck/diff.hpp"
#include "gelucheck/report.hpp"

namespace gelucheck::report {

nlohmann::ordered_json to_json(const Report& r);
// report.md: the verdict, each subject's defects one line each, the at-a-glance table, the gap
// and the plots; report-details.md: everything else (per-region tables, properties, inputs).
std::string to_markdown(const nlohmann::ordered_json& j);
std::string to_markdown_details(const nlohmann::ordered_json& j);
// report.html, from report.json's content and the PNGs it lists in `plots` (name, bytes), which
// are inlined: one self-contained page (no network, no script). Throws std::invalid_argument
// naming what is missing when `j` is not of the schema or a listed plot is not given.
std::string to_html(const nlohmann::ordered_json& j,
                    const std::vector<std::pair<std::string, std::string>>& png_files);
// JUnit XML: per subject a testsuite; a test case per claimed row, per property, per finding.
std::string to_junit(const Report& r);

// Writes report.json, report.md, report.html and (Options::plots) the plots into `out` through
// output::Writer (gelucheck/output_dir.hpp): into a fresh directory beside `out`, swapped into
// place when complete; an existing `out` is replaced only when it is empty or a gelucheck output
// holding nothing but what its marker lists. Throws output::Refused when `out` must not be
// replaced (a usage error), std::runtime_error naming the path on any other failure. Returns
// the writer's notes (stale temporary directories removed beside `out`, ...).
std::vector<std::string> write(const Report& r, const std::string& out);
// Checks that `out` can be written (as write() would accept it, and a directory can be made
// beside it) before the campaign spends its minutes. Throws like write().
void check_writable(const std::string& out);

}  // namespace gelucheck::report

namespace gelucheck::report::diff {

// report.md: the verdict of each comparison, then one line per op that differs.
std::string to_markdown(const nlohmann::ordered_json& j);
// The parts, for the main report's variant comparisons (report.json's `variants`, each one
// element of `comparisons`): the verdict in a few words, and the section of one comparison under
// `heading` ("##", "###") with one line per op that differs.
std::string verdict_cell(const nlohmann::ordered_json& comparison);
std::string comparison_markdown(const nlohmann::ordered_json& comparison, const std::string& heading);
extern const char* const kComparedHow;  // one sentence: what agreeing means
// JUnit XML: a testsuite per comparison, a test case per op (failing when the op differs).
std::string to_junit(const Result& r);
// Writes report.json and report.md into `out` as report::write does (gelucheck/output_dir.hpp).
std::vector<std::string> write(const Result& r, const std::string& out);

}  // namespace gelucheck::report::diff
