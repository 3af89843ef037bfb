// The certificates of certify/certificates/gelu.json: they check from the file; every kind of
// tampering makes the check fail; the constants generated from them (gelucheck/certified.hpp)
// and those of facts.hpp agree with them; and an independent evaluation (the MPFR reference,
// no Arb) at each recorded location agrees with each certified extremum.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <mpfr.h>

#include "gelucheck/certified.hpp"
#include "gelucheck/certify.hpp"
#include "gelucheck/common.hpp"
#include "gelucheck/facts.hpp"
#include "gelucheck/mpfr.hpp"
#include "gelucheck/reference.hpp"

namespace gelucheck {
namespace {

using nlohmann::json;

json load() {
  std::ifstream f(GELUCHECK_CERTIFICATE);
  std::stringstream ss;
  ss << f.rdbuf();
  return json::parse(ss.str());
}
const json& cert() {
  static const json j = load();
  return j;
}
const json& fact(const std::string& name) {
  for (const json& f : cert()["facts"])
    if (f["name"] == name) return f;
  ADD_FAILURE() << "no fact " << name;
  static const json none;
  return none;
}
json& scan(json& j, const std::string& name) {
  for (json& s : j["scans"])
    if (s["name"] == name) return s;
  throw std::runtime_error("no scan " + name);
}
double dbl(const json& s) { return *parse_real(s.get<std::string>()); }

TEST(Certificates, CheckFromTheFile) {
  const certify::CheckResult r = certify::check(cert());
  for (const std::string& e : r.errors) ADD_FAILURE() << e;
  EXPECT_TRUE(r.ok());
  EXPECT_GT(r.boxes, 100u);
  EXPECT_EQ(r.roots, 24u);  // 5 + 7 critical points of the gaps, 1 + 1 minima, 2 + 2 of f', 3 + 3 of f''
  EXPECT_EQ(r.facts, 15u);
  EXPECT_EQ(cert()["arb_version"], certify::arb_version_string());
}

// Each tampering with what a proof rests on is caught. (The check reports every failure; one is
// enough here.)
struct Tamper {
  const char* what;
  void (*edit)(json&);
};
const Tamper kTampers[] = {
    {"a sign box relabelled", [](json& j) {
       std::string k = scan(j, "gap.value")["kinds"];
       k[0] = k[0] == '-' ? '+' : '-';
       scan(j, "gap.value")["kinds"] = k;
     }},
    {"two boxes merged (an end dropped)", [](json& j) {
       json& s = scan(j, "tanh.derivative");
       s["ends"].erase(s["ends"].begin() + 1);
       std::string k = s["kinds"];
       s["kinds"] = k.substr(1);
       s["boxes"] = k.size() - 1;
       for (json& r : s["roots"]) r["box"] = r["box"].get<std::size_t>() - 1;
     }},
    {"a critical point dropped (a box said to have F' of one sign)", [](json& j) {
       json& s = scan(j, "gap.derivative");
       std::string k = s["kinds"];
       const std::size_t b = s["roots"][0]["box"];
       k[b] = '+';
       s["kinds"] = k;
       s["roots"].erase(s["roots"].begin());
     }},
    {"a location moved by 1e-20", [](json& j) {
       json& r = scan(j, "gap.value")["roots"][4];
       r["at"]["lo"] = "2.69894138637727030048e0";
       r["at"]["hi"] = "2.69894138637727030049e0";
     }},
    {"a value interval shrunk to its upper end (a point beside the value)", [](json& j) {
       json& r = scan(j, "erf.value")["roots"][0];
       r["value"]["lo"] = r["value"]["hi"];
     }},
    {"a fact's sup lowered to 4.7323e-4 (its 5 digits rounded down)", [](json& j) {
       for (json& f : j["facts"])
         if (f["name"] == "gap_value_sup") f["value"] = {{"lo", "4.7323e-4"}, {"hi", "4.7323e-4"}};
     }},
    {"a fact's double bound moved one ulp inward", [](json& j) {
       for (json& f : j["facts"])
         if (f["name"] == "gap_deriv_sup") f["double"]["up"] = f["double"]["nearest"];
     }},
    {"a location widened beyond 1e-30", [](json& j) {
       json& r = scan(j, "tanh.value")["roots"][0];
       r["at"]["lo"] = "-7.5246142207101625848795444328891e-1";
       r["at"]["hi"] = "-7.5246142207101625848795444328889e-1";
     }},
    {"a max relabelled a min", [](json& j) { scan(j, "erf.derivative")["roots"][1]["extremum"] = "min"; }},
    {"the interval changed", [](json& j) { j["interval"]["hi"] = "0x1p+4"; }},
    {"the tail lemma renamed", [](json& j) { scan(j, "gap.value")["tail"]["lemma"] = "none"; }},
    {"a limit at infinity changed", [](json& j) { scan(j, "tanh.derivative")["limit_plus_inf"] = "0x1.2p+0"; }},
    {"a sup said attained at only one of its mirror pair", [](json& j) {
       for (json& f : j["facts"])
         if (f["name"] == "gap_value_sup") {
           f["at"] = {4};
           f["locations"] = {f["locations"][1]};
           f["location_doubles"] = {f["location_doubles"][1]};
         }
     }},
    {"a min of the form said attained at a second point", [](json& j) {
       for (json& f : j["facts"])
         if (f["name"] == "deriv_min_tanh") {
           f["at"] = {0, 1};
           f["locations"].push_back(scan(j, "tanh.derivative")["roots"][1]["at"]);
           f["location_doubles"].push_back(f["location_doubles"][0]);
         }
     }},
    {"the lipschitz fact given to the smaller form", [](json& j) {
       for (json& f : j["facts"])
         if (f["name"] == "lipschitz") f["attained_by"] = "deriv_sup_abs_erf";
     }},
};

TEST(Certificates, TamperedCopiesFail) {
  for (const Tamper& t : kTampers) {
    json j = cert();
    t.edit(j);
    EXPECT_FALSE(certify::check(j).ok()) << "not caught: " << t.what;
  }
}

// The tool: exit 0 on the file, 1 on a tampered copy written to disk.
TEST(Certificates, ToolChecksAFile) {
  const std::string tool = GELUCHECK_CERTIFY_EXE;
  EXPECT_EQ(std::system((tool + " check " GELUCHECK_CERTIFICATE " >/dev/null 2>&1").c_str()), 0);
  json j = cert();
  scan(j, "erf.derivative")["roots"][1]["extremum"] = "min";
  const std::string path = ::testing::TempDir() + "tampered_gelu.json";
  std::ofstream(path) << j.dump();
  const int rc = std::system((tool + " check " + path + " >/dev/null 2>&1").c_str());
  EXPECT_TRUE(WIFEXITED(rc) && WEXITSTATUS(rc) == 1);
  std::remove(path.c_str());
}

// docs/lean.md states what the current file proves: its section between the markers is the
// tool's rendering of the file (gelucheck-certify lean --update writes it).
TEST(Certificates, LeanDocIsTheCertificates) {
  std::ifstream f(GELUCHECK_LEAN_DOC);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string doc = ss.str();
  const std::size_t b = doc.find(certify::kLeanBegin), e = doc.find(certify::kLeanEnd);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  const std::size_t from = b + std::string(certify::kLeanBegin).size();
  EXPECT_EQ(doc.substr(from, e - from), "\n" + certify::lean_statements(cert()))
      << "docs/lean.md is stale: run cmake --build build --target certificates";
}

// gelucheck/certified.hpp is the file's (CMake writes it at configure time).
TEST(Certificates, GeneratedHeaderIsTheFiles) {
  const struct {
    const char* name;
    double down, up, nearest;
  } rows[] = {
      {"gap_value_sup", certified::gap_value_sup_down, certified::gap_value_sup_up, certified::gap_value_sup_nearest},
      {"gap_deriv_sup", certified::gap_deriv_sup_down, certified::gap_deriv_sup_up, certified::gap_deriv_sup_nearest},
      {"min_tanh", certified::min_tanh_down, certified::min_tanh_up, certified::min_tanh_nearest},
      {"min_erf", certified::min_erf_down, certified::min_erf_up, certified::min_erf_nearest},
      {"deriv_max_tanh", certified::deriv_max_tanh_down, certified::deriv_max_tanh_up, certified::deriv_max_tanh_nearest},
      {"deriv_min_tanh", certified::deriv_min_tanh_down, certified::deriv_min_tanh_up, certified::deriv_min_tanh_nearest},
      {"deriv_max_erf", certified::deriv_max_erf_down, certified::deriv_max_erf_up, certified::deriv_max_erf_nearest},
      {"deriv_min_erf", certified::deriv_min_erf_down, certified::deriv_min_erf_up, certified::deriv_min_erf_nearest},
      {"lipschitz", certified::lipschitz_down, certified::lipschitz_up, certified::lipschitz_nearest},
      {"second_sup_abs_tanh", certified::second_sup_abs_tanh_down, certified::second_sup_abs_tanh_up,
       certified::second_sup_abs_tanh_nearest},
      {"second_sup_abs_erf", certified::second_sup_abs_erf_down, certified::second_sup_abs_erf_up,
       certified::second_sup_abs_erf_nearest},
  };
  for (const auto& r : rows) {
    const json& d = fact(r.name)["double"];
    EXPECT_EQ(hexfloat(r.down), d["down"]) << r.name;
    EXPECT_EQ(hexfloat(r.up), d["up"]) << r.name;
    EXPECT_EQ(hexfloat(r.nearest), d["nearest"]) << r.name;
  }
}

// facts.hpp's constants are the doubles nearest the certified reals (locations: of the positive
// point of a symmetric pair, as facts.hpp gives |x|), and its rounded-up bounds lie above them.
TEST(Certificates, FactsHppAgrees) {
  EXPECT_EQ(hexfloat(facts::gap_value_sup), hexfloat(certified::gap_value_sup_nearest));
  EXPECT_EQ(hexfloat(facts::gap_deriv_sup), hexfloat(certified::gap_deriv_sup_nearest));
  EXPECT_EQ(hexfloat(facts::gap_value_x), hexfloat(certified::gap_value_sup_at));
  EXPECT_EQ(hexfloat(facts::gap_deriv_x), hexfloat(certified::gap_deriv_sup_at));
  EXPECT_EQ(hexfloat(facts::min_tanh), hexfloat(certified::min_tanh_nearest));
  EXPECT_EQ(hexfloat(facts::min_erf), hexfloat(certified::min_erf_nearest));
  EXPECT_EQ(hexfloat(facts::argmin_tanh), hexfloat(certified::deriv_zero_tanh_nearest));
  EXPECT_EQ(hexfloat(facts::argmin_erf), hexfloat(certified::deriv_zero_erf_nearest));
  EXPECT_EQ(hexfloat(facts::argmin_tanh), hexfloat(certified::min_tanh_at));
  EXPECT_GE(facts::gap_value_sup_up, certified::gap_value_sup_up);
  EXPECT_GE(facts::gap_deriv_sup_up, certified::gap_deriv_sup_up);
  EXPECT_GE(facts::lipschitz, certified::lipschitz_up);
  // The derivative's range: f'(x) + f'(-x) = 1, so min f' = 1 - max f' (both forms).
  EXPECT_NEAR(certified::deriv_min_tanh_nearest, 1 - certified::deriv_max_tanh_nearest, 0x1p-52);
  EXPECT_NEAR(certified::deriv_min_erf_nearest, 1 - certified::deriv_max_erf_nearest, 0x1p-52);
}

// The MPFR reference (independent of Arb) at each extremum's recorded location, rounded to the
// nearest double x: f(x) lies within the certified enclosure's reach. |x − x*| <= 2^-53|x*| moves
// f by f''·(x − x*)²/2 < 1e-31 (|f''| < 1), far below the tolerance 1e-28 and far above the
// enclosures' widths, so a certificate wrong in its 28th digit fails here.
TEST(Certificates, ReferenceAgreesAtEachExtremum) {
  const struct {
    const char* fact;
    const char* scan;
  } rows[] = {{"gap_value_sup", "gap.value"},    {"gap_deriv_sup", "gap.derivative"},
              {"min_tanh", "tanh.value"},        {"min_erf", "erf.value"},
              {"deriv_max_tanh", "tanh.derivative"}, {"deriv_min_tanh", "tanh.derivative"},
              {"deriv_max_erf", "erf.derivative"},   {"deriv_min_erf", "erf.derivative"}};
  for (const auto& r : rows) {
    const json& f = fact(r.fact);
    const std::string sc = r.scan;
    const bool gap = sc.rfind("gap", 0) == 0;
    const Quantity q = sc.find("value") != std::string::npos ? Quantity::value : Quantity::derivative;
    const Form form = sc.rfind("erf", 0) == 0 ? Form::erf : Form::tanh;
    for (const json& loc : f["location_doubles"]) {
      const double x = dbl(loc["nearest"]);
      Mpfr v(300), lo(300), hi(300), tol(300);
      if (gap) {
        const ref::Enclosure t = ref::enclose(Form::tanh, q, x, 200), e = ref::enclose(Form::erf, q, x, 200);
        mpfr_sub(v, t.lo(), e.lo(), MPFR_RNDN);
        if (f["kind"] == "max_abs") mpfr_abs(v, v, MPFR_RNDN);
      } else {
        const ref::Enclosure e = ref::enclose(form, q, x, 200);
        mpfr_set(v, e.lo(), MPFR_RNDN);
      }
      mpfr_set_str(lo, f["value"]["lo"].get<std::string>().c_str(), 10, MPFR_RNDD);
      mpfr_set_str(hi, f["value"]["hi"].get<std::string>().c_str(), 10, MPFR_RNDU);
      mpfr_set_str(tol, "1e-28", 10, MPFR_RNDN);
      mpfr_sub(lo, lo, tol, MPFR_RNDD);
      mpfr_add(hi, hi, tol, MPFR_RNDU);
      EXPECT_TRUE(mpfr_cmp(v, lo) >= 0 && mpfr_cmp(v, hi) <= 0)
          << r.fact << " at " << hexfloat(x) << ": reference " << mpfr_get_d(v, MPFR_RNDN);
      // Nowhere beyond the extremum (beyond it by more than the reference's own error).
      mpfr_set_str(tol, "1e-50", 10, MPFR_RNDN);
      if (f["kind"] == "min") {
        mpfr_set_str(lo, f["value"]["lo"].get<std::string>().c_str(), 10, MPFR_RNDD);
        mpfr_sub(lo, lo, tol, MPFR_RNDD);
        EXPECT_GE(mpfr_cmp(v, lo), 0) << r.fact << ": the reference is below the certified min";
      } else {
        mpfr_set_str(hi, f["value"]["hi"].get<std::string>().c_str(), 10, MPFR_RNDU);
        mpfr_add(hi, hi, tol, MPFR_RNDU);
        EXPECT_LE(mpfr_cmp(v, hi), 0) << r.fact << ": the reference is above the certified max";
      }
    }
  }
}

}  // namespace
}  // namespace gelucheck
