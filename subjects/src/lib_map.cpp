#include "lib_map.hpp"

#include <stdexcept>

namespace gelucheck::subject {

namespace {
bool is_symbol(std::string_view s) {
  if (s.empty()) return false;
  const auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(s[0])) return false;
  for (char c : s)
    if (!alpha(c) && !(c >= '0' && c <= '9')) return false;
  return true;
}
}  // namespace

std::vector<LibMapping> parse_lib_map(std::string_view map) {
  std::vector<LibMapping> out;
  if (map.empty()) return out;
  for (;;) {
    const std::size_t comma = map.find(',');
    const std::string_view entry = map.substr(0, comma);
    const std::size_t eq = entry.find('=');
    if (eq == std::string_view::npos)
      throw std::invalid_argument("map entry \"" + std::string(entry) +
                                  "\" is not OP=SYMBOL (e.g. tanh.forward.f32=my_gelu)");
    const std::string_view op_text = entry.substr(0, eq);
    std::string_view sym = entry.substr(eq + 1);
    LibMapping m;
    const auto op = parse_op(op_text);
    if (!op)
      throw std::invalid_argument("map entry \"" + std::string(entry) + "\": \"" +
                                  std::string(op_text) +
                                  "\" is not an op (FORM.forward|backward.DT, e.g. erf.backward.f32)");
    m.op = *op;
    if (const std::size_t at = sym.find('@'); at != std::string_view::npos) {
      const std::string_view how = sym.substr(at + 1);
      if (how == "scalar")
        m.scalar = true;
      else if (how != "array")
        throw std::invalid_argument("map entry \"" + std::string(entry) + "\": \"@" +
                                    std::string(how) + "\" is neither @array nor @scalar");
      sym = sym.substr(0, at);
    }
    if (!is_symbol(sym))
      throw std::invalid_argument("map entry \"" + std::string(entry) + "\": \"" +
                                  std::string(sym) + "\" is not a symbol name");
    m.symbol = std::string(sym);
    for (const LibMapping& seen : out)
      if (seen.op == m.op)
        throw std::invalid_argument("the map names " + op_name(m.op) + " twice");
    out.push_back(std::move(m));
    if (comma == std::string_view::npos) return out;
    map.remove_prefix(comma + 1);
  }
}

std::string format_lib_mapping(const LibMapping& m) {
  return op_name(m.op) + "=" + m.symbol + (m.scalar ? "@scalar" : "");
}

LibSpec split_lib_spec(std::string_view rest) {
  const std::size_t colon = rest.rfind(':');
  if (colon != std::string_view::npos && rest.substr(colon + 1).find('=') != std::string_view::npos)
    return {std::string(rest.substr(0, colon)), std::string(rest.substr(colon + 1))};
  return {std::string(rest), {}};
}

}  // namespace gelucheck::subject
