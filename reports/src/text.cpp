// The text helpers the report's renderers share (report.md, report.html, JUnit XML): one way to
// print a number or an ulp error, one way to escape text for XML and HTML, and what an
// at-a-glance cell names.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "internal.hpp"

namespace gelucheck::report {

std::string fmt_num(const nlohmann::ordered_json& v, int digits, bool fixed) {
  if (v.is_null()) return "–";
  if (v.is_string()) return v.get<std::string>();
  char buf[64];
  if (fixed) std::snprintf(buf, sizeof buf, "%.*f", digits, v.get<double>());
  else std::snprintf(buf, sizeof buf, "%.*g", digits, v.get<double>());
  return buf;
}

std::string fmt_ulp(const nlohmann::ordered_json& v) {
  std::string s = fmt_num(v);
  if (!v.is_number()) return s;
  const double u = v.get<double>();
  for (const double b : {0.5, 1.0}) {
    if (u == b || !(std::fabs(u - b) < 1e-3)) continue;
    // Three digits may read as the claim's boundary itself (0.5 or 1) or cross it: the fewest
    // digits that keep the figure on its own side of it, and no more. More would claim digits a
    // figure may not hold: the exhaustive sweep's is within 2^-46 + 2^-52 ulp of the exact error
    // (measure(r, Rounded), measure.cpp), about 14 digits; which side it is on is exact.
    for (int d = 3; d <= 17; ++d) {
      s = fmt_num(v, d);
      if ((std::strtod(s.c_str(), nullptr) - b) * (u - b) > 0) return s;
    }
  }
  return s;
}

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

std::string kinds_for(const nlohmann::ordered_json& sj, const std::string& op) {
  std::string out;
  for (const auto& d : sj["defects"])
    for (const auto& o : d["ops"])
      if (o.get<std::string>() == op) {
        const std::string k = d["kind"].get<std::string>();
        if (out.find(k) == std::string::npos) out += (out.empty() ? "" : ", ") + k;
      }
  return out.empty() ? "–" : out;
}

std::string op_name_of(const nlohmann::ordered_json& row) {
  static const std::pair<const char*, const char*> dt[] = {
      {"binary64", "f64"}, {"binary32", "f32"}, {"binary16", "f16"}, {"bfloat16", "bf16"}};
  std::string f = row["format"].get<std::string>();
  for (const auto& [a, b] : dt)
    if (f == a) f = b;
  return row["form"].get<std::string>() + (row["quantity"] == "value" ? ".forward." : ".backward.") + f;
}

}  // namespace gelucheck::report
