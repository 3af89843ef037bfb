#include "protocol.hpp"

#include <charconv>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace gelucheck::subject::protocol {

namespace {

// Splits at single spaces; an empty field (two spaces, a leading or trailing one) is kept as an
// empty token, which no parser accepts: the grammar has exactly one space between fields.
std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  for (;;) {
    const std::size_t sp = line.find(' ');
    out.push_back(line.substr(0, sp));
    if (sp == std::string_view::npos) return out;
    line.remove_prefix(sp + 1);
  }
}

// A count: 0 or digits without a leading zero, no sign; std::nullopt on anything else or
// overflow of size_t.
std::optional<std::size_t> parse_count(std::string_view s) {
  if (s.empty() || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  for (char c : s)
    if (c < '0' || c > '9') return std::nullopt;
  std::size_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// The wire spells a dtype one way: f64, f32, bf16, f16 (not the Format names).
std::optional<Format> parse_dtype_word(std::string_view s) {
  const auto f = parse_dtype(s);
  if (f && dtype_name(*f) == s) return f;
  return std::nullopt;
}

}  // namespace

std::string one_line(std::string_view s, std::size_t max) {
  std::string out;
  std::size_t used = 0;
  for (char ch : s) {
    if (out.size() >= max) break;
    ++used;
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  if (used < s.size()) out += "... (" + std::to_string(s.size()) + " bytes)";
  return out;
}

std::optional<Handshake> parse_handshake(std::string_view line, std::string& why) {
  using nlohmann::json;
  const json j = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    why = "the first line is not a JSON object: \"" + one_line(line, 200) + "\"";
    return std::nullopt;
  }
  const auto proto = j.find("protocol");
  if (proto == j.end() || !proto->is_string()) {
    why = "the handshake has no \"protocol\" string";
    return std::nullopt;
  }
  if (proto->get_ref<const std::string&>() != kName) {
    why = "the handshake names protocol \"" + one_line(proto->get_ref<const std::string&>(), 100) +
          "\", not \"" + std::string(kName) + "\"";
    return std::nullopt;
  }
  Handshake h;
  const auto nm = j.find("name");
  if (nm == j.end() || !nm->is_string() || nm->get_ref<const std::string&>().empty()) {
    why = "the handshake has no \"name\" (a non-empty string)";
    return std::nullopt;
  }
  h.name = nm->get<std::string>();
  const auto prov = j.find("provides");
  if (prov == j.end() || !prov->is_array()) {
    why = "the handshake has no \"provides\" array";
    return std::nullopt;
  }
  for (const json& item : *prov) {
    if (!item.is_string()) {
      why = "\"provides\" holds a non-string: " + one_line(item.dump(), 100);
      return std::nullopt;
    }
    const std::string& s = item.get_ref<const std::string&>();
    const auto op = parse_op(s);
    if (!op) {
      why = "\"provides\" names an unknown op \"" + one_line(s, 100) +
            "\" (FORM.DIRECTION.DT, e.g. tanh.forward.f32)";
      return std::nullopt;
    }
    for (const Op& seen : h.provides)
      if (seen == *op) {
        why = "\"provides\" lists " + s + " twice";
        return std::nullopt;
      }
    h.provides.push_back(*op);
  }
  if (const auto st = j.find("strided"); st != j.end()) {
    if (!st->is_boolean()) {
      why = "\"strided\" is not true or false";
      return std::nullopt;
    }
    h.strided = st->get<bool>();
  }
  return h;
}

std::string format_handshake(const Handshake& h) {
  nlohmann::json j;
  j["protocol"] = kName;
  j["name"] = h.name;
  j["provides"] = nlohmann::json::array();
  for (const Op& op : h.provides) j["provides"].push_back(op_name(op));
  j["strided"] = h.strided;
  // dump() escapes control characters; invalid UTF-8 in a name is replaced rather than thrown.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::optional<Request> parse_request(std::string_view line, std::string& why) {
  if (line == "quit") return Request{true, {}, 0, 1};
  const auto f = fields(line);
  if (f.size() != 4 && f.size() != 5) {
    why = "not a request: \"" + one_line(line, 200) + "\"";
    return std::nullopt;
  }
  Request r;
  const auto dir = parse_direction(f[0]);
  const auto form = parse_form(f[1]);
  const auto fmt = parse_dtype_word(f[2]);
  const auto n = parse_count(f[3]);
  if (!dir || !form || !fmt || !n) {
    why = "not a request (DIRECTION FORM DT N [STRIDE]): \"" + one_line(line, 200) + "\"";
    return std::nullopt;
  }
  if (*n > kMaxElements) {
    why = "request of " + std::to_string(*n) + " elements, above the limit " +
          std::to_string(kMaxElements);
    return std::nullopt;
  }
  r.op = {*form, *dir, *fmt};
  r.n = *n;
  if (f.size() == 5) {
    const auto st = parse_count(f[4]);
    if (!st || *st == 0 || *st > kMaxElements) {
      why = "bad stride in \"" + one_line(line, 200) + "\" (1 <= STRIDE <= 2^28)";
      return std::nullopt;
    }
    r.stride = *st;
  }
  return r;
}

std::string format_request(const Request& r) {
  if (r.quit) return "quit";
  std::string s(direction_name(r.op.direction));
  s += ' ';
  s += name(r.op.form);
  s += ' ';
  s += dtype_name(r.op.format);
  s += ' ';
  s += std::to_string(r.n);
  if (r.stride != 1) s += ' ' + std::to_string(r.stride);
  return s;
}

std::size_t payload_bytes(const Request& r) {
  if (r.quit) return 0;
  return r.n * element_size(r.op.format) * (r.op.direction == Direction::backward ? 2 : 1);
}

std::optional<Answer> parse_answer(std::string_view line, std::string& why) {
  const auto word = [&](std::string_view w) {
    return line.substr(0, w.size()) == w && (line.size() == w.size() || line[w.size()] == ' ');
  };
  const auto rest = [&](std::string_view w) {
    return line.size() > w.size() ? std::string(line.substr(w.size() + 1)) : std::string();
  };
  if (word("error")) return Answer{Answer::Kind::error, 0, rest("error")};
  if (word("wrote_input")) return Answer{Answer::Kind::wrote_input, 0, rest("wrote_input")};
  const auto f = fields(line);
  if (f.size() >= 2 && f[0] == "ok") {
    const auto n = parse_count(f[1]);
    if (n && *n <= kMaxElements) {
      if (f.size() == 2) return Answer{Answer::Kind::ok, *n, {}};
      // "ok N wrote_input MESSAGE": the message is the rest of the line after the third field.
      if (f[2] == "wrote_input") {
        const std::size_t head = f[0].size() + f[1].size() + f[2].size() + 2;
        return Answer{Answer::Kind::ok_wrote_input, *n,
                      line.size() > head ? std::string(line.substr(head + 1)) : std::string()};
      }
    }
  }
  why = "not an answer (ok N | ok N wrote_input MESSAGE | error MESSAGE | wrote_input MESSAGE): \"" +
        one_line(line, 200) + "\"";
  return std::nullopt;
}

std::string format_answer(const Answer& a) {
  switch (a.kind) {
    case Answer::Kind::ok: return "ok " + std::to_string(a.n);
    case Answer::Kind::error: return "error " + one_line(a.message);
    case Answer::Kind::wrote_input: return "wrote_input " + one_line(a.message);
    case Answer::Kind::ok_wrote_input:
      return "ok " + std::to_string(a.n) + " wrote_input " + one_line(a.message);
  }
  return "error ?";
}

}  // namespace gelucheck::subject::protocol
