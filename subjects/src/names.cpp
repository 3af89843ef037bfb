// The names the ABI, the protocol and the command line share (subject.hpp).
#include <stdexcept>
#include <string>

#include "gelucheck/subject.hpp"

namespace gelucheck::subject {

std::string_view dtype_name(Format f) {
  switch (f) {
    case Format::binary64: return "f64";
    case Format::binary32: return "f32";
    case Format::bfloat16: return "bf16";
    case Format::binary16: return "f16";
  }
  return "?";
}

std::optional<Format> parse_dtype(std::string_view s) {
  for (Format f : all_formats)
    if (s == dtype_name(f)) return f;
  return parse_format(s);
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

std::string function_name(Function f) {
  return std::string(name(f.form)) + "." + std::string(name(f.quantity));
}

std::optional<Function> parse_function(std::string_view s) {
  for (Function f : all_functions)
    if (s == function_name(f)) return f;
  return std::nullopt;
}

namespace {
std::string_view direction_name(Direction d) {
  return d == Direction::forward ? "forward" : "backward";
}
}  // namespace

std::string op_name(const Op& op) {
  return std::string(name(op.form)) + "." + std::string(direction_name(op.direction)) + "." +
         std::string(dtype_name(op.format));
}

std::optional<Op> parse_op(std::string_view s) {
  for (const Op& op : all_ops())
    if (s == op_name(op)) return op;
  return std::nullopt;
}

std::string abi_symbol(const Op& op) {
  return "gelu_" + std::string(name(op.form)) +
         (op.direction == Direction::backward ? "_backward_" : "_") +
         std::string(dtype_name(op.format));
}

const std::vector<Op>& all_ops() {
  static const std::vector<Op> ops = [] {
    std::vector<Op> v;
    for (Form f : {Form::tanh, Form::erf})
      for (Direction d : {Direction::forward, Direction::backward})
        for (Format fmt : all_formats) v.push_back({f, d, fmt});
    return v;
  }();
  return ops;
}

std::string_view kind_name(Status::Kind k) {
  switch (k) {
    case Status::Kind::ok: return "ok";
    case Status::Kind::unavailable: return "unavailable";
    case Status::Kind::crashed: return "crashed";
    case Status::Kind::timed_out: return "timed out";
    case Status::Kind::protocol_error: return "protocol error";
    case Status::Kind::wrote_input: return "wrote into its input";
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
