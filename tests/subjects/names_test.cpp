// The subject layer's vocabulary: names of the ABI and the protocol (contracts: exact strings),
// element storage, the protocol's lines, the lib: map and the cmd: word splitting.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "gelucheck/subject.hpp"
#include "lib_map.hpp"
#include "process_subject.hpp"
#include "protocol.hpp"

namespace gelucheck::subject {
namespace {

TEST(Names, DtypesAreTheAbisSpelling) {
  EXPECT_EQ(dtype_name(Format::binary64), "f64");
  EXPECT_EQ(dtype_name(Format::binary32), "f32");
  EXPECT_EQ(dtype_name(Format::bfloat16), "bf16");
  EXPECT_EQ(dtype_name(Format::binary16), "f16");
  for (Format f : all_formats) {
    EXPECT_EQ(parse_dtype(dtype_name(f)), f);
    EXPECT_EQ(parse_dtype(name(f)), f);  // the Format names are accepted too
  }
  EXPECT_FALSE(parse_dtype("fp32"));
  EXPECT_FALSE(parse_dtype(""));
  EXPECT_EQ(element_size(Format::binary64), 8u);
  EXPECT_EQ(element_size(Format::binary32), 4u);
  EXPECT_EQ(element_size(Format::binary16), 2u);
  EXPECT_EQ(element_size(Format::bfloat16), 2u);
}

TEST(Names, Functions) {
  EXPECT_EQ(function_name({Form::tanh, Quantity::value}), "tanh.value");
  EXPECT_EQ(function_name({Form::erf, Quantity::derivative}), "erf.derivative");
  for (Function f : all_functions) EXPECT_EQ(parse_function(function_name(f)), f);
  for (const char* bad : {"tanh", "tanh.", ".value", "tanh.value.x", "gelu.value", "tanh.deriv"})
    EXPECT_FALSE(parse_function(bad)) << bad;
}

TEST(Names, OpsAndAbiSymbolsAreTheContract) {
  const Op fwd{Form::tanh, Direction::forward, Format::binary64};
  const Op bwd{Form::erf, Direction::backward, Format::bfloat16};
  EXPECT_EQ(op_name(fwd), "tanh.forward.f64");
  EXPECT_EQ(op_name(bwd), "erf.backward.bf16");
  EXPECT_EQ(abi_symbol(fwd), "gelu_tanh_f64");
  EXPECT_EQ(abi_symbol(bwd), "gelu_erf_backward_bf16");
  EXPECT_EQ(abi_symbol({Form::erf, Direction::forward, Format::binary16}), "gelu_erf_f16");
  EXPECT_EQ(abi_symbol({Form::tanh, Direction::backward, Format::binary32}),
            "gelu_tanh_backward_f32");

  // 2 forms × 2 directions × 4 formats, each once, in the documented order.
  const auto& ops = all_ops();
  ASSERT_EQ(ops.size(), 16u);
  std::set<std::string> names, symbols;
  for (const Op& op : ops) {
    names.insert(op_name(op));
    symbols.insert(abi_symbol(op));
    EXPECT_EQ(parse_op(op_name(op)), op) << op_name(op);
  }
  EXPECT_EQ(names.size(), 16u);
  EXPECT_EQ(symbols.size(), 16u);
  EXPECT_EQ(ops.front(), fwd);
  EXPECT_EQ(ops[1], (Op{Form::tanh, Direction::forward, Format::binary32}));
  EXPECT_EQ(ops.back(), bwd);
  for (const char* bad : {"tanh.forward.binary64", "tanh.fwd.f64", "tanh.forward", "x.forward.f64",
                          "tanh.forward.f64.", "tanh..f64", ""})
    EXPECT_FALSE(parse_op(bad)) << bad;
}

TEST(Names, KindsAndProvides) {
  std::set<std::string_view> seen;
  using K = Status::Kind;
  for (K k : {K::ok, K::unavailable, K::crashed, K::timed_out, K::protocol_error, K::wrote_input,
              K::failed})
    seen.insert(kind_name(k));
  EXPECT_EQ(seen.size(), 7u);
  EXPECT_EQ(kind_name(K::wrote_input), "wrote_input");
  Capabilities c;
  c.ops = {{Form::erf, Direction::forward, Format::binary32}};
  EXPECT_TRUE(c.provides({Form::erf, Direction::forward, Format::binary32}));
  EXPECT_FALSE(c.provides({Form::erf, Direction::forward, Format::binary64}));
  EXPECT_FALSE(c.provides({Form::tanh, Direction::forward, Format::binary32}));
}

// --- storage -----------------------------------------------------------------------------------

// One 16-bit element through the storage functions of subject.hpp.
double from_bits16(std::uint16_t u, Format f) { return load(f, &u, 0); }
std::uint16_t to_bits16(double v, Format f) {
  std::uint16_t u = 0;
  store(f, v, &u, 0);
  return u;
}

TEST(Storage, SixteenBitPatternsAtKnownValues) {
  // binary16: 1 = 0x3c00, the largest finite 65504 = 0x7bff, the least subnormal 2^-24 = 0x0001,
  // the least normal 2^-14 = 0x0400; bfloat16: 1 = 0x3f80, -2 = 0xc000 (IEEE 754-2008, Table 3.5;
  // bfloat16 is the top half of binary32).
  EXPECT_EQ(from_bits16(0x3c00, Format::binary16), 1.0);
  EXPECT_EQ(from_bits16(0x7bff, Format::binary16), 65504.0);
  EXPECT_EQ(from_bits16(0x0001, Format::binary16), 0x1p-24);
  EXPECT_EQ(from_bits16(0x0400, Format::binary16), 0x1p-14);
  EXPECT_EQ(from_bits16(0xfc00, Format::binary16), -INFINITY);
  EXPECT_TRUE(std::signbit(from_bits16(0x8000, Format::binary16)));
  EXPECT_TRUE(std::isnan(from_bits16(0x7e00, Format::binary16)));
  EXPECT_EQ(from_bits16(0x3f80, Format::bfloat16), 1.0);
  EXPECT_EQ(from_bits16(0xc000, Format::bfloat16), -2.0);
  // Rounding on the way in: 1 + 2^-11 is the midpoint of 1 and 1 + 2^-10 in binary16: ties to
  // even gives 1; 1 + 3·2^-11 rounds up to 1 + 2^-9 (the even one of 1+2^-10, 1+2^-9).
  EXPECT_EQ(to_bits16(1 + 0x1p-11, Format::binary16), 0x3c00);
  EXPECT_EQ(to_bits16(1 + 3 * 0x1p-11, Format::binary16), 0x3c02);
  EXPECT_EQ(to_bits16(65520.0, Format::binary16), 0x7c00);  // midpoint to 2^16: overflows
  EXPECT_EQ(to_bits16(0x1p-25, Format::binary16), 0x0000);  // half the least subnormal: tie to 0
  EXPECT_EQ(to_bits16(-NAN, Format::bfloat16), 0xffc0);
}

TEST(Storage, EveryPatternRoundTrips) {
  for (Format f : {Format::binary16, Format::bfloat16}) {
    double prev = -INFINITY;
    // Patterns 0x0000..0x7c00 / 0x7f80 are 0 up to +inf in increasing order.
    const unsigned inf = f == Format::binary16 ? 0x7c00 : 0x7f80;
    for (unsigned b = 0; b <= 0xffff; ++b) {
      const auto u = static_cast<std::uint16_t>(b);
      const double v = from_bits16(u, f);
      if (std::isnan(v)) continue;
      EXPECT_EQ(to_bits16(v, f), u) << std::hex << b;
      EXPECT_EQ(round_to_format(v, f), v) << std::hex << b;  // a value of the format
      if (b <= inf) {
        if (b > 0) {
          EXPECT_LT(prev, v) << std::hex << b;
        }
        prev = v;
      }
    }
  }
}

#ifdef __FLT16_MANT_DIG__
// An independent decoder of binary16: the compiler's own _Float16.
TEST(Storage, Binary16AgreesWithTheCompilersFloat16) {
  for (unsigned b = 0; b <= 0xffff; ++b) {
    const auto u = static_cast<std::uint16_t>(b);
    _Float16 h;
    std::memcpy(&h, &u, 2);
    const double want = static_cast<double>(h);
    const double got = from_bits16(u, Format::binary16);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << std::hex << b;
    } else {
      EXPECT_TRUE(same_bits(got, want)) << std::hex << b << ": " << hexfloat(got) << " vs " << hexfloat(want);
    }
  }
}
#endif

TEST(Storage, LoadAndStoreEachFormat) {
  double d[2];
  float f[2];
  std::uint16_t h[2];
  store(Format::binary64, 0.1, d, 1);
  EXPECT_EQ(d[1], 0.1);
  store(Format::binary32, 0.1, f, 1);
  EXPECT_EQ(f[1], 0.1f);
  EXPECT_EQ(load(Format::binary32, f, 1), static_cast<double>(0.1f));
  store(Format::bfloat16, 1.0, h, 1);
  EXPECT_EQ(h[1], 0x3f80);
  EXPECT_EQ(load(Format::bfloat16, h, 1), 1.0);
  store(Format::binary16, -2.0, h, 0);
  EXPECT_EQ(h[0], 0xc000);
}

// --- the protocol's lines ----------------------------------------------------------------------

TEST(Protocol, HandshakeRoundTripsAndIsChecked) {
  protocol::Handshake h{"torch 1.13.1, batch \"quoted\"\n",
                        {{Form::tanh, Direction::forward, Format::binary64},
                         {Form::erf, Direction::backward, Format::bfloat16}},
                        true};
  const std::string line = protocol::format_handshake(h);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  std::string why;
  const auto back = protocol::parse_handshake(line, why);
  ASSERT_TRUE(back) << why;
  EXPECT_EQ(*back, h);

  const auto ok = protocol::parse_handshake(
      R"({"protocol":"gelucheck-subject/1","name":"x","provides":["erf.forward.f32"],"extra":1})", why);
  ASSERT_TRUE(ok) << why;  // unknown keys are ignored; strided defaults to false
  EXPECT_FALSE(ok->strided);
  for (const char* bad :
       {"", "hello", "[]", R"({"name":"x","provides":[]})",
        R"({"protocol":"gelucheck-subject/2","name":"x","provides":[]})",
        R"({"protocol":"gelucheck-subject/1","provides":[]})",
        R"({"protocol":"gelucheck-subject/1","name":"","provides":[]})",
        R"({"protocol":"gelucheck-subject/1","name":"x"})",
        R"({"protocol":"gelucheck-subject/1","name":"x","provides":["tanh.forward.fp32"]})",
        R"({"protocol":"gelucheck-subject/1","name":"x","provides":[1]})",
        R"({"protocol":"gelucheck-subject/1","name":"x","provides":["erf.forward.f32","erf.forward.f32"]})",
        R"({"protocol":"gelucheck-subject/1","name":"x","provides":[],"strided":"yes"})"}) {
    why.clear();
    EXPECT_FALSE(protocol::parse_handshake(bad, why)) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
}

TEST(Protocol, Requests) {
  std::string why;
  const protocol::Request r{false, {Form::erf, Direction::backward, Format::binary16}, 7, 3};
  EXPECT_EQ(protocol::format_request(r), "backward erf f16 7 3");
  EXPECT_EQ(protocol::parse_request("backward erf f16 7 3", why), r);
  EXPECT_EQ(protocol::payload_bytes(r), 7u * 2u * 2u);
  const auto f = protocol::parse_request("forward tanh f64 0", why);
  ASSERT_TRUE(f) << why;
  EXPECT_EQ(f->stride, 1u);
  EXPECT_EQ(protocol::format_request(*f), "forward tanh f64 0");
  EXPECT_TRUE(protocol::parse_request("quit", why)->quit);
  for (const char* bad : {"forward tanh f64", "forward tanh f64 -1", "forward tanh f64 01",
                          "forward tanh binary64 1", "forward  tanh f64 1", "forward tanh f64 1 0",
                          "forward tanh f64 1 ", "sideways tanh f64 1", "forward tanh f64 1 2 3",
                          "forward tanh f64 268435457", "forward tanh f64 99999999999999999999"})
    EXPECT_FALSE(protocol::parse_request(bad, why)) << bad;
}

TEST(Protocol, Answers) {
  std::string why;
  using A = protocol::Answer;
  EXPECT_EQ(protocol::parse_answer("ok 12", why), (A{A::Kind::ok, 12, {}}));
  EXPECT_EQ(protocol::parse_answer("ok 0", why), (A{A::Kind::ok, 0, {}}));
  EXPECT_EQ(protocol::parse_answer("error ValueError: no", why),
            (A{A::Kind::error, 0, "ValueError: no"}));
  EXPECT_EQ(protocol::parse_answer("error", why), (A{A::Kind::error, 0, ""}));
  EXPECT_EQ(protocol::parse_answer("wrote_input x[3] changed", why),
            (A{A::Kind::wrote_input, 0, "x[3] changed"}));
  // The extension: results follow a write into the inputs; the bare form keeps its meaning.
  EXPECT_EQ(protocol::parse_answer("ok 4 wrote_input x[1] changed", why),
            (A{A::Kind::ok_wrote_input, 4, "x[1] changed"}));
  EXPECT_EQ(protocol::parse_answer("ok 4 wrote_input", why), (A{A::Kind::ok_wrote_input, 4, ""}));
  EXPECT_EQ(protocol::format_answer({A::Kind::ok_wrote_input, 2, "dy[0]\nchanged"}),
            "ok 2 wrote_input dy[0]\\nchanged");
  for (const char* bad : {"", "ok", "ok -1", "ok 1 2", "OK 1", "ok 1.0", "errors x", "okay 3",
                          "ok 1 wrote_inputs x", "ok 01 wrote_input x", "ok wrote_input x"})
    EXPECT_FALSE(protocol::parse_answer(bad, why)) << bad;
  EXPECT_EQ(protocol::format_answer({A::Kind::error, 0, "two\nlines"}), "error two\\nlines");
  EXPECT_EQ(protocol::format_answer({A::Kind::ok, 5, {}}), "ok 5");
}

TEST(Protocol, OneLine) {
  EXPECT_EQ(protocol::one_line("a\tb\nc\x01"), "a\\tb\\nc\\x01");
  EXPECT_EQ(protocol::one_line(std::string(20, 'x'), 5), "xxxxx... (20 bytes)");
}

// --- lib: maps -----------------------------------------------------------------------------------

TEST(LibMap, ParsesEntries) {
  const auto m = parse_lib_map("tanh.forward.f32=my_gelu_f,erf.backward.f64=dgelu@scalar,"
                               "erf.forward.f64=g@array");
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0], (LibMapping{{Form::tanh, Direction::forward, Format::binary32}, "my_gelu_f", false}));
  EXPECT_EQ(m[1], (LibMapping{{Form::erf, Direction::backward, Format::binary64}, "dgelu", true}));
  EXPECT_FALSE(m[2].scalar);
  EXPECT_EQ(format_lib_mapping(m[1]), "erf.backward.f64=dgelu@scalar");
  EXPECT_TRUE(parse_lib_map("").empty());
  for (const char* bad : {"tanh.forward.f32", "tanh.forward.f32=", "tanh.value.f32=f",
                          "tanh.forward.f32=f@vector", "tanh.forward.f32=1f",
                          "tanh.forward.f32=f,tanh.forward.f32=g", "tanh.forward.f32=f,"})
    EXPECT_THROW(parse_lib_map(bad), std::invalid_argument) << bad;
}

TEST(LibMap, SplitsPathAndMap) {
  EXPECT_EQ(split_lib_spec("./libx.so").path, "./libx.so");
  EXPECT_EQ(split_lib_spec("./libx.so").map, "");
  const auto s = split_lib_spec("/a:b/libx.so:tanh.forward.f32=f");
  EXPECT_EQ(s.path, "/a:b/libx.so");
  EXPECT_EQ(s.map, "tanh.forward.f32=f");
  EXPECT_EQ(split_lib_spec("/a:b/libx.so").path, "/a:b/libx.so");
}

// --- cmd: word splitting -------------------------------------------------------------------------

TEST(SplitCommand, WordsAndQuotes) {
  using V = std::vector<std::string>;
  EXPECT_EQ(split_command("/usr/bin/python3 a.py --layout batch"),
            (V{"/usr/bin/python3", "a.py", "--layout", "batch"}));
  EXPECT_EQ(split_command("  prog   'a b'  \"c \\\"d\\\" \\$e\" f\\ g 'it'\\''s' x=\"\" "),
            (V{"prog", "a b", "c \"d\" $e", "f g", "it's", "x="}));
  EXPECT_EQ(split_command("sh -c 'exit 3 | cat'"), (V{"sh", "-c", "exit 3 | cat"}));
  for (const char* bad : {"", "   ", "a | b", "a > log", "a; b", "echo $HOME", "a `b`", "a 'b",
                          "a \"b", "ls *.py", "~/prog", "a #comment", "a \\", "a \"$x\"", "a &"})
    EXPECT_THROW(split_command(bad), SpecError) << bad;
}

}  // namespace
}  // namespace gelucheck::subject
