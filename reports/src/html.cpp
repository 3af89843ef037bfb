// report.html: the report as one page for a person who opens it from a CI artifact, rendered
// from report.json's content only, like report.md (so they never disagree). One file: an artifact
// viewer shows a file, not a directory, so the plots are inline (data: URIs), the style too, and
// nothing is fetched (no fonts, no scripts, no network): it reads the same offline.
//
// What it shows: the verdict, each subject's defects with the command that reproduces each, the
// at-a-glance table, the failed properties, the tanh–erf gap, the exhaustive sweep's failures,
// the plots. The per-region tables and the property suite's every check stay in report.md.
#include <boost/archive/iterators/base64_from_binary.hpp>
#include <boost/archive/iterators/transform_width.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "internal.hpp"  // fmt_num, fmt_ulp, xml

namespace gelucheck::report {
namespace {

using json = nlohmann::ordered_json;

// RFC 4648 base64 with padding, by Boost.Serialization's iterators (header-only, in libboost-dev):
// 6-bit groups of the bytes (the last group padded with zero bits), then '=' to a multiple of 4.
std::string base64(const std::string& bytes) {
  namespace it = boost::archive::iterators;
  using Encoder = it::base64_from_binary<it::transform_width<std::string::const_iterator, 6, 8>>;
  std::string out(Encoder(bytes.begin()), Encoder(bytes.end()));
  out.append((3 - bytes.size() % 3) % 3, '=');
  return out;
}

std::string esc(const json& v) { return xml(v.is_string() ? v.get<std::string>() : v.dump()); }
std::string code(const json& v) { return "<code>" + esc(v) + "</code>"; }
// For what may be long (a lib: path, 40 digits) in a table cell: may break anywhere.
std::string long_code(const json& v) { return "<code class=\"wrap\">" + esc(v) + "</code>"; }

// A member that must be there, with the path named when it is not (a report of another schema,
// or a writer's bug), rather than nlohmann's bare "key not found".
const json& at(const json& o, const char* key, const std::string& where) {
  if (!o.is_object() || !o.contains(key))
    throw std::invalid_argument("report.json: " + where + " has no `" + key + "`");
  return o[key];
}

const char* kStyle = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1200px;
padding:1em 2em;color:#1b1b1b;background:#fff;line-height:1.4}
h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:1.6em}
nav a{margin-right:1em}code,pre{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.92em}
pre{background:#f4f4f4;border:1px solid #ddd;padding:.5em;overflow-x:auto;white-space:pre-wrap}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}th,td{border:1px solid #ccc;padding:.25em .5em;
vertical-align:top;text-align:left}th{background:#f0f0f0}td.n{text-align:right;white-space:nowrap}td code{white-space:nowrap}
td code.wrap{white-space:normal;overflow-wrap:anywhere}
.verdict{padding:.8em 1em;border-radius:6px;font-size:1.1em}.pass{background:#e3f5e1;border:2px solid #2e7d32}
.fail{background:#fde7e7;border:2px solid #c62828}.broken{background:#fff4d6;border:2px solid #b7791f;
padding:.5em 1em;border-radius:6px}.defect{border:1px solid #ccc;border-left:6px solid #c62828;
padding:.4em 1em;margin:.8em 0;border-radius:4px}.defect.measured{border-left-color:#888}
.kind{font-family:ui-monospace,monospace;background:#333;color:#fff;padding:0 .4em;border-radius:3px}
.bad{color:#c62828;font-weight:bold}.ok{color:#2e7d32}.note{color:#555}img{max-width:100%;border:1px solid #ddd}
figure{margin:1em 0}figcaption{color:#555}
)";

void header(std::ostringstream& o, const json& j) {
  const json& cfg = at(j, "config", "the report");
  const bool exhaustive = j.contains("exhaustive");
  o << "<h1>gelucheck accuracy report</h1>\n<p>Made by <code>" << esc(at(cfg, "command", "config"))
    << "</code> (";
  if (exhaustive) {
    const json& ex = j["exhaustive"];
    const json& range = at(ex, "range", "exhaustive");
    o << "exhaustive: "
      << (at(ex, "all_of_binary32", "exhaustive").get<bool>()
              ? std::string("every binary32 input")
              : "every binary32 input of the bit patterns [" + esc(range.at("lo")) + ", " +
                    esc(range.at("hi")) + ")")
      << ", " << esc(at(ex, "inputs", "exhaustive")) << " inputs";
  } else {
    o << "seed " << esc(at(cfg, "seed", "config")) << ", " << esc(at(cfg, "points", "config"))
      << " points per sampled format" << (cfg.value("properties", true) ? "" : ", no properties")
      << (cfg.value("plots", true) ? "" : ", no plots");
  }
  o << ") on " << esc(at(at(j, "run", "the report"), "started_utc", "run")) << ". Schema "
    << code(at(j, "schema", "the report")) << "; the full tables are in <code>report.md</code>, "
    << "every figure in <code>report.json</code>.</p>\n";
  if (j.contains("provenance")) {
    const json& p = j["provenance"];
    o << "<p class=\"note\">gelucheck " << esc(p.at("gelucheck").at("version")) << " (commit "
      << code(p.at("gelucheck").at("commit")) << "), " << esc(p.at("compiler").at("id")) << " "
      << esc(p.at("compiler").at("version")) << " " << esc(p.at("compiler").at("build_type"))
      << "; " << esc(p.at("libraries").at("libc")) << ", MPFR " << esc(p.at("libraries").at("mpfr"))
      << "; CPU " << esc(p.at("cpu").at("model")) << ".</p>\n";
  }
  for (const json& s : at(j, "subjects", "the report"))
    if (s.at("spec").get<std::string>().rfind("broken:", 0) == 0)
      o << "<p class=\"broken\"><strong>A DELIBERATELY BROKEN SUBJECT</strong> is measured here ("
        << code(s.at("spec")) << ": " << esc(s.at("description")) << "), on purpose.</p>\n";
}

// The verdict: report.json's `verdict` ({gate, lines}) where there is one, else its `gate`
// ({passed, failures}), the older form of the same.
void verdict(std::ostringstream& o, const json& j) {
  bool passed;
  json lines;
  if (j.contains("verdict")) {
    const json& v = j["verdict"];
    const std::string gate = at(v, "gate", "verdict").get<std::string>();
    if (gate != "pass" && gate != "fail")
      throw std::invalid_argument("report.json: verdict.gate is \"" + gate + "\", not pass or fail");
    passed = gate == "pass";
    lines = v.value("lines", json::array());
  } else {
    const json& g = at(j, "gate", "the report");
    passed = at(g, "passed", "gate").get<bool>();
    lines = g.value("failures", json::array());
  }
  o << "<section id=\"verdict\" data-gate=\"" << (passed ? "pass" : "fail") << "\">\n<h2>Verdict</h2>\n"
    << "<div class=\"verdict " << (passed ? "pass" : "fail") << "\"><strong>"
    << (passed ? "PASS" : "FAIL") << "</strong>: "
    << (passed ? "every claim holds and every property that ran on a gated subject passed "
                 "(<code>--gate</code> exits 0)."
               : "<code>--gate</code> exits 4.")
    << "</div>\n";
  if (!lines.empty()) {
    o << "<ul>\n";
    for (const json& l : lines) o << "<li>" << esc(l) << "</li>\n";
    o << "</ul>\n";
  }
  o << "</section>\n";
}

// One defect of subjects[i].defects: its kind and line, the ops it is seen in, how many results,
// the first point (x, got, expected: C99 hex or inf/nan), and the commands that reproduce it.
void defect(std::ostringstream& o, const json& d, const std::string& where) {
  const bool gated = d.value("gated", true);
  o << "<div class=\"defect" << (gated ? "" : " measured") << "\">\n<h4>";
  if (d.contains("rank") && d["rank"].is_number()) o << "#" << esc(d["rank"]) << " ";
  o << "<span class=\"kind\">" << esc(at(d, "kind", where)) << "</span> ";
  if (d.contains("summary") && d["summary"].is_string()) o << esc(d["summary"]);
  o << (gated ? "" : " <span class=\"note\">(measured only, not gated)</span>") << "</h4>\n<table>\n";
  std::string ops;
  for (const json& op : at(d, "ops", where)) ops += (ops.empty() ? "" : ", ") + code(op);
  o << "<tr><th>ops</th><td>" << ops << "</td></tr>\n<tr><th>results</th><td>"
    << esc(at(d, "count", where)) << "</td></tr>\n<tr><th>first at x</th><td>"
    << code(at(d, "x", where)) << ": got " << code(at(d, "got", where)) << ", expected "
    << code(at(d, "expected", where)) << "</td></tr>\n";
  if (d.contains("range") && d["range"].is_object())
    o << "<tr><th>x from</th><td>" << code(at(d["range"], "from", where + ".range")) << " to "
      << code(at(d["range"], "to", where + ".range")) << "</td></tr>\n";
  if (d.contains("breaks") && d["breaks"].is_string())
    o << "<tr><th>breaks</th><td>" << esc(d["breaks"]) << "</td></tr>\n";
  if (d.contains("diagnosis") && d["diagnosis"].is_string())
    o << "<tr><th>diagnosis</th><td>" << esc(d["diagnosis"]) << "</td></tr>\n";
  o << "</table>\n<p>Reproduce:</p>\n<pre class=\"reproduce\"><code>" << esc(at(d, "reproduce", where))
    << "</code></pre>\n";
  if (d.contains("reproduce_native") && d["reproduce_native"].is_string())
    o << "<p>Without gelucheck:</p>\n<pre class=\"reproduce\"><code>" << esc(d["reproduce_native"])
      << "</code></pre>\n";
  o << "</div>\n";
}

void defects(std::ostringstream& o, const json& j) {
  o << "<section id=\"defects\">\n<h2>Defects</h2>\n<p>Per subject, one entry per cause, with the "
       "command that shows it again.</p>\n";
  std::size_t i = 0;
  for (const json& s : j.at("subjects")) {
    const std::string where = "subjects[" + std::to_string(i++) + "]";
    o << "<h3>" << code(at(s, "spec", where)) << " <span class=\"note\">"
      << (s.value("gated", false) ? "gated" : "measured only") << "</span></h3>\n";
    const json none = json::array();
    const json& ds = s.contains("defects") && !s["defects"].is_null() ? s["defects"] : none;
    if (!ds.is_array()) throw std::invalid_argument("report.json: " + where + ".defects is not an array");
    // A report.json without the list (written before it) says nothing either way: not green.
    if (ds.empty())
      o << (s.contains("defects") ? "<p class=\"ok no-defects\">no defects</p>\n"
                                  : "<p class=\"note no-defects\">no defects listed (this report.json "
                                    "has no <code>defects</code>: see the verdict and the table "
                                    "below)</p>\n");
    std::size_t k = 0;
    for (const json& d : ds) defect(o, d, where + ".defects[" + std::to_string(k++) + "]");
    // The harness's findings (crashes, hangs, writes into inputs), each with its one input.
    const json& fs = s.contains("findings") ? s["findings"] : none;
    if (!fs.empty()) {
      o << "<p>Findings of the harness:</p>\n<ul>\n";
      for (const json& f : fs) o << "<li>" << esc(f.at("text")) << "</li>\n";
      o << "</ul>\n";
    }
  }
  o << "</section>\n";
}

void glance(std::ostringstream& o, const json& j) {
  o << "<section id=\"glance\">\n<h2>At a glance</h2>\n<p>Per subject, format and function: the "
       "largest ulp error and where; the greatest x &le; &minus;1 whose result collapses to &plusmn;0 "
       "although zero is not even a faithful rounding (and how many inputs get such a zero); where "
       "a NaN comes out of a number; <code>torch.testing.assert_close</code>'s default tolerances; "
       "the claim.</p>\n<table>\n<tr><th>subject</th><th>format</th><th>function</th><th>inputs</th>"
       "<th>max ulp</th><th>at x</th><th>collapses to 0 from x =</th><th>NaN at</th>"
       "<th>framework default</th><th>claim</th></tr>\n";
  for (const json& row : at(j, "accuracy", "the report")) {
    if (row.at("error") != "rounding") continue;
    const json& all = row.at("regions").at("overall");
    const json& nan = row.at("nan");
    std::string nans;
    auto add = [&nans](const std::string& s) { nans += (nans.empty() ? "" : ", ") + s; };
    if (nan.at("at_minus_inf").get<bool>()) add("&minus;inf");
    if (nan.at("at_plus_inf").get<bool>()) add("+inf");
    if (!nan.at("min_abs_x").is_null()) add("finite x from |x| = " + code(nan["min_abs_x"]));
    const json& fw = row.at("framework_default");
    std::string fws = "&ndash;";
    if (!fw.is_null())
      fws = fw.at("breaks").get<std::size_t>() == 0
                ? "<span class=\"ok\">holds</span>"
                : "<span class=\"bad\">breaks</span> at " + esc(fw["breaks"]) + " inputs, first " +
                      code(fw.at("first_break").at("x"));
    const json& claim = row.at("claim");
    const std::string claims =
        claim.is_null() ? std::string("no claim")
                        : (row.at("meets_claim").get<bool>() ? "<span class=\"ok\">holds</span>: "
                                                             : "<span class=\"bad\">BROKEN</span>: ") +
                              esc(claim.at("text"));
    const json& w = all.at("worst");
    o << "<tr><td>" << long_code(row.at("implementation")) << "</td><td>" << esc(row.at("format"))
      << (row.value("exhaustive", false) ? " (all)" : "") << "</td><td>" << esc(row.at("form")) << " "
      << esc(row.at("quantity")) << "</td><td class=\"n\">" << esc(all.at("count"))
      << "</td><td class=\"n\">" << xml(fmt_ulp(all.at("max_ulp"))) << "</td><td>"
      << (w.is_null() ? std::string("&ndash;") : code(w.at("x"))) << "</td><td>"
      << (row.at("wrong_zero_max_x").is_null() ? std::string("&ndash;") : code(row["wrong_zero_max_x"]))
      << (row.at("wrong_zeros").get<std::size_t>() ? " (" + esc(row["wrong_zeros"]) + ")" : "")
      << "</td><td>" << (nans.empty() ? "&ndash;" : nans) << "</td><td>" << fws << "</td><td>"
      << claims << "</td></tr>\n";
  }
  o << "</table>\n</section>\n";
}

void properties(std::ostringstream& o, const json& j) {
  o << "<section id=\"properties\">\n<h2>Properties each subject breaks</h2>\n<ul>\n";
  for (const json& s : j.at("subjects")) {
    const json& p = s.at("properties");
    o << "<li>" << code(s.at("spec")) << ": ";
    if (p.at("status") != "run") {
      o << "not run (" << esc(p["status"]) << ": " << esc(p.value("reason", "")) << ")</li>\n";
      continue;
    }
    std::string failed;
    for (const json& t : p.at("tests"))
      if (t.at("outcome") == "fail")
        failed += "<li>" + code(t.at("suite").get<std::string>() + "." + t.at("name").get<std::string>()) +
                  "<pre>" + esc(t.value("message", "")) + "</pre></li>\n";
    o << (failed.empty() ? "none" : "<ul>\n" + failed + "</ul>") << "</li>\n";
  }
  o << "</ul>\n</section>\n";
}

void gap(std::ostringstream& o, const json& j) {
  const json& g = at(j, "gap", "the report");
  o << "<section id=\"gap\">\n<h2>The tanh&ndash;erf gap</h2>\n<p>g(x) = tanh form &minus; erf form, "
       "exact (MPFR), sampled at "
    << esc(g.at("curve").at("points")) << " points over [" << xml(fmt_num(g["curve"].at("lo"))) << ", "
    << xml(fmt_num(g["curve"].at("hi")))
    << "] and refined by golden-section search; beside it the sup certified over all reals.</p>\n"
       "<table>\n<tr><th>quantity</th><th>sup |g|</th><th>at |x|</th><th>g there</th>"
       "<th>certified sup over all reals, at |x|</th></tr>\n";
  for (const char* q : {"value", "derivative"}) {
    const json& s = g.at(q);
    const json c = s.value("certified", json::object());
    o << "<tr><td>" << q << "</td><td class=\"n\">" << esc(s.at("sup_decimal")) << "</td><td class=\"n\">"
      << xml(fmt_num(s.at("at_abs_x"), 17)) << " (" << code(s.at("at_abs_x_hex")) << ")</td><td class=\"n\">"
      << xml(fmt_num(s.at("gap_at"), 17)) << "</td><td>"
      << (c.contains("lo") ? "[" + long_code(c["lo"]) + ", " + long_code(c.at("hi")) + "] at " +
                                 code(c.at("at_abs_x_hex"))
                           : std::string("&ndash;"))
      << "</td></tr>\n";
  }
  o << "</table>\n</section>\n";
}

void exhaustive(std::ostringstream& o, const json& ex) {
  o << "<section id=\"exhaustive\">\n<h2>Exhaustive binary32</h2>\n<table>\n<tr><th>function</th>"
       "<th>claim</th><th>inputs</th><th>failing</th><th>first failing inputs (x: got, expected)</th></tr>\n";
  for (const json& f : at(ex, "functions", "exhaustive")) {
    std::string first;
    for (const json& x : f.at("failures"))
      first += (first.empty() ? "" : "<br>") + code(x.at("x")) + ": " + code(x.at("got")) + ", " +
               code(x.at("expected"));
    if (f.value("failures_truncated", false)) first += "<br>&hellip;";
    o << "<tr><td>" << esc(f.at("function")) << "</td><td>" << esc(f.at("claim")) << "</td><td class=\"n\">"
      << esc(f.at("inputs")) << "</td><td class=\"n\">" << esc(f.at("failing")) << "</td><td>"
      << (first.empty() ? "&ndash;" : first) << "</td></tr>\n";
  }
  o << "</table>\n</section>\n";
}

void plots(std::ostringstream& o, const json& j, const std::vector<std::pair<std::string, std::string>>& pngs) {
  o << "<section id=\"plots\">\n<h2>Plots</h2>\n";
  const json& names = at(j, "plots", "the report");
  if (names.empty()) o << "<p>Not drawn.</p>\n";
  for (const json& n : names) {
    const std::string name = n.get<std::string>();
    const std::string* bytes = nullptr;
    for (const auto& [file, content] : pngs)
      if (file == name) bytes = &content;
    if (!bytes) throw std::invalid_argument("report.html: report.json lists the plot " + name +
                                            " but it was not given to be inlined");
    o << "<figure><img alt=\"" << xml(name) << "\" src=\"data:image/png;base64," << base64(*bytes)
      << "\"><figcaption>" << xml(name) << "</figcaption></figure>\n";
  }
  o << "</section>\n";
}

std::string page(const json& j, const std::vector<std::pair<std::string, std::string>>& png_files) {
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       // Nothing may be fetched: the page is read from an artifact, offline.
       "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
       "style-src 'unsafe-inline'; img-src data:\">\n"
       "<title>gelucheck accuracy report</title>\n<style>"
    << kStyle << "</style>\n</head>\n<body>\n";
  header(o, j);
  const bool ex = j.contains("exhaustive");
  o << "<nav><a href=\"#verdict\">Verdict</a><a href=\"#defects\">Defects</a><a href=\"#glance\">At a "
       "glance</a>"
    << (ex ? "<a href=\"#exhaustive\">Exhaustive</a>" : "<a href=\"#gap\">tanh&ndash;erf gap</a>")
    << "<a href=\"#plots\">Plots</a></nav>\n";
  verdict(o, j);
  defects(o, j);
  glance(o, j);
  properties(o, j);
  if (ex) exhaustive(o, j["exhaustive"]);
  else gap(o, j);
  plots(o, j, png_files);
  o << "</body>\n</html>\n";
  return o.str();
}

}  // namespace

std::string to_html(const json& j, const std::vector<std::pair<std::string, std::string>>& png_files) {
  try {
    return page(j, png_files);
  } catch (const nlohmann::json::exception& e) {
    // A member of another type than the schema's, or missing where `at` does not name it.
    throw std::invalid_argument(std::string("report.json is not as report.html reads it: ") + e.what());
  }
}


}  // namespace gelucheck::report
