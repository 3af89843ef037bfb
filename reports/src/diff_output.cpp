// diff's report.md, JUnit XML and output directory, from the comparison (checking/src/diff.cpp)
// and its JSON.
#include "gelucheck/diff.hpp"

#include <cstdint>
#include <string>

#include "gelucheck/output_dir.hpp"
#include "gelucheck/render.hpp"
#include "internal.hpp"

namespace gelucheck::report::diff {

using json = nlohmann::ordered_json;
using subject::op_of;

// --- report.md --------------------------------------------------------------------------------

const char* const kComparedHow =
    "Results are compared bit for bit (NaNs equal whatever their payload, zeros by sign); where "
    "they differ, the reference says which side is right.";

namespace {

std::string count(std::uint64_t n) {  // 1,234,567
  const std::string digits = std::to_string(n);
  std::string s;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

std::string u64(const json& v) { return count(v.get<std::uint64_t>()); }

// "A: 3 correctly rounded, 1 neither" from {"correctly_rounded": 3, "faithful": 0, "neither": 1}.
std::string verdicts_text(const json& v) {
  std::string s;
  for (const auto& [key, words] : {std::pair{"correctly_rounded", "correctly rounded"},
                                   std::pair{"faithful", "faithful"},
                                   std::pair{"neither", "neither"}}) {
    if (v[key].get<std::uint64_t>() == 0) continue;
    s += (s.empty() ? "" : ", ") + u64(v[key]) + " " + words;
  }
  return s.empty() ? "–" : s;
}

std::string op_line(const json& o) {
  const std::uint64_t dis = o["disagreements"].get<std::uint64_t>();
  std::string s = "- `" + o["op"].get<std::string>() + "`: ";
  if (dis > 0) {
    s += u64(o["disagreements"]) + " of " + u64(o["both_answered"]) + " inputs differ";
    std::string where;
    for (const RegionInfo& ri : kRegionTable) {
      if (ri.region == Region::overall) continue;
      const std::uint64_t n = o["regions"][ri.key].get<std::uint64_t>();
      if (n) where += (where.empty() ? "" : ", ") + std::string(ri.name) + ": " + count(n);
    }
    s += " (" + where + "; " + u64(o["runs"]["count"]) + " run(s)";
    if (!o["runs"]["longest"].is_null())
      s += ", the longest " + u64(o["runs"]["longest"]["count"]) + " from " +
           o["runs"]["longest"]["first"].get<std::string>() + " to " +
           o["runs"]["longest"]["last"].get<std::string>();
    s += "). Right: A " + verdicts_text(o["a"]) + "; B " + verdicts_text(o["b"]) +
         "; better: A at " + u64(o["better"]["a"]) + ", B at " + u64(o["better"]["b"]) +
         (o["better"]["tie"].get<std::uint64_t>() ? ", neither at " + u64(o["better"]["tie"]) : "") +
         ".";
    const json& f = o["first"][0];
    s += " First x = " + f["x"].get<std::string>() + ": A = " + f["a"].get<std::string>() + " (" +
         f["a_verdict"].get<std::string>() + "), B = " + f["b"].get<std::string>() + " (" +
         f["b_verdict"].get<std::string>() + "), correctly rounded " +
         f["expected"].get<std::string>() + ".";
  }
  for (const char* side : {"a", "b"}) {
    const std::string key = std::string("only_") + side;
    if (o[key].get<std::uint64_t>() == 0) continue;
    s += (dis > 0 ? " " : "") + std::string("Only ") + (side[0] == 'a' ? "A" : "B") +
         " answered at " + u64(o[key]) + " input(s): " +
         (side[0] == 'a' ? "B" : "A") + "'s calls failed there (below).";
  }
  return s;
}

}  // namespace

std::string verdict_cell(const json& c) {
  std::size_t compared = 0, differing = 0;
  std::uint64_t inputs = 0;
  for (const json& o : c["ops"]) {
    if (!o["compared"].get<bool>()) continue;
    ++compared;
    inputs += o["both_answered"].get<std::uint64_t>();
    if (o["disagreements"].get<std::uint64_t>() + o["only_a"].get<std::uint64_t>() +
            o["only_b"].get<std::uint64_t>() >
        0)
      ++differing;
  }
  if (compared == 0) return "nothing compared (no op both provide)";
  if (differing == 0)
    return "**identical** in " + std::to_string(compared) + " op(s), " + count(inputs) + " results";
  std::uint64_t a_better = 0, b_better = 0;
  for (const json& o : c["ops"])
    if (o["compared"].get<bool>()) {
      a_better += o["better"]["a"].get<std::uint64_t>();
      b_better += o["better"]["b"].get<std::uint64_t>();
    }
  return "**differ** at " + u64(c["disagreements"]) + " input(s) in " + std::to_string(differing) +
         " of " + std::to_string(compared) + " op(s); nearer the exact value: A at " +
         count(a_better) + ", B at " + count(b_better);
}

std::string comparison_markdown(const json& c, const std::string& heading) {
  std::string md = heading + " `" + c["a"]["spec"].get<std::string>() + "` (A) and `" +
                   c["b"]["spec"].get<std::string>() + "` (B)\n\n";
  md += "- A: " + c["a"]["description"].get<std::string>() + "\n- B: " +
        c["b"]["description"].get<std::string>() + "\n\n";
  std::string same, lines, findings;
  std::vector<std::pair<std::string, std::string>> not_compared;  // (why, ops), one per reason
  for (const json& o : c["ops"]) {
    const std::string op = o["op"].get<std::string>();
    if (!o["compared"].get<bool>()) {
      const std::string why = o["why_not"].get<std::string>();
      auto it = std::find_if(not_compared.begin(), not_compared.end(),
                             [&](const auto& p) { return p.first == why; });
      if (it == not_compared.end())
        not_compared.emplace_back(why, op);
      else
        it->second += ", " + op;
      continue;
    }
    if (o["disagreements"].get<std::uint64_t>() + o["only_a"].get<std::uint64_t>() +
            o["only_b"].get<std::uint64_t>() ==
        0)
      same += (same.empty() ? "`" : ", `") + op + "`";
    else
      lines += op_line(o) + "\n";
    for (const char* side : {"a", "b"})
      for (const json& f : o["findings"][side])
        findings += "- " + std::string(side[0] == 'a' ? "A" : "B") + ": " +
                    f["text"].get<std::string>() + "\n";
  }
  if (!lines.empty()) md += "Where they differ (one line per op):\n\n" + lines + "\n";
  if (!same.empty()) md += "Identical: " + same + ".\n\n";
  for (const auto& [why, ops] : not_compared) md += "Not compared (" + why + "): " + ops + ".\n\n";
  if (!findings.empty()) md += "Misbehaviour found by the harness:\n\n" + findings + "\n";
  return md;
}

std::string to_markdown(const json& j) {
  std::string md = "# gelucheck diff\n\n`" + j["command"].get<std::string>() + "` — " +
                   j["started_utc"].get<std::string>() + ", gelucheck " +
                   j["provenance"]["gelucheck"]["version"].get<std::string>() + " (" +
                   j["provenance"]["gelucheck"]["commit"].get<std::string>() + "). Inputs: " +
                   (j["inputs"]["range"].is_null()
                        ? std::string("the campaign's (seed ") +
                              std::to_string(j["inputs"]["seed"].get<std::uint64_t>()) + ", " +
                              u64(j["inputs"]["points"]) +
                              " points per sampled format; the 16-bit formats every value)"
                        : "every binary32 bit pattern in " + j["inputs"]["range"].get<std::string>() +
                              "; the other formats the campaign's") +
                   ". " + kComparedHow + "\n\n";
  md += "| A | B | verdict |\n|---|---|---|\n";
  for (const json& c : j["comparisons"])
    md += "| `" + c["a"]["spec"].get<std::string>() + "` | `" + c["b"]["spec"].get<std::string>() +
          "` | " + verdict_cell(c) + " |\n";
  for (const json& c : j["comparisons"]) md += "\n" + comparison_markdown(c, "##");
  md += "\nEvery disagreement's count, regions, runs and first inputs: `report.json` (schema `" +
        std::string(kSchema) + "`, docs/cli.md).\n";
  return md;
}

// --- JUnit ------------------------------------------------------------------------------------

std::string to_junit(const Result& r) {
  std::string o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" +
                  xml(r.options.command) + "\">\n";
  for (const Comparison& c : r.comparisons) {
    std::size_t failures = 0, tests = 0;
    std::string cases;
    for (const OpDiff& d : c.ops) {
      ++tests;
      const std::string op = subject::op_name(op_of(d.function, d.format));
      cases += "    <testcase classname=\"diff\" name=\"" + xml(op) + "\">";
      const std::uint64_t n = d.disagreements + d.only_a + d.only_b;
      if (!d.compared) {
        cases += "<skipped message=\"" + xml(d.why_not) + "\"/>";
      } else if (n > 0) {
        ++failures;
        std::string text = std::to_string(d.disagreements) + " of " + std::to_string(d.both) +
                           " inputs differ";
        if (!d.first.empty())
          text += "; first x = " + hexfloat(d.first[0].x) + ": A = " + hexfloat(d.first[0].a.got) +
                  " (" + verdict_name(d.first[0].a.verdict) + "), B = " +
                  hexfloat(d.first[0].b.got) + " (" + verdict_name(d.first[0].b.verdict) + ")";
        if (d.only_a + d.only_b > 0)
          text += "; one side only answered at " + std::to_string(d.only_a + d.only_b);
        cases += "<failure message=\"" + xml(text) + "\"/>";
      }
      cases += "</testcase>\n";
    }
    o += "  <testsuite name=\"" + xml(c.a + " vs " + c.b) + "\" tests=\"" +
         std::to_string(tests) + "\" failures=\"" + std::to_string(failures) + "\">\n" + cases +
         "  </testsuite>\n";
  }
  return o + "</testsuites>\n";
}

std::vector<std::string> write(const Result& r, const std::string& out) {
  output::Writer w(out, "gelucheck diff");
  try {
    const json j = to_json(r);
    w.write_file("report.json", j.dump(2) + "\n");
    w.write_file("report.md", to_markdown(j));
    w.commit();
  } catch (const output::Refused&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error("writing the diff to " + w.target() + ": " + e.what());
  }
  return w.notes();
}

}  // namespace gelucheck::report::diff
