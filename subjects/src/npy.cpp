#include "npy.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>

namespace gelucheck::npy {

std::size_t type_size(Type t) {
  switch (t) {
    case Type::f8: return 8;
    case Type::f4: return 4;
    case Type::f2: return 2;
    case Type::u2: return 2;
  }
  return 0;
}

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + (shape.size() == 1 ? ",)" : ")");
}

namespace {

constexpr unsigned char kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr std::size_t kMagicSize = sizeof kMagic;

// Header text for a message: printable ASCII as is, anything else as \xNN, at most `max` bytes.
std::string printable(std::string_view s, std::size_t max = 60) {
  std::string out;
  for (std::size_t i = 0; i < s.size() && i < max; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  if (s.size() > max) out += "...";
  return out;
}

struct Header {
  std::optional<std::string> descr;
  std::optional<bool> fortran_order;
  std::optional<std::vector<std::size_t>> shape;
};

// The subset of Python literal syntax that numpy writes and numpy.lib.format accepts: a dict with
// the three keys; strings in single or double quotes without escapes; True / False; a tuple of
// non-negative decimal integers ("()", "(5,)", "(2, 3)"; "(5)" is an int in Python, not a tuple).
// Duplicate keys, unknown keys and missing keys are errors (numpy refuses the last two and
// would silently take the last of duplicates).
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : t_(text) {}

  Header parse() {
    Header h;
    skip_blanks();
    expect('{');
    skip_blanks();
    while (!eat('}')) {
      const std::size_t key_at = i_;
      const std::string key = string_literal();
      skip_blanks();
      expect(':');
      skip_blanks();
      if (key == "descr") {
        if (h.descr) fail_at(key_at, "'descr' appears twice");
        if (peek() == '[') fail("structured dtypes (a list of fields in 'descr') are not supported");
        h.descr = string_literal();
      } else if (key == "fortran_order") {
        if (h.fortran_order) fail_at(key_at, "'fortran_order' appears twice");
        h.fortran_order = boolean();
      } else if (key == "shape") {
        if (h.shape) fail_at(key_at, "'shape' appears twice");
        h.shape = tuple();
      } else {
        fail_at(key_at, "unknown key '" + printable(key) +
                            "' (a .npy header has exactly 'descr', 'fortran_order', 'shape')");
      }
      skip_blanks();
      if (eat(',')) {
        skip_blanks();
      } else if (peek() < 0) {
        fail("the dict is not closed");
      } else if (peek() != '}') {
        fail("expected ',' or '}'");
      }
    }
    skip_blanks();
    if (i_ != t_.size()) fail("unexpected text after the dict");
    if (!h.descr) fail("no 'descr' in the dict");
    if (!h.fortran_order) fail("no 'fortran_order' in the dict");
    if (!h.shape) fail("no 'shape' in the dict");
    return h;
  }

 private:
  std::string_view t_;
  std::size_t i_ = 0;

  [[noreturn]] void fail_at(std::size_t at, const std::string& what) const {
    std::string_view shown = t_;  // without numpy's padding
    while (!shown.empty() && (shown.back() == ' ' || shown.back() == '\n')) shown.remove_suffix(1);
    throw Error("header: " + what + " (at byte " + std::to_string(at) + " of the header \"" +
                printable(shown, 80) + "\")");
  }
  [[noreturn]] void fail(const std::string& what) const { fail_at(i_, what); }

  int peek() const { return i_ < t_.size() ? static_cast<unsigned char>(t_[i_]) : -1; }
  bool eat(char c) {
    if (peek() != static_cast<unsigned char>(c)) return false;
    ++i_;
    return true;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  void skip_blanks() {
    while (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r') ++i_;
  }

  std::string string_literal() {
    const int q = peek();
    if (q != '\'' && q != '"') fail("expected a quoted string");
    ++i_;
    std::string s;
    for (;;) {
      const int c = peek();
      if (c < 0 || c == '\n') fail("unterminated string");
      if (c == '\\') fail("escapes in strings are not supported");
      ++i_;
      if (c == q) return s;
      s += static_cast<char>(c);
    }
  }

  bool boolean() {
    if (t_.substr(i_).starts_with("True")) {
      i_ += 4;
      return true;
    }
    if (t_.substr(i_).starts_with("False")) {
      i_ += 5;
      return false;
    }
    fail("'fortran_order' must be True or False");
  }

  std::size_t integer() {
    const std::size_t start = i_;
    std::size_t v = 0;
    while (peek() >= '0' && peek() <= '9') {
      const auto d = static_cast<std::size_t>(peek() - '0');
      if (v > (SIZE_MAX - d) / 10) fail_at(start, "a dimension of 'shape' is too large");
      v = v * 10 + d;
      ++i_;
    }
    if (i_ == start) fail("expected a non-negative integer in 'shape'");
    if (t_[start] == '0' && i_ - start > 1) fail_at(start, "leading zero in a dimension of 'shape'");
    return v;
  }

  std::vector<std::size_t> tuple() {
    if (peek() != '(') fail("'shape' must be a tuple");
    ++i_;
    std::vector<std::size_t> dims;
    bool comma_after_last = false;
    skip_blanks();
    while (!eat(')')) {
      dims.push_back(integer());
      skip_blanks();
      comma_after_last = eat(',');
      skip_blanks();
      if (!comma_after_last && peek() != ')') fail("expected ',' or ')' in 'shape'");
    }
    if (dims.size() == 1 && !comma_after_last)
      fail("'shape' (N) is a number, not a tuple: a one-dimensional shape is written (N,)");
    return dims;
  }
};

// descr → type and byte order; "|" (not applicable) is what numpy writes for one-byte types only.
struct Descr {
  Type type;
  bool big_endian;
};
Descr parse_descr(const std::string& d) {
  static constexpr struct {
    const char* text;
    Type type;
  } known[] = {{"f8", Type::f8}, {"f4", Type::f4}, {"f2", Type::f2}, {"u2", Type::u2}};
  if (d.size() == 3 && (d[0] == '<' || d[0] == '>'))
    for (const auto& k : known)
      if (d.compare(1, 2, k.text) == 0) return {k.type, d[0] == '>'};
  throw Error("dtype '" + printable(d) +
              "' is not supported (one of <f8 >f8 <f4 >f4 <f2 >f2 <u2 >u2)");
}

std::uint64_t load(const std::uint8_t* p, std::size_t size, bool big_endian) {
  std::uint64_t v = 0;
  for (std::size_t k = 0; k < size; ++k) {
    const std::size_t byte = big_endian ? size - 1 - k : k;
    v |= std::uint64_t{p[byte]} << (8 * k);
  }
  return v;
}

// Element k of the Fortran-order data (first index fastest) moved to its C-order position (last
// index fastest): walk the C order with a multi-index and keep its Fortran offset alongside.
std::vector<std::uint64_t> fortran_to_c(const std::vector<std::uint64_t>& f,
                                        const std::vector<std::size_t>& shape) {
  const std::size_t nd = shape.size();
  if (f.empty() || nd < 2) return f;
  std::vector<std::uint64_t> c(f.size());
  std::vector<std::size_t> stride(nd), index(nd, 0);
  stride[0] = 1;
  for (std::size_t d = 1; d < nd; ++d) stride[d] = stride[d - 1] * shape[d - 1];  // <= size: no overflow
  std::size_t off = 0;
  for (std::size_t k = 0; k < c.size(); ++k) {
    c[k] = f[off];
    for (std::size_t d = nd; d-- > 0;) {  // increment the multi-index, last dimension first
      off += stride[d];
      if (++index[d] < shape[d]) break;
      off -= shape[d] * stride[d];
      index[d] = 0;
    }
  }
  return c;
}

}  // namespace

Array parse(std::span<const std::uint8_t> bytes) {
  const std::size_t n = bytes.size();
  const std::size_t magic_seen = n < kMagicSize ? n : kMagicSize;
  if (n == 0 || std::memcmp(bytes.data(), kMagic, magic_seen) != 0)
    throw Error(n == 0 ? "empty file" : "not a .npy file (it does not start with \\x93NUMPY)");
  if (n < kMagicSize) throw Error("truncated: " + std::to_string(n) + " bytes, not even the magic");
  if (n < kMagicSize + 2) throw Error("truncated: " + std::to_string(n) + " bytes, no format version");
  Array a;
  a.major = bytes[6];
  a.minor = bytes[7];
  if (a.minor != 0 || a.major < 1 || a.major > 3)
    throw Error("format version " + std::to_string(a.major) + "." + std::to_string(a.minor) +
                " is not supported (1.0, 2.0, 3.0)");
  // Version 1.0 has a 2-byte header length, 2.0 and 3.0 a 4-byte one (both little-endian).
  const std::size_t len_size = a.major == 1 ? 2 : 4;
  const std::size_t preamble = kMagicSize + 2 + len_size;
  if (n < preamble)
    throw Error("truncated: " + std::to_string(n) + " bytes, no header length");
  const std::size_t header_len = static_cast<std::size_t>(load(bytes.data() + 8, len_size, false));
  if (header_len > n - preamble)
    throw Error("truncated: the header length says " + std::to_string(header_len) +
                " bytes, the file has " + std::to_string(n - preamble) + " after the preamble");
  const std::string_view text(reinterpret_cast<const char*>(bytes.data() + preamble), header_len);
  const Header h = HeaderParser(text).parse();

  const Descr d = parse_descr(*h.descr);
  a.descr = *h.descr;
  a.type = d.type;
  a.big_endian = d.big_endian;
  a.fortran_order = *h.fortran_order;
  a.shape = *h.shape;

  const std::size_t size = type_size(a.type);
  std::size_t count = 1;
  for (std::size_t dim : a.shape)
    if (__builtin_mul_overflow(count, dim, &count))
      throw Error("shape " + shape_text(a.shape) + " has more elements than memory can address");
  const std::size_t data = n - preamble - header_len;
  if (count > data / size)
    throw Error("truncated: shape " + shape_text(a.shape) + " of " + a.descr + " needs " +
                std::to_string(count) + " elements of " + std::to_string(size) +
                " bytes, the data holds " + std::to_string(data) + " bytes");
  if (data != count * size)
    throw Error(std::to_string(data - count * size) + " bytes after the data of shape " +
                shape_text(a.shape) + " of " + a.descr);

  const std::uint8_t* p = bytes.data() + preamble + header_len;
  a.elements.resize(count);
  for (std::size_t k = 0; k < count; ++k) a.elements[k] = load(p + k * size, size, a.big_endian);
  if (a.fortran_order) a.elements = fortran_to_c(a.elements, a.shape);
  return a;
}

Array read_file(const std::string& path) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"),
                                                          &std::fclose);
  if (!f) throw Error(path + ": cannot open: " + std::strerror(errno));
  std::vector<std::uint8_t> bytes;
  std::uint8_t buf[1 << 16];
  for (;;) {
    const std::size_t got = std::fread(buf, 1, sizeof buf, f.get());
    bytes.insert(bytes.end(), buf, buf + got);
    if (got < sizeof buf) break;
  }
  if (std::ferror(f.get())) throw Error(path + ": cannot read: " + std::strerror(errno));
  try {
    return parse(bytes);
  } catch (const Error& e) {
    throw Error(path + ": " + e.what());
  }
}

}  // namespace gelucheck::npy

namespace gelucheck::npy {

std::vector<std::uint8_t> format(Type t, std::span<const std::uint64_t> elements) {
  static constexpr const char* kDescr[] = {"<f8", "<f4", "<f2", "<u2"};
  std::string header = std::string("{'descr': '") + kDescr[static_cast<int>(t)] +
                       "', 'fortran_order': False, 'shape': (" + std::to_string(elements.size()) +
                       ",), }";
  // Version 1.0: magic, version, a 2-byte length; the header padded with blanks and ending in
  // '\n' so that the data start on a multiple of 64 bytes (numpy.lib.format's alignment).
  const std::size_t unpadded = kMagicSize + 2 + 2 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::vector<std::uint8_t> out(kMagic, kMagic + kMagicSize);
  out.push_back(1);
  out.push_back(0);
  out.push_back(static_cast<std::uint8_t>(header.size() & 0xff));
  out.push_back(static_cast<std::uint8_t>(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  const std::size_t size = type_size(t);
  for (std::uint64_t v : elements)
    for (std::size_t k = 0; k < size; ++k) out.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
  return out;
}

void write_file(const std::string& path, Type t, std::span<const std::uint64_t> elements) {
  const std::vector<std::uint8_t> bytes = format(t, elements);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "wb"),
                                                          &std::fclose);
  if (!f) throw Error(path + ": cannot create: " + std::strerror(errno));
  if (std::fwrite(bytes.data(), 1, bytes.size(), f.get()) != bytes.size() ||
      std::fflush(f.get()) != 0)
    throw Error(path + ": cannot write: " + std::strerror(errno));
}

}  // namespace gelucheck::npy
