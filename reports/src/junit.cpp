// JUnit XML for CI systems (gelucheck check --junit): one testsuite per subject; a test case per
// claimed row (format × function), per property, and one per finding of the harness.
#include <sstream>
#include <string>

#include "internal.hpp"

namespace gelucheck::report {
namespace {

std::string xml(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&apos;"; break;
      default:
        // XML 1.0 forbids most control characters even escaped: shown as \xNN.
        if (c < 0x20 && c != '\n' && c != '\t') {
          static const char* hex = "0123456789abcdef";
          o += "\\x";
          o += hex[c >> 4];
          o += hex[c & 15];
        } else {
          o += static_cast<char>(c);
        }
    }
  }
  return o;
}

struct Case {
  std::string classname, name, failure, skipped;
};

}  // namespace

std::string to_junit(const Report& r) {
  std::ostringstream o;
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" << xml(r.options.command)
    << "\">\n";
  for (std::size_t s = 0; s < r.subjects.size(); ++s) {
    const SubjectResult& sr = r.subjects[s];
    std::vector<Case> cases;
    for (const Row& row : r.rows) {
      if (row.subject != s || row.against != row.form || !row.claim || !row.claim->claims_anything())
        continue;
      Case c{"accuracy." + std::string(name(row.format)),
             std::string(name(row.form)) + "." + std::string(name(row.quantity)), "", ""};
      if (!row.meets_claim) {
        c.failure = "breaks its claim " + row.claim->text + ": " + std::to_string(row.claim_breaks) +
                    " results, the first at x = " + hexfloat(row.break_x.value_or(NAN)) +
                    ": expected " + hexfloat(row.break_expected.value_or(NAN)) + ", got " +
                    hexfloat(row.break_got.value_or(NAN));
        if (row.claim_breaks == 0)
          c.failure = "no result for " + std::to_string(row.no_result) + " inputs";
      }
      cases.push_back(std::move(c));
    }
    for (const std::string& nm : sr.not_measured)
      cases.push_back({"accuracy", nm.substr(0, nm.find(':')), "", nm});
    for (const subject::Finding& f : sr.findings)
      cases.push_back({"harness", subject::op_name(f.op) + " at " + hexfloat(f.x),
                       subject::describe(f), ""});
    for (const PropertyTest& t : sr.properties.tests)
      cases.push_back({"properties." + t.suite, t.name, t.outcome == "fail" ? t.message : "",
                       t.outcome == "skipped" ? (t.message.empty() ? "skipped" : t.message) : ""});
    if (sr.properties.status != "run" && sr.properties.status != "skipped")
      cases.push_back({"properties", "suite", "the property suite was not run (" +
                                                  sr.properties.status + "): " + sr.properties.reason,
                       ""});
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
      if (c.failure.empty() && c.skipped.empty()) {
        o << "/>\n";
        continue;
      }
      o << ">\n";
      if (!c.failure.empty())
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
