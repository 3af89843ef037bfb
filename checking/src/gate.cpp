// The gate (Report::gate_failures): what makes `gelucheck report` fail for a gated subject — a
// claim broken or not checked everywhere, a harness finding, a property failed or not run.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gelucheck/report.hpp"

namespace gelucheck::report {

std::vector<std::string> gate_failures(const Report& r) {
  std::vector<std::string> out;
  for (const SubjectResult& sr : r.subjects) {
    if (!sr.gated) continue;
    // One line per defect that breaks a claim of a gated subject (finish() has folded one cause
    // in many ops, batches and properties into one).
    for (const Defect& d : sr.defects)
      if (d.gated)
        out.push_back(sr.spec + ": " + std::string(defect_kind_name(d.kind)) + ": " + d.summary);
  }
  for (const Row& row : r.rows) {
    const SubjectResult& sr = r.subjects[row.subject];
    if (!sr.gated || !row.claim || !row.claim->claims_anything() || row.meets_claim) continue;
    if (row.claim_breaks == 0)  // every result met it, but some inputs got none
      out.push_back(sr.spec + " " + std::string(name(row.format)) + " " + std::string(name(row.form)) +
                    " " + std::string(name(row.quantity)) + ": no result for " +
                    std::to_string(row.no_result) + " inputs (see the subject's defects)");
  }
  for (const SubjectResult& sr : r.subjects) {
    if (!sr.gated) continue;
    const Properties& p = sr.properties;
    if (p.status == "run") {
      const bool failed = std::any_of(p.tests.begin(), p.tests.end(),
                                      [](const PropertyTest& t) { return t.outcome == "fail"; });
      if (p.exit_code != 0 && !failed)
        out.push_back(sr.spec + ": the property suite exited with status " + std::to_string(p.exit_code));
    } else if (p.status != "skipped") {
      // Asked for and not run: a gate must not pass on properties nobody checked.
      out.push_back(sr.spec + ": properties were not run (" + p.status + "): " + p.reason);
    }
  }
  return out;
}

void finish(Report& r) {
  for (std::size_t s = 0; s < r.subjects.size(); ++s) r.subjects[s].defects = find_defects(r, s);
  r.gate_failures = gate_failures(r);
}

}  // namespace gelucheck::report
