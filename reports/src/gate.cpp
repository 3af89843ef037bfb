// The gate (Report::gate_failures): what makes `gelucheck report` fail for a gated subject — a
// claim broken or not checked everywhere, a harness finding, a property failed or not run.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gelucheck/report.hpp"

namespace gelucheck::report {

std::vector<std::string> gate_failures(const Report& r) {
  std::vector<std::string> out;
  for (const Row& row : r.rows) {
    const SubjectResult& sr = r.subjects[row.subject];
    if (!sr.gated || !row.claim || !row.claim->claims_anything() || row.meets_claim) continue;
    const Stats& all = row.regions[static_cast<std::size_t>(Region::overall)];
    if (row.claim_breaks == 0) {  // every result met it, but some inputs got none
      out.push_back(sr.spec + " " + std::string(name(row.format)) + " " + std::string(name(row.form)) +
                    " " + std::string(name(row.quantity)) + ": no result for " +
                    std::to_string(row.no_result) + " inputs (see the subject's findings)");
      continue;
    }
    const double bx = row.break_x.value_or(NAN);
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "%s %s %s %s breaks its claim %s: %zu of %zu results, the first at x = %s "
                  "(region %s): expected %s, got %s (%.17g ulp%s); max %.17g ulp at x = %s, "
                  "%zu sign-of-zero mismatches",
                  sr.spec.c_str(), name(row.format).data(), name(row.form).data(),
                  name(row.quantity).data(), row.claim->text.c_str(), row.claim_breaks, all.count,
                  hexfloat(bx).c_str(), std::isnan(bx) ? "?" : region_name(regions_of(bx, row.format)[0]),
                  hexfloat(row.break_expected.value_or(NAN)).c_str(),
                  hexfloat(row.break_got.value_or(NAN)).c_str(), row.break_ulp,
                  row.break_zero_sign ? ", wrong sign of zero" : "", all.max_ulp,
                  hexfloat(all.worst_x.value_or(NAN)).c_str(), all.zero_sign_mismatches);
    out.emplace_back(buf);
  }
  for (const SubjectResult& sr : r.subjects) {
    if (!sr.gated) continue;
    for (const subject::Finding& f : sr.findings) out.push_back(sr.spec + ": " + subject::describe(f));
    const Properties& p = sr.properties;
    if (p.status == "run") {
      std::size_t failed = 0;
      for (const PropertyTest& t : p.tests)
        if (t.outcome == "fail") {
          out.push_back(sr.spec + ": property " + t.suite + "." + t.name + " failed");
          ++failed;
        }
      if (p.exit_code != 0 && failed == 0)
        out.push_back(sr.spec + ": the property suite exited with status " + std::to_string(p.exit_code));
    } else if (p.status != "skipped") {
      // Asked for and not run: a gate must not pass on properties nobody checked.
      out.push_back(sr.spec + ": properties were not run (" + p.status + "): " + p.reason);
    }
  }
  return out;
}

}  // namespace gelucheck::report
