// report.html: the report as one page for a person who opens it from a CI artifact, rendered
// from report.json's content only, like report.md (so they never disagree). One file: an artifact
// viewer shows a file, not a directory, so the plots are inline (data: URIs), the style too, and
// nothing is fetched (no fonts, no scripts, no network): it reads the same offline.
//
// What it shows: the verdict, each subject's defects with the command that reproduces each, the
// at-a-glance table, the failed properties, the tanh–erf gap, the exhaustive sweep's failures,
// the plots. The per-region tables and the property suite's every check stay in report-details.md.
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
padding:.5em 1em;border-radius:6px}.defect{border:1px solid #ccc;border-left:6px solid rgb(136,136,136);
padding:.4em 1em;margin:.8em 0;border-radius:4px}.defect.gate{border-left-color:#c62828}
.kind{font-family:ui-monospace,monospace;background:rgb(51,51,51);color:#fff;padding:0 .4em;border-radius:3px}
.bad{color:#c62828;font-weight:bold}.ok{color:#2e7d32}.note{color:rgb(85,85,85)}img{max-width:100%;border:1px solid #ddd}
figure{margin:1em 0}figcaption{color:rgb(85,85,85)}
)";

void html_header(std::ostringstream& o, const json& j) {
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
    << code(at(j, "schema", "the report")) << "; the details are in <code>report-details.md</code>, "
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
// ({passed, failures}); then per subject what it is, what it is held to and how many defects.
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
    << (passed ? "every claim of a gated subject holds and every property that ran on it passed "
                 "(<code>--gate</code> exits 0)."
               : "<code>--gate</code> exits 4 on these lines (the defects marked <em>gate</em> "
                 "below).")
    << "</div>\n";
  if (!lines.empty()) {
    o << "<ul>\n";
    for (const json& l : lines) o << "<li>" << esc(l) << "</li>\n";
    o << "</ul>\n";
  }
  o << "<table>\n<tr><th>subject</th><th>what it is</th><th>held to</th><th>defects</th>"
       "<th>breaking its claims</th></tr>\n";
  std::size_t i = 0;
  for (const json& s : at(j, "subjects", "the report")) {
    const std::string where = "subjects[" + std::to_string(i++) + "]";
    std::string n = "&ndash;", breaking = "&ndash;";
    if (s.contains("defects") && s["defects"].is_array()) {
      std::size_t b = 0;
      for (const json& d : s["defects"])
        b += d.value("gated", false) || (d.contains("breaks") && d["breaks"].is_string());
      n = std::to_string(s["defects"].size());
      breaking = std::to_string(b);
    }
    o << "<tr><td>" << long_code(at(s, "spec", where)) << "</td><td>" << esc(at(s, "description", where))
      << "</td><td>" << esc(at(s, "claims_source", where))
      << (s.value("gated", false) ? " (gated)" : " (measured only)") << "</td><td class=\"n\">" << n
      << "</td><td class=\"n\">" << breaking << "</td></tr>\n";
  }
  o << "</table>\n</section>\n";
}

// A member that may be null or absent: its text, or "".
std::string optional_text(const json& d, const char* key) {
  return d.contains(key) && d[key].is_string() ? d[key].get<std::string>() : "";
}

// One defect of subjects[i].defects: its kind and line, the ops it is seen in, how many results,
// the input it is shown by (x, and got and expected where the defect has them: C99 hex or
// inf/nan), what it breaks and why, per op when several, and the commands that reproduce it.
void defect(std::ostringstream& o, const json& d, std::size_t number, const std::string& where) {
  const bool gated = d.value("gated", false);
  o << "<div class=\"defect" << (gated ? " gate" : "") << "\">\n<h4>" << number << ". <span class=\"kind\">"
    << esc(at(d, "kind", where)) << "</span> " << xml(optional_text(d, "summary"))
    << (gated ? " <span class=\"bad\">(gate)</span>" : "") << "</h4>\n<table>\n";
  std::string ops;
  for (const json& op : at(d, "ops", where)) ops += (ops.empty() ? "" : ", ") + code(op);
  o << "<tr><th>ops</th><td>" << (ops.empty() ? "&ndash;" : ops) << "</td></tr>\n<tr><th>inputs</th><td>"
    << esc(at(d, "count", where)) << "</td></tr>\n<tr><th>shown at</th><td>x = " << code(at(d, "x", where));
  if (const std::string op = optional_text(d, "op"); !op.empty()) o << " (" << code(op) << ")";
  if (d.contains("dy") && d["dy"].is_string()) o << ", dy = " << code(d["dy"]);
  const json& got = at(d, "got", where);
  const json& expected = at(d, "expected", where);
  if (!got.is_null()) o << ": got " << code(got);
  if (!expected.is_null()) o << ", expected " << code(expected);
  o << "</td></tr>\n";
  if (d.contains("range") && d["range"].is_object())
    o << "<tr><th>x from</th><td>" << code(at(d["range"], "from", where + ".range")) << " to "
      << code(at(d["range"], "to", where + ".range")) << "</td></tr>\n";
  const std::pair<const char*, const char*> lines[] = {
      {"breaks", "breaks"}, {"diagnosis", "diagnosis"}, {"confirmation", "confirmed"}};
  for (const auto& [key, label] : lines)
    if (const std::string t = optional_text(d, key); !t.empty())
      o << "<tr><th>" << label << "</th><td>" << xml(t) << "</td></tr>\n";
  if (const std::string t = optional_text(d, "detail"); !t.empty())
    o << "<tr><th>message</th><td><pre>" << xml(t) << "</pre></td></tr>\n";
  if (d.contains("properties") && d["properties"].is_array() && !d["properties"].empty()) {
    std::string ps;
    for (const json& p : d["properties"]) ps += (ps.empty() ? "" : ", ") + code(p);
    o << "<tr><th>explains the failed properties</th><td>" << ps << "</td></tr>\n";
  }
  o << "</table>\n";
  if (d.contains("per_op") && d["per_op"].is_array() && d["per_op"].size() > 1) {
    o << "<table class=\"per-op\">\n<tr><th>op</th><th>inputs</th><th>x</th><th>got</th><th>expected</th></tr>\n";
    for (const json& p : d["per_op"])
      o << "<tr><td>" << code(p.at("op")) << "</td><td class=\"n\">" << esc(p.at("count")) << "</td><td>"
        << code(p.at("x")) << "</td><td>" << (p.at("got").is_null() ? "&ndash;" : code(p["got"]))
        << "</td><td>" << (p.at("expected").is_null() ? "&ndash;" : code(p["expected"])) << "</td></tr>\n";
    o << "</table>\n";
  }
  o << "<p>Reproduce:</p>\n<pre class=\"reproduce\"><code>" << esc(at(d, "reproduce", where))
    << "</code></pre>\n";
  if (const std::string t = optional_text(d, "reproduce_native"); !t.empty())
    o << "<p>In its own terms:</p>\n<pre class=\"reproduce\"><code>" << xml(t) << "</code></pre>\n";
  o << "</div>\n";
}

void defects(std::ostringstream& o, const json& j) {
  o << "<section id=\"defects\">\n<h2>Defects</h2>\n<p>Per subject, one entry per cause however many "
       "inputs, ops and properties show it, ranked (crashes, hangs and writes first, then NaN and "
       "limits, wrong-sign zeros and flushes, then accuracy), each with a command that shows it "
       "again.</p>\n";
  std::size_t i = 0;
  for (const json& s : j.at("subjects")) {
    const std::string where = "subjects[" + std::to_string(i++) + "]";
    o << "<h3>" << long_code(at(s, "spec", where)) << " <span class=\"note\">"
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
    for (const json& d : ds) {
      defect(o, d, k + 1, where + ".defects[" + std::to_string(k) + "]");
      ++k;
    }
    // The harness's findings (crashes, hangs, writes into inputs), each with its one input, in a
    // report written before they became defects.
    const json& fs = s.contains("findings") ? s["findings"] : none;
    if (!s.contains("defects") && !fs.empty()) {
      o << "<p>Findings of the harness:</p>\n<ul>\n";
      for (const json& f : fs) o << "<li>" << esc(f.at("text")) << "</li>\n";
      o << "</ul>\n";
    }
  }
  o << "</section>\n";
}

// As report.md's: per subject and format, per function the max ulp error over the finite results
// of finite inputs and the kinds of defect in that op.
void glance(std::ostringstream& o, const json& j) {
  o << "<section id=\"glance\">\n<h2>At a glance</h2>\n<p>Per subject and format, for each function: "
       "the max ulp error over the finite results of finite inputs (special inputs and non-finite "
       "results are defects of their own, above) and the kinds of defect in that op, if any "
       "(&ndash;: not measured).</p>\n<table>\n<tr><th>subject</th><th>format</th><th>tanh value</th>"
       "<th>tanh derivative</th><th>erf value</th><th>erf derivative</th></tr>\n";
  const json& rows = at(j, "accuracy", "the report");
  for (const json& s : j.at("subjects")) {
    for (const char* fmt : {"binary64", "binary32", "bfloat16", "binary16"}) {
      std::string cells[4];
      bool any = false;
      for (const json& row : rows) {
        if (row.at("error") != "rounding" || row.at("implementation") != s.at("spec") ||
            row.at("format") != fmt)
          continue;
        const int k = (row.at("form") == "erf" ? 2 : 0) + (row.at("quantity") == "derivative" ? 1 : 0);
        // finite_max_ulp came with schema /3; an older row has only the max over every input.
        const bool has_finite = row.contains("finite_worst");
        cells[k] = has_finite ? (row["finite_worst"].is_null() ? std::string("&ndash;")
                                                               : xml(fmt_ulp(row.at("finite_max_ulp"))))
                              : xml(fmt_ulp(row.at("regions").at("overall").at("max_ulp")));
        if (s.contains("defects"))
          if (const std::string kinds = kinds_for(s, op_name_of(row)); kinds != "–")
            cells[k] += " &middot; <span class=\"bad\">" + xml(kinds) + "</span>";
        any = true;
      }
      if (!any) continue;
      o << "<tr><td>" << long_code(s.at("spec")) << "</td><td>" << fmt << "</td>";
      for (const std::string& c : cells) o << "<td class=\"n\">" << (c.empty() ? "&ndash;" : c) << "</td>";
      o << "</tr>\n";
    }
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
  html_header(o, j);
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
