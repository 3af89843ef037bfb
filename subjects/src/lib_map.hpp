// lib_map.hpp — the map of a `lib:PATH:MAP` spec (docs/subjects.md, "Existing functions without
// glue"): which exported function computes which op, and with which signature. Parsed by the
// client (to refuse a malformed spec before starting anything) and by gelucheck-subject-host
// (which looks the symbols up).
//
//   MAP     := ENTRY ("," ENTRY)*
//   ENTRY   := OP "=" SYMBOL ["@array" | "@scalar"]
//   OP      := FORM "." ("forward" | "backward") "." DT        e.g. tanh.forward.f32
//
// @array (the default) is the ABI's own signature for OP; @scalar is `T f(T)`, called once per
// element: for a forward it is the function itself, for a backward it is the derivative f', and
// the host computes dx = dy · f'(x) rounded once to T.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gelucheck/subject.hpp"

namespace gelucheck::subject {

struct LibMapping {
  Op op;
  std::string symbol;
  bool scalar = false;
  friend bool operator==(const LibMapping&, const LibMapping&) = default;
};

// Throws std::invalid_argument with a message naming the bad entry.
std::vector<LibMapping> parse_lib_map(std::string_view map);
std::string format_lib_mapping(const LibMapping& m);  // "tanh.forward.f32=my_gelu@scalar"

// Splits the REST of "lib:REST" into PATH and MAP: the MAP is what follows the last ':' when that
// part contains '=' (a path rarely does); otherwise REST is all path and MAP is empty.
struct LibSpec {
  std::string path;
  std::string map;
};
LibSpec split_lib_spec(std::string_view rest);

}  // namespace gelucheck::subject
