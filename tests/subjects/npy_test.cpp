// npy.cpp, the .npy reader: files made by numpy (data/, written by data/make_fixtures.py) in
// every accepted dtype, both byte orders, versions 1.0 to 3.0, C and Fortran order; and files
// broken one way at a time, each of which must be refused with a message saying what is wrong.
// Expected encodings are spelled out by hand here (from the IEEE formats), not by the reader.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "gelucheck/common.hpp"
#include "npy.hpp"
#include "npy_files.hpp"

namespace gelucheck::npy {
namespace {

std::vector<std::uint8_t> slurp(const std::string& name) {
  std::ifstream in(std::string(GELUCHECK_NPY_DATA) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in) << "fixture " << name << " missing";
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
Array fixture(const std::string& name) { return parse(slurp(name)); }

// The eight values of make_fixtures.py: 1, -0.5, the least subnormal, minus the greatest
// finite, +inf, NaN (numpy's default quiet NaN), -0, 0.1 rounded to the format.
const std::vector<std::uint64_t> kF8 = {0x3ff0000000000000, 0xbfe0000000000000, 0x1,
                                        0xffefffffffffffff, 0x7ff0000000000000, 0x7ff8000000000000,
                                        0x8000000000000000, 0x3fb999999999999a};
const std::vector<std::uint64_t> kF4 = {0x3f800000, 0xbf000000, 0x1,        0xff7fffff,
                                        0x7f800000, 0x7fc00000, 0x80000000, 0x3dcccccd};
const std::vector<std::uint64_t> kF2 = {0x3c00, 0xb800, 0x0001, 0xfbff,
                                        0x7c00, 0x7e00, 0x8000, 0x2e66};
const std::vector<std::uint64_t> kU2 = {0x3f80, 0x8000, 0xff7f, 0x7fc0,
                                        0x0001, 0xffff, 0x1234, 0x0000};

TEST(NpyRead, EveryDtypeInBothByteOrders) {
  const struct {
    const char* file;
    const char* descr;
    Type type;
    bool big;
    const std::vector<std::uint64_t>* expected;
  } cases[] = {
      {"f8_le.npy", "<f8", Type::f8, false, &kF8}, {"f8_be.npy", ">f8", Type::f8, true, &kF8},
      {"f4_le.npy", "<f4", Type::f4, false, &kF4}, {"f4_be.npy", ">f4", Type::f4, true, &kF4},
      {"f2_le.npy", "<f2", Type::f2, false, &kF2}, {"f2_be.npy", ">f2", Type::f2, true, &kF2},
      {"u2_le.npy", "<u2", Type::u2, false, &kU2}, {"u2_be.npy", ">u2", Type::u2, true, &kU2},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    const Array a = fixture(c.file);
    EXPECT_EQ(a.major, 1);
    EXPECT_EQ(a.minor, 0);
    EXPECT_EQ(a.descr, c.descr);
    EXPECT_EQ(a.type, c.type);
    EXPECT_EQ(a.big_endian, c.big);
    EXPECT_FALSE(a.fortran_order);
    EXPECT_EQ(a.shape, std::vector<std::size_t>{8});
    EXPECT_EQ(a.elements, *c.expected);
  }
}

TEST(NpyRead, FormatVersionsTwoAndThree) {
  for (const char* file : {"f8_v2.npy", "f8_v3.npy"}) {
    SCOPED_TRACE(file);
    const Array a = fixture(file);
    EXPECT_EQ(a.major, file[4] - '0');
    EXPECT_EQ(a.elements, kF8);
  }
}

std::vector<std::uint64_t> counting(int n, bool single) {
  std::vector<std::uint64_t> v;
  for (int i = 0; i < n; ++i)
    v.push_back(single ? bits(static_cast<float>(i)) : bits(static_cast<double>(i)));
  return v;
}

TEST(NpyRead, FortranOrderIsReadInCOrder) {
  // numpy stores np.asfortranarray(np.arange(6.).reshape(2, 3)) column by column (0 3 1 4 2 5);
  // read back in C order it is 0..5, as the same array saved in C order.
  const Array f = fixture("f8_fortran_2x3.npy"), c = fixture("f8_c_2x3.npy");
  EXPECT_TRUE(f.fortran_order);
  EXPECT_FALSE(c.fortran_order);
  EXPECT_EQ(f.shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(f.elements, counting(6, false));
  EXPECT_EQ(c.elements, counting(6, false));
  const Array g = fixture("f4_fortran_2x3x4_be.npy");  // three dimensions, big-endian
  EXPECT_TRUE(g.fortran_order);
  EXPECT_EQ(g.shape, (std::vector<std::size_t>{2, 3, 4}));
  EXPECT_EQ(g.elements, counting(24, true));
}

TEST(NpyRead, ZeroDimensionalAndEmpty) {
  const Array s = fixture("f8_scalar.npy");
  EXPECT_TRUE(s.shape.empty());
  EXPECT_EQ(s.elements, std::vector<std::uint64_t>{bits(3.5)});
  const Array e = fixture("f8_empty_2x0.npy");
  EXPECT_EQ(e.shape, (std::vector<std::size_t>{2, 0}));
  EXPECT_TRUE(e.elements.empty());
  EXPECT_EQ(shape_text({}), "()");
  EXPECT_EQ(shape_text({5}), "(5,)");
  EXPECT_EQ(shape_text({2, 3}), "(2, 3)");
}

std::vector<std::uint8_t> npy_file(const std::string& header, const std::vector<std::uint8_t>& data,
                                   bool pad = true) {
  const std::string f = test_npy::npy_file_bytes(header, std::string(data.begin(), data.end()), pad);
  return {f.begin(), f.end()};
}
const std::vector<std::uint8_t> kTwoDoubles = {0, 0, 0, 0, 0, 0, 0xf0, 0x3f,   // 1.0
                                               0, 0, 0, 0, 0, 0, 0, 0x40};     // 2.0

std::string error_of(const std::vector<std::uint8_t>& f) {
  try {
    parse(f);
  } catch (const Error& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(NpyRead, OtherSpellingsOfAValidHeader) {
  // Double quotes, other key order, tabs and newlines, no trailing comma, no padding: all Python.
  for (const char* h : {"{\"shape\": (2,), \"fortran_order\": False, \"descr\": \"<f8\"}",
                        "{'descr':'<f8','fortran_order':False,'shape':(2,)}",
                        "{\n\t'descr' : '<f8' ,\n 'fortran_order' : False , 'shape' : ( 2 , ) , }"}) {
    SCOPED_TRACE(h);
    const Array a = parse(npy_file(h, kTwoDoubles, false));
    EXPECT_EQ(a.elements, (std::vector<std::uint64_t>{bits(1.0), bits(2.0)}));
  }
}

TEST(NpyRead, MalformedHeadersAreRefusedWithWhatIsWrong) {
  const struct {
    const char* header;
    const char* message;  // a part of the message
  } cases[] = {
      {"{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }", "dtype '<i8' is not supported"},
      {"{'descr': '|u1', 'fortran_order': False, 'shape': (16,), }", "dtype '|u1'"},
      {"{'descr': '=f8', 'fortran_order': False, 'shape': (2,), }", "dtype '=f8'"},
      {"{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }", "dtype '<c16'"},
      {"{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (2,), }", "structured"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2), }", "not a tuple"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': [2], }", "must be a tuple"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (-2,), }", "non-negative integer"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (02,), }", "leading zero"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (,), }", "non-negative integer"},
      {"{'descr': '<f8', 'fortran_order': 0, 'shape': (2,), }", "True or False"},
      {"{'descr': '<f8', 'shape': (2,), }", "no 'fortran_order'"},
      {"{'fortran_order': False, 'shape': (2,), }", "no 'descr'"},
      {"{'descr': '<f8', 'fortran_order': False, }", "no 'shape'"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'x': 1}", "unknown key 'x'"},
      {"{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2,)}", "twice"},
      {"{'descr': '<f8, 'fortran_order': False, 'shape': (2,)}", "expected ',' or '}'"},
      {"{'descr' '<f8', 'fortran_order': False, 'shape': (2,)}", "expected ':'"},
      {"{'descr': '<f\\x38', 'fortran_order': False, 'shape': (2,)}", "escapes"},
      {"{'descr': '<f8' 'fortran_order': False, 'shape': (2,)}", "expected ',' or '}'"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2,)} x", "after the dict"},
      {"['descr', '<f8']", "expected '{'"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2,)", "the dict is not closed"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 3: 4}", "expected a quoted string"},
      {"{'descr': '<f8\n', 'fortran_order': False, 'shape': (2,)}", "unterminated string"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999,)}",
       "too large"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16)}",
       "more elements than memory"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", "truncated: shape (3,) of <f8"},
      {"{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", "8 bytes after the data"},
  };
  for (const auto& c : cases) {
    const std::string what = error_of(npy_file(c.header, kTwoDoubles));
    EXPECT_NE(what.find(c.message), std::string::npos)
        << "header " << c.header << "\n  message: " << what << "\n  wanted: " << c.message;
  }
}

TEST(NpyRead, BrokenPreamblesAreRefused) {
  const std::vector<std::uint8_t> good = slurp("f8_le.npy");
  auto with = [&](std::size_t at, std::uint8_t byte) {
    std::vector<std::uint8_t> f = good;
    f[at] = byte;
    return f;
  };
  EXPECT_NE(error_of(with(5, 'Z')).find("not a .npy file"), std::string::npos);
  EXPECT_NE(error_of(with(6, 4)).find("format version 4.0 is not supported"), std::string::npos);
  EXPECT_NE(error_of(with(7, 1)).find("format version 1.1"), std::string::npos);
  EXPECT_NE(error_of(with(9, 0xff)).find("header length says"), std::string::npos);
  EXPECT_NE(error_of({}).find("empty file"), std::string::npos);
  EXPECT_NE(error_of({'P', 'K', 3, 4}).find("not a .npy file"), std::string::npos);  // a .npz
}

TEST(NpyRead, EveryTruncationOfEveryFixtureIsRefused) {
  // Each proper prefix of a valid file — within the magic, the length, the header, the data —
  // is an error, never a crash or a read past the end (run under -DGELUCHECK_SANITIZE=ON too).
  for (const char* file : {"f8_le.npy", "u2_be.npy", "f8_v3.npy", "f4_fortran_2x3x4_be.npy"}) {
    const std::vector<std::uint8_t> good = slurp(file);
    for (std::size_t n = 0; n < good.size(); ++n) {
      const std::vector<std::uint8_t> prefix(good.begin(), good.begin() + static_cast<long>(n));
      const std::string what = error_of(prefix);
      ASSERT_NE(what, "(accepted)") << file << " cut to " << n << " bytes";
    }
  }
}

TEST(NpyRead, ReadFileNamesTheFile) {
  const std::string missing = std::string(GELUCHECK_NPY_DATA) + "/no-such-file.npy";
  try {
    read_file(missing);
    FAIL() << "read a file that does not exist";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(missing + ": cannot open", 0), 0u) << e.what();
  }
  try {
    read_file(GELUCHECK_NPY_DATA);  // a directory
    FAIL() << "read a directory";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(GELUCHECK_NPY_DATA, 0), 0u) << e.what();
  }
  EXPECT_EQ(read_file(std::string(GELUCHECK_NPY_DATA) + "/f8_le.npy").elements, kF8);
}

}  // namespace
}  // namespace gelucheck::npy
