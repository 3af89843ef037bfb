// proptests/generators.cpp — the inputs of support.hpp: how they print, the generators over bit
// patterns of every format, the seeded draws for arrays, and the region tags.
//
// The hard points (gelucheck/facts.hpp, their one home) were computed with mpmath 1.3 at 60 digits:
//   python3 proptests/tools/hard_points.py
// (stable forms x/(1+e^(-2u)) and x·erfc(-x/√2)/2, findroot on log|f(x)| = log 2^-1075 for the
// underflow points and on f'(x) = 0 for the argmins; the gap points are the 40-digit table of facts.hpp, converted).
#include "support.hpp"

#include <bit>
#include <cmath>
#include <limits>

namespace gelucheck::prop {

std::string hex(double x) { return hexfloat(x); }

std::ostream& operator<<(std::ostream& os, const Input& x) {
  return os << hex(x.v) << " (" << decimal_roundtrip(x.v, x.fmt) << ", "
            << subject::dtype_name(x.fmt) << ") [" << x.origin << "]";
}

namespace {

using dlim = std::numeric_limits<double>;
using flim = std::numeric_limits<float>;

// ---------------------------------------------------------------------------------------------
// binary64

struct Hard {
  double x;
  const char* origin;
};
const std::vector<Hard>& hard64() {
  static const std::vector<Hard> v = [] {
    std::vector<Hard> h;  // the shared set (facts.hpp), then this suite's extras
    for (const facts::Point& p : facts::hard_points) h.push_back({p.x, p.what});
    h.insert(h.end(), {
      {-7.2, "naive tanh flushes"},
      {-8.4, "naive erf flushes"},
      {-33.0, "erfc argument rounding"},
      {-3.0, "gelu_new table"},
      {-1.0, "gelu_new table"},
      {0.5, "gelu_new table"},
      {1.0, "gelu_new table"},
      {2.0, "gelu_new table"},
      {dlim::max(), "DBL_MAX"},
      {-dlim::max(), "DBL_MAX"},
      {dlim::min(), "DBL_MIN"},
      {-dlim::min(), "DBL_MIN"},
    });
    return h;
  }();
  return v;
}
const std::vector<Hard>& specials64() {
  static const std::vector<Hard> v = {
      {0.0, "+0"}, {-0.0, "-0"}, {dlim::infinity(), "+inf"}, {-dlim::infinity(), "-inf"},
      {dlim::quiet_NaN(), "nan"}, {-dlim::quiet_NaN(), "-nan"},
      {dlim::denorm_min(), "least subnormal"}, {-dlim::denorm_min(), "least subnormal"},
      {dlim::max(), "DBL_MAX"}, {-dlim::max(), "DBL_MAX"},
  };
  return v;
}

double from_parts(bool neg, int exponent, std::uint64_t mantissa) {
  // exponent in [-1074, 1023]: binade [2^e, 2^(e+1)) for normals; subnormal below -1022.
  mantissa &= (std::uint64_t{1} << 52) - 1;
  double v;
  if (exponent >= -1022) {
    v = std::bit_cast<double>((static_cast<std::uint64_t>(exponent + 1023) << 52) | mantissa);
  } else {
    // subnormal with leading bit at 2^exponent
    const int shift = -1022 - exponent;  // 1 .. 52
    const std::uint64_t m = (std::uint64_t{1} << (52 - shift)) | (mantissa >> shift);
    v = std::bit_cast<double>(m);
  }
  return neg ? -v : v;
}

double tail_point(std::uint64_t m) {  // uniform in [-45, -5]
  return -5.0 - 40.0 * static_cast<double>(m >> 11) * 0x1p-53;
}

double perturb(double x, int ulps, int rel) {
  if (!std::isfinite(x)) return x;
  if (rel != 0) return x * (1.0 + 1e-12 * static_cast<double>(rel) / 1000.0);  // |t| <= 1e-12
  double y = x;
  const double dir = ulps > 0 ? dlim::infinity() : -dlim::infinity();
  for (int i = 0; i < std::abs(ulps); ++i) y = std::nextafter(y, dir);
  return y;
}

// rc's arbitrary integers grow with the test size (small early in a run); bit patterns and
// mantissas must cover their whole range from the first case, so their size is pinned at the
// nominal maximum (shrinking still works).
template <class U>
rc::Gen<U> any_bits() {
  return rc::gen::resize(100, rc::gen::arbitrary<U>());
}

Input in64(double v, const char* origin) { return {v, Format::binary64, origin}; }

rc::Gen<Input> gen64() {
  using namespace rc;
  auto bits = gen::map(any_bits<std::uint64_t>(),
                       [](std::uint64_t b) { return in64(std::bit_cast<double>(b), "bits"); });
  auto binade = gen::map(
      gen::tuple(gen::arbitrary<bool>(), gen::inRange(-1074, 1024), any_bits<std::uint64_t>()),
      [](const std::tuple<bool, int, std::uint64_t>& t) {
        return in64(from_parts(std::get<0>(t), std::get<1>(t), std::get<2>(t)), "binade");
      });
  auto moderate = gen::map(
      gen::tuple(gen::arbitrary<bool>(), gen::inRange(-6, 6), any_bits<std::uint64_t>()),
      [](const std::tuple<bool, int, std::uint64_t>& t) {
        return in64(from_parts(std::get<0>(t), std::get<1>(t), std::get<2>(t)), "|x| in [2^-6,2^6)");
      });
  auto tail = gen::map(any_bits<std::uint64_t>(),
                       [](std::uint64_t m) { return in64(tail_point(m), "tail [-45,-5]"); });
  auto near_hard = gen::map(
      gen::tuple(gen::elementOf(hard64()), gen::inRange(-64, 65),
                 gen::weightedElement<int>({{3, 0}, {1, 1}}), gen::inRange(-1000, 1001)),
      [](const std::tuple<Hard, int, int, int>& t) {
        const auto& [h, ulps, use_rel, rel] = t;
        return in64(perturb(h.x, use_rel ? 0 : ulps, use_rel ? rel : 0), h.origin);
      });
  auto special = gen::map(gen::elementOf(specials64()),
                          [](const Hard& h) { return in64(h.x, h.origin); });
  auto subnormal = gen::map(
      gen::tuple(gen::arbitrary<bool>(), gen::inRange<std::uint64_t>(1, std::uint64_t{1} << 52)),
      [](const std::tuple<bool, std::uint64_t>& t) {
        const double v = std::bit_cast<double>(std::get<1>(t));
        return in64(std::get<0>(t) ? -v : v, "subnormal");
      });
  return gen::weightedOneOf<Input>({{10, bits},
                                    {20, binade},
                                    {25, moderate},
                                    {15, tail},
                                    {20, near_hard},
                                    {5, special},
                                    {5, subnormal}});
}

double draw64(std::mt19937_64& rng) {
  const std::uint64_t a = rng(), b = rng();
  switch (a % 8) {
    case 0: return std::bit_cast<double>(b);
    case 1: return from_parts(b & 1, static_cast<int>((b >> 1) % 2098) - 1074, rng());
    case 2:
    case 3: return from_parts(b & 1, static_cast<int>((b >> 1) % 12) - 6, rng());
    case 4: return tail_point(b);
    case 5: {
      const auto& h = hard64()[b % hard64().size()];
      return perturb(h.x, static_cast<int>((b >> 32) % 129) - 64, 0);
    }
    case 6: return specials64()[b % specials64().size()].x;
    default: return from_parts(b & 1, static_cast<int>((b >> 1) % 16) - 8, rng());
  }
}

// ---------------------------------------------------------------------------------------------
// binary32

struct Hard32 {
  float x;
  const char* origin;
};
const std::vector<Hard32>& hard32() {
  static const std::vector<Hard32> v = [] {
    std::vector<Hard32> h;  // the shared set (facts.hpp), then this suite's extras
    for (const facts::Point32& p : facts::hard_points32) h.push_back({p.x, p.what});
    h.insert(h.end(), {
      {0x1p64f, "u overflow"},
      {-0x1p64f, "u overflow"},
      {flim::max(), "FLT_MAX"},
      {-flim::max(), "FLT_MAX"},
      {flim::min(), "FLT_MIN"},
      {-flim::min(), "FLT_MIN"},
      {-3.0f, "gelu_new table"},
      {-1.0f, "gelu_new table"},
    });
    return h;
  }();
  return v;
}
const std::vector<Hard32>& specials32() {
  static const std::vector<Hard32> v = {
      {0.0f, "+0"}, {-0.0f, "-0"}, {flim::infinity(), "+inf"}, {-flim::infinity(), "-inf"},
      {flim::quiet_NaN(), "nan"}, {flim::denorm_min(), "least subnormal"},
      {-flim::denorm_min(), "least subnormal"},
  };
  return v;
}
float from_parts32(bool neg, int exponent, std::uint32_t mantissa) {
  mantissa &= (1u << 23) - 1;
  float v;
  if (exponent >= -126) {
    v = std::bit_cast<float>((static_cast<std::uint32_t>(exponent + 127) << 23) | mantissa);
  } else {
    const int shift = -126 - exponent;  // 1 .. 23
    v = std::bit_cast<float>((1u << (23 - shift)) | (mantissa >> shift));
  }
  return neg ? -v : v;
}
Input in32(float v, const char* origin) { return {static_cast<double>(v), Format::binary32, origin}; }

rc::Gen<Input> gen32() {
  using namespace rc;
  auto bits = gen::map(any_bits<std::uint32_t>(),
                       [](std::uint32_t b) { return in32(std::bit_cast<float>(b), "bits"); });
  auto binade = gen::map(
      gen::tuple(gen::arbitrary<bool>(), gen::inRange(-149, 128), any_bits<std::uint32_t>()),
      [](const std::tuple<bool, int, std::uint32_t>& t) {
        return in32(from_parts32(std::get<0>(t), std::get<1>(t), std::get<2>(t)), "binade");
      });
  auto moderate = gen::map(
      gen::tuple(gen::arbitrary<bool>(), gen::inRange(-6, 6), any_bits<std::uint32_t>()),
      [](const std::tuple<bool, int, std::uint32_t>& t) {
        return in32(from_parts32(std::get<0>(t), std::get<1>(t), std::get<2>(t)), "|x| in [2^-6,2^6)");
      });
  auto tail = gen::map(any_bits<std::uint32_t>(), [](std::uint32_t m) {
    return in32(-3.0f - 15.0f * static_cast<float>(m >> 8) * 0x1p-24f, "tail [-18,-3]");
  });
  auto near_hard = gen::map(
      gen::tuple(gen::elementOf(hard32()), gen::inRange(-64, 65)),
      [](const std::tuple<Hard32, int>& t) {
        float y = std::get<0>(t).x;
        const int k = std::get<1>(t);
        for (int i = 0; i < std::abs(k); ++i)
          y = std::nextafter(y, k > 0 ? flim::infinity() : -flim::infinity());
        return in32(y, std::get<0>(t).origin);
      });
  auto special = gen::map(gen::elementOf(specials32()),
                          [](const Hard32& h) { return in32(h.x, h.origin); });
  return gen::weightedOneOf<Input>(
      {{10, bits}, {20, binade}, {30, moderate}, {15, tail}, {20, near_hard}, {5, special}});
}

float draw32(std::mt19937_64& rng) {
  const std::uint64_t a = rng(), b = rng();
  const auto m = static_cast<std::uint32_t>(rng());
  switch (a % 8) {
    case 0: return std::bit_cast<float>(static_cast<std::uint32_t>(b));
    case 1: return from_parts32(b & 1, static_cast<int>((b >> 1) % 277) - 149, m);
    case 2:
    case 3: return from_parts32(b & 1, static_cast<int>((b >> 1) % 12) - 6, m);
    case 4: return -3.0f - 15.0f * static_cast<float>(b >> 40) * 0x1p-24f;
    case 5: return hard32()[b % hard32().size()].x;
    case 6: return specials32()[b % specials32().size()].x;
    default: return from_parts32(b & 1, static_cast<int>((b >> 1) % 16) - 8, m);
  }
}

// ---------------------------------------------------------------------------------------------
// bfloat16 and binary16: 65,536 patterns each, so a uniform draw of the pattern already reaches
// every binade; the rest of the weight goes to where the functions are hard (the binary64 hard
// points and tail rounded to the format) and to the specials.

Input in16(Format fmt, std::uint16_t bits, const char* origin) {
  return {from_bits(bits, fmt), fmt, origin};
}
// The value k steps of fmt away from v (toward +inf for k > 0); ±inf stay where they are.
double step16(Format fmt, double v, int k) {
  if (std::isnan(v)) return v;
  double y = v;
  for (int i = 0; i < std::abs(k); ++i) y = next_in(fmt, y, k > 0 ? dlim::infinity() : -dlim::infinity());
  return y;
}

rc::Gen<Input> gen16(Format fmt) {
  using namespace rc;
  auto bits = gen::map(any_bits<std::uint16_t>(),
                       [fmt](std::uint16_t b) { return in16(fmt, b, "bits"); });
  auto rounded = gen::map(gen64(), [fmt](const Input& x) {
    return Input{round_to_format(x.v, fmt), fmt, x.origin};
  });
  auto near_hard = gen::map(gen::tuple(gen::elementOf(hard64()), gen::inRange(-8, 9)),
                            [fmt](const std::tuple<Hard, int>& t) {
                              const double h = round_to_format(std::get<0>(t).x, fmt);
                              return Input{step16(fmt, h, std::get<1>(t)), fmt, std::get<0>(t).origin};
                            });
  auto special = gen::map(gen::elementOf(specials64()), [fmt](const Hard& h) {
    return Input{round_to_format(h.x, fmt), fmt, h.origin};
  });
  return gen::weightedOneOf<Input>({{40, bits}, {30, rounded}, {25, near_hard}, {5, special}});
}

double draw16(Format fmt, std::mt19937_64& rng) {
  const std::uint64_t a = rng();
  if (a % 2 == 0) return from_bits(static_cast<std::uint16_t>(a >> 16), fmt);
  return round_to_format(draw64(rng), fmt);
}

}  // namespace

rc::Gen<Form> gen_form() { return rc::gen::element(Form::tanh, Form::erf); }
rc::Gen<Quantity> gen_quantity() { return rc::gen::element(Quantity::value, Quantity::derivative); }

rc::Gen<Input> gen_input(Format fmt) {
  switch (fmt) {
    case Format::binary64: return gen64();
    case Format::binary32: return gen32();
    default: return gen16(fmt);
  }
}

rc::Gen<Input> gen_finite(Format fmt) {
  return rc::gen::suchThat(gen_input(fmt), [](const Input& x) { return std::isfinite(x.v); });
}

rc::Gen<Input> gen_in(Format fmt, double lo, double hi) {
  return rc::gen::suchThat(gen_input(fmt), [lo, hi](const Input& x) { return x.v >= lo && x.v <= hi; });
}

// Where 1 + erf(x/√2) and 1 + tanh u cancel: from -1 down to the format's underflow of the erf
// value (below it both forms are ±0 or subnormal): facts.hpp's binary64 and binary32 points
// (bfloat16 has binary32's exponent range), and -8 for binary16 (|f| < 2^-25, half its least
// subnormal, long before: 8·Φ(-8) ≈ 5e-15).
double negative_tail_end(Format fmt) {
  switch (fmt) {
    case Format::binary64: return facts::underflow_value_erf;
    case Format::binary32:
    case Format::bfloat16: return static_cast<double>(facts::f32_underflow_value_erf);
    case Format::binary16: return -8.0;
  }
  return -8.0;
}

rc::Gen<Input> gen_run_start(Format fmt, double lo, double hi) {
  const double tlo = round_to_format(std::max(lo, negative_tail_end(fmt)), fmt);
  const double thi = round_to_format(std::min(hi, -1.0), fmt);
  if (!(tlo < thi)) return gen_in(fmt, lo, hi);
  // Negative values: the bit pattern grows with |x|, so [thi, tlo] in x is [bits(thi),
  // bits(tlo)] in patterns, drawn uniformly (every binade of the tail by its number of values).
  const std::uint64_t b_lo = *to_bits(thi, fmt), b_hi = *to_bits(tlo, fmt);
  auto tail = rc::gen::map(rc::gen::inRange<std::uint64_t>(b_lo, b_hi + 1), [fmt](std::uint64_t b) {
    return Input{from_bits(b, fmt), fmt, "negative tail run"};
  });
  return rc::gen::weightedOneOf<Input>({{1, tail}, {1, gen_in(fmt, lo, hi)}});
}

std::vector<double> run_from(Format fmt, double start, double hi, std::size_t n) {
  std::vector<double> xs;
  for (double x = start; xs.size() < n && x <= hi; x = next_in(fmt, x, dlim::infinity())) {
    xs.push_back(x);
    if (x == hi) break;
  }
  return xs;
}

double draw(Format fmt, std::mt19937_64& rng, bool finite_only) {
  for (;;) {
    const double v = fmt == Format::binary64   ? draw64(rng)
                     : fmt == Format::binary32 ? static_cast<double>(draw32(rng))
                                               : draw16(fmt, rng);
    if (!finite_only || std::isfinite(v)) return v;
  }
}

const char* region(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return "inf";
  if (x == 0) return "zero";
  // The report's regions (gelucheck/regions.hpp); subnormal as binary64 sees it, for every format.
  if (subnormal_in(x, Format::binary64)) return region_name(Region::subnormal);
  return region_name(interval_region(x));
}
void tag(const Input& x) { RC_TAG(std::string(region(x.v)), std::string(x.origin)); }

}  // namespace gelucheck::prop
