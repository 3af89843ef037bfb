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
  if (v.is_number() && std::strtod(s.c_str(), nullptr) != v.get<double>() &&
      (std::fabs(v.get<double>() - 0.5) < 1e-3 || std::fabs(v.get<double>() - 1) < 1e-3))
    s = fmt_num(v, 17);
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
