// JUnit XML for CI systems (gelucheck check --junit): one testsuite per subject; a test case per
// defect (failing when it breaks a claim of a gated subject), per claimed row that holds, and per
// property that passed or was skipped (the failed ones are in the defects).
#include <sstream>
#include <string>

#include "internal.hpp"

namespace gelucheck::report {
namespace {

struct Case {
  std::string classname, name, failure, skipped, out;
};

}  // namespace

std::string to_junit(const Report& r) {
  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" << xml(r.options.command)
    << "\">\n";
  for (std::size_t s = 0; s < r.subjects.size(); ++s) {
    const SubjectResult& sr = r.subjects[s];
    std::vector<Case> cases;
    // One case per defect (find_defects has folded each cause once): a failure when it breaks a
    // claim of a gated subject, else a passing case whose output says what was seen.
    for (const Defect& d : sr.defects) {
      std::string ops;
      for (const DefectOp& op : d.ops) ops += (ops.empty() ? "" : ",") + op.op;
      Case c{"defect." + std::string(defect_kind_name(d.kind)),
             (d.fact.empty() ? "" : d.fact + " ") + (ops.empty() ? "(no op)" : ops), "", "", ""};
      const std::string text = d.summary + (d.diagnosis.empty() ? "" : "; " + d.diagnosis) +
                               "\nreproduce: " + d.reproduce +
                               (d.properties.empty() ? "" : "\nfailed properties it explains: " +
                                                                std::to_string(d.properties.size()));
      (d.gated ? c.failure : c.out) = text;
      cases.push_back(std::move(c));
    }
    // The claims that hold, and every property that passed or was skipped, as their own cases.
    for (const Row& row : r.rows) {
      if (row.subject != s || row.against != row.form || !row.claim || !row.claim->claims_anything())
        continue;
      Case c{"accuracy." + std::string(name(row.format)),
             std::string(name(row.form)) + "." + std::string(name(row.quantity)), "", "", ""};
      if (row.claim_breaks == 0 && row.no_result > 0)
        c.failure = "no result for " + std::to_string(row.no_result) + " inputs";
      else if (!row.meets_claim)
        continue;  // its breaks are defects above
      cases.push_back(std::move(c));
    }
    for (const std::string& nm : sr.not_measured)
      cases.push_back({"accuracy", nm.substr(0, nm.find(':')), "", nm, ""});
    for (const PropertyTest& t : sr.properties.tests)
      if (t.outcome != "fail")
        cases.push_back({"properties." + t.suite, t.name, "",
                         t.outcome == "skipped" ? (t.message.empty() ? "skipped" : t.message) : "", ""});
    if (sr.properties.status != "run" && sr.properties.status != "skipped")
      cases.push_back({"properties", "suite", "the property suite was not run (" +
                                                  sr.properties.status + "): " + sr.properties.reason,
                       "", ""});
    std::size_t failures = 0, skipped = 0;
    for (const Case& c : cases) {
      failures += !c.failure.empty();
      skipped += !c.skipped.empty();
    }
    o << "  <testsuite name=\"" << xml(sr.spec) << "\" tests=\"" << cases.size() << "\" failures=\""
      << failures << "\" errors=\"0\" skipped=\"" << skipped << "\" timestamp=\"" << xml(r.started_utc)
      << "\">\n";
    for (const Case& c : cases) {
      o << "    <testcase classname=\"" << xml(c.classname) << "\" name=\"" << xml(c.name) << "\"";
      if (c.failure.empty() && c.skipped.empty() && c.out.empty()) {
        o << "/>\n";
        continue;
      }
      o << ">\n";
      if (!c.out.empty())
        o << "      <system-out>" << xml(c.out) << "</system-out>\n";
      else if (!c.failure.empty())
        o << "      <failure message=\"" << xml(c.failure.substr(0, 300)) << "\">" << xml(c.failure)
          << "</failure>\n";
      else
        o << "      <skipped message=\"" << xml(c.skipped) << "\"/>\n";
      o << "    </testcase>\n";
    }
    o << "  </testsuite>\n";
  }
  o << "</testsuites>\n";
  return o.str();
}

}  // namespace gelucheck::report
