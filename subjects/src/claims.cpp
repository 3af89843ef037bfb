// ClaimSet and the command line's claim syntax (subject.hpp; docs/subjects.md, "Claims").
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>

#include "gelucheck/subject.hpp"

namespace gelucheck::subject {
namespace {

std::size_t index_of(Function f) {
  for (std::size_t i = 0; i < std::size(all_functions); ++i)
    if (all_functions[i] == f) return i;
  throw std::logic_error("unknown function");
}

// A finite non-negative decimal, the whole string (std::from_chars: no locale, no leading '+').
double number(std::string_view s, std::string_view what) {
  double v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || p != s.data() + s.size() || !(v >= 0) || std::isinf(v))
    throw std::invalid_argument(std::string(what) + " \"" + std::string(s) +
                                "\": not a finite number >= 0");
  return v;
}

}  // namespace

Claim parse_claim(std::string_view s) {
  if (s == "none") return Claim::none();
  if (s == "cr") return Claim::correctly_rounded();
  if (s == "faithful") return Claim::faithful();
  if (s.rfind("ulp:", 0) == 0) return Claim::ulps(number(s.substr(4), "ulp bound"));
  if (s.rfind("allclose:", 0) == 0) {
    // allclose:atol=A,rtol=R (either order; both required, so a typo cannot default one to 0)
    std::string_view rest = s.substr(9);
    double atol = -1, rtol = -1;
    while (!rest.empty()) {
      const std::size_t comma = rest.find(',');
      const std::string_view kv = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      const std::size_t eq = kv.find('=');
      if (eq == std::string_view::npos) break;
      const std::string_view k = kv.substr(0, eq), v = kv.substr(eq + 1);
      if (k == "atol" && atol < 0) atol = number(v, "atol");
      else if (k == "rtol" && rtol < 0) rtol = number(v, "rtol");
      else throw std::invalid_argument("claim \"" + std::string(s) + "\": unexpected \"" +
                                       std::string(kv) + "\" (want atol=A,rtol=R)");
    }
    if (atol < 0 || rtol < 0)
      throw std::invalid_argument("claim \"" + std::string(s) + "\": allclose needs atol=A,rtol=R");
    return Claim::allclose(atol, rtol);
  }
  throw std::invalid_argument("claim \"" + std::string(s) +
                              "\": want none, cr, faithful, ulp:N or allclose:atol=A,rtol=R");
}

std::string claim_item(const Claim& c) {
  auto num = [](double v) {
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest: reads back exactly
    return std::string(buf, r.ptr);
  };
  switch (c.kind) {
    case Claim::Kind::none: return "none";
    case Claim::Kind::ulp:
      if (c.max_ulp == 0.5 && c.inclusive) return "cr";
      if (c.max_ulp == 1 && !c.inclusive) return "faithful";
      if (!c.inclusive) throw std::invalid_argument("a strict ulp bound other than 1 has no syntax");
      return "ulp:" + num(c.max_ulp);
    case Claim::Kind::allclose: return "allclose:atol=" + num(c.atol) + ",rtol=" + num(c.rtol);
  }
  return "none";
}

std::vector<std::string> ClaimSet::items() const {
  std::vector<std::string> v;
  for (Function f : all_functions)
    for (Format fmt : all_formats)
      v.push_back(function_name(f) + "@" + std::string(dtype_name(fmt)) + "=" + claim_item(get(f, fmt)));
  return v;
}

Claim ClaimSet::get(Function f, Format fmt) const {
  return c_[index_of(f)][static_cast<std::size_t>(fmt)];
}

void ClaimSet::set(std::optional<Function> f, std::optional<Format> fmt, const Claim& c) {
  for (std::size_t i = 0; i < std::size(all_functions); ++i)
    for (Format g : all_formats)
      if ((!f || *f == all_functions[i]) && (!fmt || *fmt == g)) c_[i][static_cast<std::size_t>(g)] = c;
}

bool ClaimSet::any() const {
  for (const auto& row : c_)
    for (const Claim& c : row)
      if (c.claims_anything()) return true;
  return false;
}

void ClaimSet::apply(std::string_view item) {
  const std::size_t eq = item.find('=');
  // "allclose:atol=..." has '=' inside the claim: a selector never contains ':'.
  const bool has_selector = eq != std::string_view::npos && item.substr(0, eq).find(':') == std::string_view::npos;
  if (!has_selector) {
    set(std::nullopt, std::nullopt, parse_claim(item));
    return;
  }
  const std::string_view sel = item.substr(0, eq);
  const Claim c = parse_claim(item.substr(eq + 1));
  const std::size_t at = sel.find('@');
  const std::string_view fn = sel.substr(0, at);
  std::optional<Format> fmt;
  if (at != std::string_view::npos) {
    fmt = parse_dtype(sel.substr(at + 1));
    if (!fmt)
      throw std::invalid_argument("claim \"" + std::string(item) + "\": unknown format \"" +
                                  std::string(sel.substr(at + 1)) + "\" (f64, f32, bf16, f16)");
  }
  // FUNCTION: empty (with @DT), a full name, or FORM.* / *.QUANTITY
  bool matched = false;
  for (Function f : all_functions) {
    const std::string name = function_name(f);
    const std::string form(gelucheck::name(f.form)), q(gelucheck::name(f.quantity));
    if (fn.empty() || fn == "*" || fn == name || fn == form + ".*" || fn == "*." + q) {
      set(f, fmt, c);
      matched = true;
    }
  }
  if (!matched)
    throw std::invalid_argument("claim \"" + std::string(item) + "\": unknown function \"" +
                                std::string(fn) +
                                "\" (tanh.value, tanh.derivative, erf.value, erf.derivative, "
                                "tanh.*, erf.*, *.value, *.derivative)");
}

}  // namespace gelucheck::subject
