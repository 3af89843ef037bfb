// report.html (reports/src/html.cpp) and the schema of report.json (reports/schema/):
// - ReportHtml: to_html on the committed report.json, changed to hold what a test needs (defects,
//   a verdict, hostile text, plots of known bytes): what it shows, what it escapes, what it refuses.
// - ReportHtmlChromium: a report written by `gelucheck report`, opened in headless Chromium: the
//   DOM holds the verdict, the defects and the plots, loading logs nothing on the console, and the
//   screenshot is not blank. Skipped, saying so, where Chromium is not installed.
// - ReportSchema: the schema names the defect kinds of defects.hpp, and it rejects what it must.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gelucheck/render.hpp"
#include "gelucheck/report.hpp"
#include "report_files.hpp"
#include "scratch_dir.hpp"
#include "shell.hpp"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
using Pngs = std::vector<std::pair<std::string, std::string>>;

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

using gelucheck::testing::ScratchDir;

// The committed report without its plots and without defect lists (as schema /2 has it, whichever
// version was committed last), to change at will.
json committed() {
  json j = json::parse(slurp(GELUCHECK_SOURCE_DIR "/records/report/report.json"));
  j["plots"] = json::array();
  for (auto& s : j["subjects"]) s.erase("defects");
  j.erase("verdict");
  return j;
}

json a_defect() {
  return {{"kind", "nan"},
          {"ops", {"tanh.forward.f32", "erf.forward.f32"}},
          {"count", 3},
          {"x", "-inf"},
          {"expected", "-0x0p+0"},
          {"got", "nan"},
          {"reproduce", "gelucheck eval 'lib:./my <gelu>.so' tanh.forward.f32 -inf"},
          {"summary", "NaN at x = -inf where the value is -0"},
          {"diagnosis", "x * (1 + tanh(u)) with tanh(u) = -1: -inf * 0"},
          {"breaks", "correctly rounded (<= 0.5 ulp)"},
          {"gated", true},
          {"range", {{"from", "-inf"}, {"to", "-0x1.2p+5"}}},
          {"reproduce_native", "python3 -c 'import mine; print(mine.gelu(float(\"-inf\")))'"},
          {"rank", 8},
          {"op", "tanh.forward.f32"},
          {"dy", nullptr},
          {"confirmation", nullptr},
          {"detail", nullptr},
          {"properties", {"scalar_tanh.limit_at_minus_inf"}},
          {"per_op", {{{"op", "tanh.forward.f32"}, {"count", 2}, {"x", "-inf"}, {"expected", "-0x0p+0"},
                       {"got", "nan"}, {"range", nullptr}, {"size", 0}},
                      {{"op", "erf.forward.f32"}, {"count", 1}, {"x", "-inf"}, {"expected", "-0x0p+0"},
                       {"got", "nan"}, {"range", nullptr}, {"size", 0}}}}};
}

// A harness finding as a defect: no result, so no expected and no got.
json a_crash() {
  return {{"kind", "crash"}, {"ops", {"erf.backward.f64"}}, {"count", 1}, {"op", "erf.backward.f64"},
          {"x", "0x1.8p+1"}, {"dy", "-0x1p+0"}, {"expected", nullptr}, {"got", nullptr},
          {"summary", "killed by signal 11 (SIGSEGV)"}, {"gated", false},
          {"confirmation", "replayed alone in a fresh child: killed by signal 11 again"},
          {"detail", "the subject's process died: killed by signal 11 (SIGSEGV)"},
          {"reproduce", "gelucheck eval lib:./my.so erf.backward.f64 0x1.8p+1 --dy -0x1p+0"}};
}

TEST(ReportHtml, ShowsTheVerdictAndEachDefectWithItsReproducer) {
  json j = committed();
  j["verdict"] = {{"gate", "fail"}, {"lines", {"accurate: 1 defect breaks a claim (x < 1 & y > 2)"}}};
  j["subjects"][0]["defects"] = json::array({a_defect(), a_crash()});
  j["subjects"][1]["defects"] = json::array();
  const std::string h = gelucheck::report::to_html(j, {});
  EXPECT_NE(h.find("<section id=\"verdict\" data-gate=\"fail\">"), std::string::npos);
  EXPECT_NE(h.find("<li>accurate: 1 defect breaks a claim (x &lt; 1 &amp; y &gt; 2)</li>"), std::string::npos);
  EXPECT_EQ(count(h, "<section id=\"defects\">"), 1u);
  EXPECT_EQ(count(h, "<div class=\"defect gate\">"), 1u);
  EXPECT_EQ(count(h, "<div class=\"defect\">"), 1u);
  for (const char* s :
       {"1. <span class=\"kind\">nan</span> NaN at x = -inf where the value is -0 <span class=\"bad\">(gate)",
        "<code>tanh.forward.f32</code>, <code>erf.forward.f32</code>",
        "x = <code>-inf</code> (<code>tanh.forward.f32</code>): got <code>nan</code>, expected <code>-0x0p+0</code>",
        "<code>-inf</code> to <code>-0x1.2p+5</code>", "x * (1 + tanh(u)) with tanh(u) = -1: -inf * 0",
        "<code>gelucheck eval &apos;lib:./my &lt;gelu&gt;.so&apos; tanh.forward.f32 -inf</code>",
        "print(mine.gelu(float(&quot;-inf&quot;)))", "correctly rounded (&lt;= 0.5 ulp)",
        "<code>scalar_tanh.limit_at_minus_inf</code>",
        "<tr><td><code>erf.forward.f32</code></td><td class=\"n\">1</td><td><code>-inf</code></td>",
        // The crash: its input and dy, no result to show, the replay and the message.
        "2. <span class=\"kind\">crash</span> killed by signal 11 (SIGSEGV)</h4>",
        "x = <code>0x1.8p+1</code> (<code>erf.backward.f64</code>), dy = <code>-0x1p+0</code></td>",
        "replayed alone in a fresh child: killed by signal 11 again",
        "<pre>the subject&apos;s process died: killed by signal 11 (SIGSEGV)</pre>",
        "<code>gelucheck eval lib:./my.so erf.backward.f64 0x1.8p+1 --dy -0x1p+0</code>"})
    EXPECT_NE(h.find(s), std::string::npos) << s;
  EXPECT_EQ(h.find("got <code>null</code>"), std::string::npos);
  // The subject with an empty list has none; the others of the committed report have no list.
  EXPECT_EQ(count(h, "<p class=\"ok no-defects\">no defects</p>"), 1u);
  EXPECT_EQ(count(h, "no defects listed"), j["subjects"].size() - 2);
}

TEST(ReportHtml, WithoutAVerdictShowsTheGate) {
  json j = committed();
  j["gate"] = {{"passed", false}, {"failures", {"naive binary64 tanh value breaks its claim"}}};
  std::string h = gelucheck::report::to_html(j, {});
  EXPECT_NE(h.find("data-gate=\"fail\""), std::string::npos);
  EXPECT_NE(h.find("<li>naive binary64 tanh value breaks its claim</li>"), std::string::npos);
  j["gate"] = {{"passed", true}, {"failures", json::array()}};
  h = gelucheck::report::to_html(j, {});
  EXPECT_NE(h.find("data-gate=\"pass\""), std::string::npos);
  EXPECT_EQ(h.find("data-gate=\"fail\""), std::string::npos);
}

TEST(ReportHtml, EscapesEveryTextItShows) {
  json j = committed();
  const std::string evil = "<script>alert('x')</script><img src=x onerror=\"alert(1)\">&amp;";
  j["subjects"][0]["spec"] = "broken:" + evil;
  j["subjects"][0]["description"] = evil;
  j["subjects"][0]["findings"] = {{{"op", "tanh.forward.f64"}, {"kind", "crashed"}, {"message", evil},
                                   {"x", "0x1p+0"}, {"dy", nullptr}, {"text", evil}}};
  j["subjects"][0]["defects"] = json::array({a_defect()});
  j["subjects"][0]["defects"][0]["summary"] = evil;
  j["subjects"][0]["defects"][0]["reproduce"] = evil;
  j["accuracy"][0]["implementation"] = evil;
  j["config"]["command"] = evil;
  j["verdict"] = {{"gate", "fail"}, {"lines", {evil}}};
  const std::string h = gelucheck::report::to_html(j, {});
  EXPECT_EQ(h.find("<script"), std::string::npos);
  EXPECT_EQ(h.find("<img src=x"), std::string::npos);
  EXPECT_EQ(h.find("&amp;</"), std::string::npos) << "an entity in the text must be shown, not taken";
  EXPECT_GE(count(h, "&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt;&lt;img src=x onerror=&quot;"
                     "alert(1)&quot;&gt;&amp;amp;"),
            8u);
}

TEST(ReportHtml, InlinesThePlotsItListsAsBase64) {
  json j = committed();
  // RFC 4648's test vectors, and bytes that are not text.
  const Pngs pngs = {{"a.png", ""},       {"b.png", "f"},     {"c.png", "fo"},
                     {"d.png", "foo"},    {"e.png", "foob"},  {"f.png", "fooba"},
                     {"g.png", "foobar"}, {"h.png", std::string("\x00\xff\xfe", 3)}};
  const char* const encoded[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy", "AP/+"};
  for (const auto& [name, bytes] : pngs) j["plots"].push_back(name);
  const std::string h = gelucheck::report::to_html(j, pngs);
  for (std::size_t i = 0; i < pngs.size(); ++i)
    EXPECT_NE(h.find("alt=\"" + pngs[i].first + "\" src=\"data:image/png;base64," + encoded[i] + "\""),
              std::string::npos)
        << pngs[i].first;
  // Nothing is fetched: no URL but data: and the page's own anchors.
  EXPECT_EQ(h.find("http:"), std::string::npos);
  EXPECT_EQ(h.find("https:"), std::string::npos);
  EXPECT_EQ(h.find("src=\"file"), std::string::npos);

  j["plots"].push_back("missing.png");
  try {
    (void)gelucheck::report::to_html(j, pngs);
    ADD_FAILURE() << "a listed plot that is not given must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("missing.png"), std::string::npos) << e.what();
  }
}

TEST(ReportHtml, ADefectWithoutWhatItMustHaveIsAClearError) {
  for (const char* key : {"kind", "ops", "reproduce", "x"}) {
    json j = committed();
    j["subjects"][1]["defects"] = json::array({a_defect()});
    j["subjects"][1]["defects"][0].erase(key);
    try {
      (void)gelucheck::report::to_html(j, {});
      ADD_FAILURE() << "a defect without " << key << " was rendered";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("subjects[1].defects[0] has no `") + key + "`"),
                std::string::npos)
          << e.what();
    }
  }
  json j = committed();
  j["verdict"] = {{"gate", "maybe"}, {"lines", json::array()}};
  EXPECT_THROW((void)gelucheck::report::to_html(j, {}), std::invalid_argument);
}

// --- headless Chromium ------------------------------------------------------------------------

// The browser, or "" when it is not installed (Debian's package `chromium`).
std::string chromium() {
  const auto r = gelucheck::testing::shell("command -v chromium");
  std::string path = r.code == 0 ? r.output : "";
  while (!path.empty() && (path.back() == '\n' || path.back() == '\r')) path.pop_back();
  return path;
}

struct Rendered {
  std::string dom;                    // --dump-dom: the document as the browser parsed it
  std::vector<std::string> console;   // the page's console messages (errors, CSP violations, ...)
  std::string colours;                // png_colours.py of the screenshot: "WIDTH HEIGHT COLOURS"
  std::string why;                    // how chromium ended, its log when it failed
};

// Opens `page` in headless Chromium with a profile of its own (removed after), at 1200×900:
// the DOM, the console (Chromium logs each message as a line ":CONSOLE(…)] \"text\", source: …"
// on stderr with --enable-logging=stderr), and the screenshot's size and colours.
Rendered render(const std::string& browser, const fs::path& page) {
  ScratchDir scratch("html");
  const fs::path shot = scratch / "shot.png";
  const auto r = gelucheck::testing::shell(
      "exec '" + browser + "' --headless --no-sandbox --disable-gpu --no-first-run "
      "--user-data-dir='" + (scratch / "profile") + "' --enable-logging=stderr --v=0 "
      "--window-size=1200,900 --screenshot='" + shot.string() + "' --dump-dom 'file://" +
      page.string() + "'");
  Rendered out;
  out.dom = r.output;
  out.why = r.why + (r.code == 0 ? "" : ": " + r.errors.substr(0, 3000));
  static const std::regex console(R"(:CONSOLE[(:])");
  std::istringstream log(r.errors);
  for (std::string line; std::getline(log, line);)
    if (std::regex_search(line, console) || line.find("Uncaught") != std::string::npos)
      out.console.push_back(line);
  const auto c = gelucheck::testing::shell("exec python3 '" GELUCHECK_SOURCE_DIR
                                           "/tests/support/png_colours.py' '" + shot.string() + "'");
  out.colours = c.code == 0 ? c.output : "png_colours.py: " + c.why + ": " + c.output + c.errors;
  return out;
}

int colours_of(const std::string& line) {
  int w = 0, h = 0, n = -1;
  std::istringstream(line) >> w >> h >> n;
  return w == 1200 && h == 900 ? n : -1;
}

// A browser's own DOM serialisation of text: & < > only (quotes stay as they are).
std::string as_dom_text(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : std::string(1, c);
  return o;
}

TEST(ReportHtmlChromium, OpensWithoutErrorsAndShowsTheVerdictDefectsAndPlots) {
  const std::string browser = chromium();
  if (browser.empty())
    GTEST_SKIP() << "chromium is not installed (scripts/debian-packages.txt lists it; "
                    "scripts/setup.sh installs it): report.html was not opened in a browser";
  ScratchDir dir("html");
  // First a page with a console error on a blank screen: what the checks below look for must be
  // seen where it is there, or their silence about the report would prove nothing.
  const fs::path control = dir / "control.html";
  std::ofstream(control) << "<!DOCTYPE html><html><body><script>console.error('gelucheck control "
                            "message')</script></body></html>\n";
  const Rendered c = render(browser, control);
  ASSERT_EQ(c.console.size(), 1u) << "the control page's console message was not seen: " << c.why;
  EXPECT_NE(c.console[0].find("gelucheck control message"), std::string::npos) << c.console[0];
  EXPECT_GE(colours_of(c.colours), 1) << c.colours;
  EXPECT_LE(colours_of(c.colours), 2) << "a blank page: " << c.colours;

  // A report with a gated subject that breaks its claims, plots and all, in about a second.
  const fs::path out = dir / "r";
  const auto g = gelucheck::testing::shell(
      "exec '" GELUCHECK_EXE "' report --subject reference --subject broken:away:2 --formats bf16 "
      "--functions tanh.value --no-properties --quiet --out '" + out.string() + "' 2>&1");
  ASSERT_EQ(g.code, 0) << g.why << ": " << g.output;
  EXPECT_EQ(gelucheck::testing::report_file_problems({out.string()}), "");
  const json j = json::parse(slurp(out / "report.json"));
  const Rendered r = render(browser, out / "report.html");

  EXPECT_TRUE(r.console.empty()) << "loading report.html logged on the console:\n"
                                 << testing::PrintToString(r.console);
  // The verdict, as report.json has it.
  const bool passed = j.contains("verdict") ? j["verdict"]["gate"] == "pass" : j["gate"]["passed"].get<bool>();
  EXPECT_FALSE(passed) << "broken:away:2 breaks its claims";
  EXPECT_NE(r.dom.find(std::string("<section id=\"verdict\" data-gate=\"") + (passed ? "pass" : "fail") + "\">"),
            std::string::npos)
      << r.why;
  for (const auto& line : j.contains("verdict") ? j["verdict"]["lines"] : j["gate"]["failures"])
    EXPECT_NE(r.dom.find("<li>" + as_dom_text(line.get<std::string>()) + "</li>"), std::string::npos) << line;
  // The defects section: per subject its heading, its defects or "no defects".
  const std::size_t at = r.dom.find("<section id=\"defects\">");
  ASSERT_NE(at, std::string::npos) << r.dom.substr(0, 2000);
  const std::string defects = r.dom.substr(at, r.dom.find("</section>", at) - at);
  std::size_t listed = 0, without = 0;
  for (const auto& s : j["subjects"]) {
    EXPECT_NE(defects.find("<h3><code class=\"wrap\">" + as_dom_text(s["spec"].get<std::string>()) + "</code>"),
              std::string::npos)
        << s["spec"];
    const std::size_t n = s.contains("defects") ? s["defects"].size() : 0;
    listed += n;
    without += n == 0;
    if (s.contains("defects")) {
      for (const auto& d : s["defects"])
        EXPECT_NE(defects.find(as_dom_text(d["reproduce"].get<std::string>())), std::string::npos) << d;
    }
  }
  EXPECT_EQ(count(defects, "<div class=\"defect"), listed);
  EXPECT_EQ(count(defects, "no-defects\">no defects"), without);
  // Every plot inline, none fetched.
  EXPECT_EQ(count(r.dom, "src=\"data:image/png;base64,"), j["plots"].size());
  EXPECT_EQ(j["plots"].size(), 3u) << "ulp, histogram and gap plots of bfloat16";
  // The screenshot of the first screen shows something: text, the verdict's box (a blank page
  // has one colour; anti-aliased text alone has dozens).
  EXPECT_GE(colours_of(r.colours), 32) << r.colours;
}

// --- the schema -------------------------------------------------------------------------------

TEST(ReportSchema, NamesEveryDefectKindInTheOrderOfDefectsHpp) {
  const json s = json::parse(slurp(GELUCHECK_SOURCE_DIR "/reports/schema/report.schema.json"));
  json names = json::array();
  for (gelucheck::report::DefectKind k : gelucheck::report::kDefectKinds)
    names.push_back(std::string(gelucheck::report::defect_kind_name(k)));
  EXPECT_EQ(s["$defs"]["defect_kind"]["enum"], names);
}

// The committed report is valid, and a copy changed in one place is not (so that a schema that
// accepted anything would fail here).
TEST(ReportSchema, AcceptsTheCommittedReportAndRejectsWhatItMust) {
  ScratchDir dir("html");
  auto write = [&](const std::string& name, const json& j) {
    fs::create_directories(dir / name);
    std::ofstream(fs::path(dir / name) / "report.json") << j.dump(2);
    return dir / name;
  };
  json base = json::parse(slurp(GELUCHECK_SOURCE_DIR "/records/report/report.json"));
  std::vector<std::string> good, bad;
  good.push_back(write("committed", base));
  // The copies changed below with fewer rows and property checks: validating a whole report
  // takes a second of Python, and one row shows what is wrong as well as 80.
  auto first_two = [](json& a) {
    if (a.size() > 2) a.erase(a.begin() + 2, a.end());
  };
  first_two(base["accuracy"]);
  first_two(base["properties"]["tests"]);
  for (auto& s : base["subjects"]) first_two(s["properties"]["tests"]);
  // As version 3 has it: every subject with its defects, every row with its finite max.
  json v3 = base;
  v3["schema"] = "gelucheck.report/3";
  for (auto& s : v3["subjects"]) s["defects"] = json::array();
  v3["subjects"][0]["defects"] = json::array({a_defect(), a_crash()});
  for (auto& row : v3["accuracy"]) {
    row["finite_max_ulp"] = 0.5;
    row["finite_worst"] = {{"x", "0x1p+0"}, {"expected", "0x1.aep-1"}, {"got", "0x1.aep-1"}};
  }
  v3["verdict"] = {{"gate", "fail"}, {"lines", {"a line"}}};
  good.push_back(write("with-defects", v3));
  json j = v3;
  j["subjects"][1].erase("defects");
  bad.push_back(write("v3-subject-without-defects", j));
  j = v3;
  j["accuracy"][0].erase("finite_max_ulp");
  bad.push_back(write("v3-row-without-finite-max", j));
  j = base;
  j.erase("gate");
  bad.push_back(write("no-gate", j));
  j = base;
  j["schema"] = "gelucheck.report/4";
  bad.push_back(write("schema-4", j));
  for (const char* key : {"kind", "ops", "count", "x", "expected", "got", "reproduce"}) {
    j = base;
    j["subjects"][0]["defects"] = json::array({a_defect()});
    j["subjects"][0]["defects"][0].erase(key);
    bad.push_back(write(std::string("defect-without-") + key, j));
  }
  j = base;
  j["subjects"][0]["defects"] = json::array({a_defect()});
  j["subjects"][0]["defects"][0]["kind"] = "wrong_colour";
  bad.push_back(write("defect-kind", j));
  j = base;
  j["accuracy"][0]["first_break"] = {{"x", "1.5"}, {"expected", "0x1p+0"}, {"got", "0x1p+0"},
                                     {"ulp", 1}, {"zero_sign_mismatch", false}};
  bad.push_back(write("decimal-not-hex", j));
  j = base;
  j["accuracy"][0]["regions"]["overall"]["max_ulp"] = "infinity";
  bad.push_back(write("num-spelling", j));

  std::vector<std::string> all = good;
  all.insert(all.end(), bad.begin(), bad.end());
  const std::string problems = gelucheck::testing::report_file_problems(all, /*schema_only=*/true);
  for (const std::string& p : good) EXPECT_EQ(problems.find(p + "/"), std::string::npos) << problems;
  for (const std::string& p : bad) EXPECT_NE(problems.find(p + "/"), std::string::npos) << p << " was accepted";
}

}  // namespace
