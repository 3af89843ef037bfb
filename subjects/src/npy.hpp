// npy.hpp — a strict reader (and a plain writer) of NumPy's .npy files, enough for the element types gelucheck's
// formats travel in. The format (numpy.lib.format, versions 1.0, 2.0 and 3.0):
//
//   "\x93NUMPY" major minor   6 + 2 bytes
//   header length             2 bytes (1.0) or 4 bytes (2.0, 3.0), little-endian
//   header                    a Python dict literal {'descr': ..., 'fortran_order': ...,
//                             'shape': (...)} padded with blanks, ending in '\n' (3.0: UTF-8)
//   data                      product(shape) elements of descr, nothing after them
//
// parse() is pure (a byte buffer in, an Array or an Error out) so that a fuzzer reaches all of
// it: whatever the bytes, it returns or throws npy::Error, and never reads outside the buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace gelucheck::npy {

// The element types read: the descr's kind and size, byte order apart.
enum class Type { f8, f4, f2, u2 };
std::size_t type_size(Type t);  // 8, 4, 2, 2

// What is wrong with a file, in words (parse() does not know the file's name; read_file() adds it).
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Array {
  int major = 0, minor = 0;  // format version
  std::string descr;         // as written: "<f8", ">u2", ...
  Type type = Type::f8;
  bool big_endian = false;
  bool fortran_order = false;
  std::vector<std::size_t> shape;  // empty for a 0-d array (one element)
  // Every element's encoding, in host order, in the low 8·type_size bits; in C (row-major)
  // order of `shape` whatever fortran_order says, i.e. numpy's a.ravel(order='C'). So two arrays
  // of equal shape correspond element by element whichever order each was stored in.
  std::vector<std::uint64_t> elements;
};

// Accepted descr: <f8 >f8 <f4 >f4 <f2 >f2 <u2 >u2. Throws Error for anything else: another
// magic, version, dtype (structured ones included), a malformed header, a shape whose size
// overflows, data shorter or longer than the shape says.
Array parse(std::span<const std::uint8_t> bytes);
// Reads and parses a file; the Error's message starts with the path ("DIR/x.npy: truncated ...").
Array read_file(const std::string& path);

// A one-dimensional little-endian array of `elements` (each an encoding in the low 8·type_size
// bits), as numpy.save writes it (format 1.0), and the same written to a file (Error on failure).
// parse() reads it back element for element.
std::vector<std::uint8_t> format(Type t, std::span<const std::uint64_t> elements);
void write_file(const std::string& path, Type t, std::span<const std::uint64_t> elements);

// The shape as Python writes it: "()", "(5,)", "(2, 3)".
std::string shape_text(const std::vector<std::size_t>& shape);

}  // namespace gelucheck::npy
