// The tests' own .npy writer (independent of the reader under test): a version-1.0 file.
#pragma once

#include <string>

namespace gelucheck::test_npy {

// The preamble, `header` (padded as numpy pads it — blanks up to a multiple of 64 bytes with the
// preamble, then '\n' — unless pad is false), then `data` as it is.
inline std::string npy_file_bytes(std::string header, const std::string& data, bool pad = true) {
  if (pad) {
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
  }
  std::string f = "\x93NUMPY\x01";
  f += '\0';
  f += static_cast<char>(header.size() & 0xff);
  f += static_cast<char>(header.size() >> 8);
  return f + header + data;
}

}  // namespace gelucheck::test_npy
