// Option words shared by the subcommands: unsigned integers, comma-separated lists, and the
// --formats / --functions lists (one spelling of each name: subject::parse_dtype and
// subject::parse_function, which take the Format names as aliases).
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <limits>
#include <string>
#include <vector>

#include "gelucheck/common.hpp"
#include "gelucheck/subject.hpp"

namespace gelucheck::cli {

// The words CLI11 accepts for an unsigned option of type T: decimal or 0x-hex digits, the whole
// word, at most T's maximum; nothing else. A transformer that rewrites the word in plain decimal,
// which CLI11's own conversion (strtoull, base 0) then reads exactly; alone that conversion would
// take "-1" as 2^64 - 1, "010" as octal 8, " 5" and "+5" as 5, and 2^64 as 2^64 - 1. Ranges are
// checked after it by CLI::Range.
template <class T>
CLI::Validator unsigned_word() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
        const char* b = s.data() + (hex ? 2 : 0);
        const char* e = s.data() + s.size();
        T v = 0;
        const auto [p, ec] = std::from_chars(b, e, v, hex ? 16 : 10);
        if (ec == std::errc::result_out_of_range)
          return s + " is beyond " + std::to_string(std::numeric_limits<T>::max());
        if (b == e || ec != std::errc{} || p != e)
          return "\"" + s + "\" is not an unsigned integer (decimal or 0x-hex)";
        s = std::to_string(v);
        return "";
      },
      "", "unsigned");
}

// A comma-separated list (empty items kept, so that "f64,,f32" is an error, not f64 and f32).
std::vector<std::string> split(const std::string& s);

// Parses "--formats" and "--functions" values into the lists (replacing them); returns a usage
// message naming the bad item, or "".
std::string parse_formats_and_functions(const std::string& formats, const std::string& functions,
                                        std::vector<Format>& fmts,
                                        std::vector<subject::Function>& fns);

// Writes `text` to `path` beside it first, then renamed over it: never a half-written file at the
// path (a JUnit XML). False on failure, leaving nothing beside.
bool write_whole_file(const std::string& path, const std::string& text);

}  // namespace gelucheck::cli
