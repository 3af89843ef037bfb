// The names shared by the C ABI, the subject protocol and the command line (subject.hpp).
#include <array>
#include <string>

#include "gelucheck/subject.hpp"

namespace gelucheck::subject {

std::string_view dtype_name(Format f) {
  switch (f) {
    case Format::binary64: return "f64";
    case Format::binary32: return "f32";
    case Format::binary16: return "f16";
    case Format::bfloat16: return "bf16";
  }
  return "?";
}

std::optional<Format> parse_dtype(std::string_view s) {
  for (Format f : all_formats)
    if (s == dtype_name(f)) return f;
  return parse_format(s);  // "binary64", ..., "bfloat16"
}

std::size_t element_size(Format f) {
  switch (f) {
    case Format::binary64: return 8;
    case Format::binary32: return 4;
    case Format::binary16:
    case Format::bfloat16: return 2;
  }
  return 0;
}

namespace {
// Splits "a.b" / "a.b.c" at the dots; std::nullopt when the count of parts is not `parts`.
template <std::size_t N>
std::optional<std::array<std::string_view, N>> split_dots(std::string_view s) {
  std::array<std::string_view, N> out;
  for (std::size_t i = 0; i < N; ++i) {
    const std::size_t dot = s.find('.');
    if (i + 1 == N) {
      if (dot != std::string_view::npos) return std::nullopt;
      out[i] = s;
    } else {
      if (dot == std::string_view::npos) return std::nullopt;
      out[i] = s.substr(0, dot);
      s.remove_prefix(dot + 1);
    }
  }
  return out;
}
}  // namespace

std::string_view direction_name(Direction d) {
  return d == Direction::forward ? "forward" : "backward";
}
std::optional<Direction> parse_direction(std::string_view s) {
  if (s == "forward") return Direction::forward;
  if (s == "backward") return Direction::backward;
  return std::nullopt;
}

Op op_of(Function f, Format fmt) {
  return {f.form, f.quantity == Quantity::value ? Direction::forward : Direction::backward, fmt};
}
Function function_of(const Op& op) {
  return {op.form, op.direction == Direction::forward ? Quantity::value : Quantity::derivative};
}

std::string op_name(const Op& op) {
  std::string s(name(op.form));
  s += '.';
  s += direction_name(op.direction);
  s += '.';
  s += dtype_name(op.format);
  return s;
}

std::optional<Op> parse_op(std::string_view s) {
  const auto parts = split_dots<3>(s);
  if (!parts) return std::nullopt;
  const auto form = parse_form((*parts)[0]);
  const auto dir = parse_direction((*parts)[1]);
  // Only the ABI's short dtype names: an op name is a wire token, spelled one way.
  const auto fmt = parse_dtype((*parts)[2]);
  if (!form || !dir || !fmt || dtype_name(*fmt) != (*parts)[2]) return std::nullopt;
  return Op{*form, *dir, *fmt};
}

std::string abi_symbol(const Op& op) {
  std::string s = "gelu_";
  s += name(op.form);
  if (op.direction == Direction::backward) s += "_backward";
  s += '_';
  s += dtype_name(op.format);
  return s;
}

const std::vector<Op>& all_ops() {
  static const std::vector<Op> ops = [] {
    std::vector<Op> v;
    for (Form form : {Form::tanh, Form::erf})
      for (Direction d : {Direction::forward, Direction::backward})
        for (Format f : all_formats) v.push_back({form, d, f});
    return v;
  }();
  return ops;
}

std::string_view kind_name(Status::Kind k) {
  switch (k) {
    case Status::Kind::ok: return "ok";
    case Status::Kind::unavailable: return "unavailable";
    case Status::Kind::crashed: return "crashed";
    case Status::Kind::timed_out: return "timed_out";
    case Status::Kind::protocol_error: return "protocol_error";
    case Status::Kind::wrote_input: return "wrote_input";
    case Status::Kind::failed: return "failed";
  }
  return "?";
}

bool Capabilities::provides(const Op& op) const {
  for (const Op& o : ops)
    if (o == op) return true;
  return false;
}

}  // namespace gelucheck::subject
