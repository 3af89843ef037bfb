// protocol_fuzz — libFuzzer target for the subject protocol's parsers (subjects/src/protocol.hpp):
// the handshake, request and answer lines that a child (or gelucheck) may send, whatever bytes
// they hold. The first byte picks the parser; the rest is the line.
//
// Beyond "no crash, no sanitizer report" it checks the invariants the client relies on:
//  - a parsed handshake formats back to a line (no '\n') that parses to the same handshake;
//  - a parsed request formats back to a line that parses to the same request, and its payload
//    size is within the protocol's limits;
//  - a parsed answer's kind and count survive format → parse; an "ok" count (also in "ok N
//    wrote_input MESSAGE") is at most
//    kMaxElements; a formatted answer is one line.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "protocol.hpp"

using namespace gelucheck::subject;

namespace {
void require(bool ok) {
  if (!ok) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view line(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string why;
  switch (data[0] % 3) {
    case 0: {
      const auto h = protocol::parse_handshake(line, why);
      if (!h) {
        require(!why.empty());
        break;
      }
      const std::string again = protocol::format_handshake(*h);
      require(again.find('\n') == std::string::npos);
      std::string why2;
      const auto h2 = protocol::parse_handshake(again, why2);
      require(h2.has_value());
      // Names with invalid UTF-8 are replaced when formatted; the rest must be identical.
      require(h2->provides == h->provides && h2->strided == h->strided);
      break;
    }
    case 1: {
      const auto r = protocol::parse_request(line, why);
      if (!r) {
        require(!why.empty());
        break;
      }
      require(r->quit || (r->n <= protocol::kMaxElements && r->stride >= 1 &&
                          r->stride <= protocol::kMaxElements));
      require(protocol::payload_bytes(*r) <= protocol::kMaxElements * 16);
      const auto r2 = protocol::parse_request(protocol::format_request(*r), why);
      require(r2.has_value() && *r2 == *r);
      break;
    }
    default: {
      const auto a = protocol::parse_answer(line, why);
      if (!a) {
        require(!why.empty());
        break;
      }
      if (a->kind == protocol::Answer::Kind::ok || a->kind == protocol::Answer::Kind::ok_wrote_input)
        require(a->n <= protocol::kMaxElements);
      const std::string again = protocol::format_answer(*a);
      require(again.find('\n') == std::string::npos);
      const auto a2 = protocol::parse_answer(again, why);
      require(a2.has_value() && a2->kind == a->kind && a2->n == a->n);
      break;
    }
  }
  return 0;
}
