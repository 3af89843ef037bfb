// protocol.hpp — the subject protocol gelucheck-subject/1 (docs/subjects.md, "The protocol"):
// the parsing and formatting of its lines, and nothing else (no I/O), so that the client
// (process_subject.cpp), the host of `lib:` subjects (host/main.cpp) and the fuzzer
// (fuzz/protocol_fuzz.cpp) share one definition of the wire format.
//
//   child → gelucheck   one handshake line, a JSON object:
//                       {"protocol":"gelucheck-subject/1","name":"...","provides":[OP,...],
//                        "strided":false}
//   gelucheck → child   "forward FORM DT N[ STRIDE]"  + N elements of x
//                       "backward FORM DT N[ STRIDE]" + N elements of x, then N of dy
//                       "quit"
//   child → gelucheck   "ok N" + N elements  |  "error MESSAGE"  |  "wrote_input MESSAGE"
//                       |  "ok N wrote_input MESSAGE" + N elements (the call wrote into x or dy;
//                          its results follow, to be measured all the same)
//
// Lines end with '\n'; elements are raw little-endian in the format's storage (subject.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gelucheck/subject.hpp"

namespace gelucheck::subject::protocol {

inline constexpr std::string_view kName = "gelucheck-subject/1";
// Longest handshake or answer line gelucheck reads (bytes, without the '\n').
inline constexpr std::size_t kMaxLine = std::size_t{1} << 16;
// Most elements in one request: 2^28 (2 GiB of binary64 x and dy), far above any batch the checks
// send, low enough that N · element size · 2 cannot overflow and a garbled N is refused.
inline constexpr std::size_t kMaxElements = std::size_t{1} << 28;

struct Handshake {
  std::string name;        // one line: what the subject is (recorded in every report)
  std::vector<Op> provides;
  bool strided = false;    // honours a STRIDE > 1
  friend bool operator==(const Handshake&, const Handshake&) = default;
};
// std::nullopt with `why` set when the line is not a valid handshake.
std::optional<Handshake> parse_handshake(std::string_view line, std::string& why);
std::string format_handshake(const Handshake& h);  // one line, no '\n'

struct Request {
  bool quit = false;
  Op op{};
  std::size_t n = 0;
  std::size_t stride = 1;
  friend bool operator==(const Request&, const Request&) = default;
};
std::optional<Request> parse_request(std::string_view line, std::string& why);
std::string format_request(const Request& r);  // no '\n'
// Bytes of elements that follow the request line (x, and dy for a backward).
std::size_t payload_bytes(const Request& r);

struct Answer {
  // ok_wrote_input: "ok N wrote_input MESSAGE", N elements follow (an extension of
  // gelucheck-subject/1: the bare "wrote_input MESSAGE" keeps its meaning, no elements follow).
  enum class Kind { ok, error, wrote_input, ok_wrote_input } kind = Kind::ok;
  std::size_t n = 0;     // ok, ok_wrote_input: how many elements follow
  std::string message;   // error, wrote_input, ok_wrote_input
  friend bool operator==(const Answer&, const Answer&) = default;
};
std::optional<Answer> parse_answer(std::string_view line, std::string& why);
std::string format_answer(const Answer& a);  // no '\n'; the message made one line (one_line)

// `s` made safe to put on one line and quote in a report: control bytes (and DEL) become
// \n, \t, \xNN; cut to `max` bytes with "... (N bytes)".
std::string one_line(std::string_view s, std::size_t max = 1000);

}  // namespace gelucheck::subject::protocol
