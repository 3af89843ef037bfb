// round_batch and round_columns: the fast path (fast_path.hpp) where its rounding test decides, the
// MPFR reference (enclose()) elsewhere. See docs/reference.md, "The fast reference".
#include "gelucheck/fast_reference.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>

#include <hwy/targets.h>

#include "fast_path.hpp"
#include "gelucheck/reference.hpp"
#include "gelucheck/mpfr.hpp"

namespace gelucheck::ref {
namespace {

// hi + lo (·2^scale) nearest the enclosure's midpoint; hi is the midpoint rounded to nearest and
// lo the rest rounded to nearest, so hi + lo carries it to 2^-106 relative (2^-70 needs far less).
void set_approx(const Enclosure& e, Rounded& r) {
  MpfrRange guard;
  mpfr_srcptr lo = e.lo(), hi = e.hi();
  if (mpfr_nan_p(lo) || mpfr_nan_p(hi) || mpfr_inf_p(lo) || mpfr_inf_p(hi) ||
      mpfr_equal_p(lo, hi)) {  // NaN, ±inf or an exact result (lo == hi)
    r.hi = e.approx();
    r.lo = 0;
    r.scale = 0;
    return;
  }
  const mpfr_prec_t p = std::max(mpfr_get_prec(lo), mpfr_get_prec(hi)) + 1;
  Mpfr m(p), t(p);
  if (mpfr_zero_p(lo) || mpfr_zero_p(hi)) {  // below MPFR's range: the nonzero bound
    mpfr_set(m, mpfr_zero_p(lo) ? hi : lo, MPFR_RNDN);
  } else {
    mpfr_add(m, lo, hi, MPFR_RNDN);  // exact at p
    mpfr_div_2ui(m, m, 1, MPFR_RNDN);
  }
  r.scale = 0;
  const long ex = mpfr_get_exp(m);  // m = 0.1b… × 2^ex
  if (ex < -960) {
    r.scale = std::max(ex, kBelowScale);
    mpfr_mul_2si(m, m, -r.scale, MPFR_RNDN);
    if (ex < kBelowScale) mpfr_set_si(m, mpfr_signbit(m) ? -1 : 1, MPFR_RNDN);
  }
  r.hi = mpfr_get_d(m, MPFR_RNDN);
  mpfr_sub_d(t, m, r.hi, MPFR_RNDN);
  r.lo = mpfr_get_d(t, MPFR_RNDN);
}

bool is_value_of(double x, Format fmt) {
  if (fmt == Format::binary32) return std::isnan(x) || static_cast<double>(static_cast<float>(x)) == x;
  return same_bits(round_to_format(x, fmt), x);
}

}  // namespace

Rounded round_mpfr(Form form, Quantity q, Format fmt, double x) {
  const Enclosure e = enclose(form, q, x, 128);
  Rounded r;
  r.rn = e.rounded(fmt);
  r.rd = e.rounded_down(fmt);
  r.ru = e.rounded_up(fmt);
  r.floor_log2 = e.floor_log2();
  set_approx(e, r);
  return r;
}

namespace {

// The MPFR path's result into entry i of the columns.
void put(const RoundedColumns& out, std::size_t i, const Rounded& r) {
  out.rn[i] = r.rn;
  out.rd[i] = r.rd;
  out.ru[i] = r.ru;
  out.hi[i] = r.hi;
  out.lo[i] = r.lo;
  out.scale[i] = r.scale;
  out.floor_log2[i] = r.floor_log2;
}

void check_inputs(std::span<const double> x, Format fmt) {
  for (double v : x)
    if (!is_value_of(v, fmt))
      throw std::invalid_argument("round_batch: x = " + hexfloat(v) + " is not a value of " +
                                  std::string(name(fmt)));
}

}  // namespace

void round_columns(Form form, Quantity q, Format fmt, std::span<const double> x,
                   const RoundedColumns& out, FastStats* stats) {
  // binary32 is checked by the fast path itself, as it loads each input (then here, to say which).
  if (fmt != Format::binary32) check_inputs(x, fmt);
  std::uint64_t fast = 0, fallback = 0;
  constexpr std::size_t kChunk = 1024;
  unsigned char ok[kChunk];
  for (std::size_t b = 0; b < x.size(); b += kChunk) {
    const std::size_t n = std::min(kChunk, x.size() - b);
    const RoundedColumns at{out.rn + b, out.rd + b, out.ru + b, out.hi + b,
                            out.lo + b, out.scale + b, out.floor_log2 + b};
    std::size_t undecided = n;
    if (fmt != Format::binary64) {
      bool outside = false;
      undecided = fast::evaluate_batch(form, q, fmt, x.data() + b, n, at, ok, &outside);
      if (outside) check_inputs(x.subspan(b, n), fmt);  // throws, naming the input
    } else {
      std::fill(ok, ok + n, 0);
    }
    fast += n - undecided;
    if (undecided == 0) continue;
    for (std::size_t i = 0; i < n; ++i)
      if (!ok[i]) {
        put(at, i, round_mpfr(form, q, fmt, x[b + i]));
        ++fallback;
      }
  }
  if (stats != nullptr) {
    stats->fast += fast;
    stats->fallback += fallback;
  }
}

void round_batch(Form form, Quantity q, Format fmt, std::span<const double> x,
                 std::span<Rounded> out, FastStats* stats) {
  if (out.size() != x.size())
    throw std::invalid_argument("round_batch: out.size() != x.size()");
  // Through columns, a chunk at a time.
  constexpr std::size_t kChunk = 1024;
  double rn[kChunk], rd[kChunk], ru[kChunk], hi[kChunk], lo[kChunk];
  std::int64_t scale[kChunk], floor_log2[kChunk];
  const RoundedColumns cols{rn, rd, ru, hi, lo, scale, floor_log2};
  for (std::size_t b = 0; b < x.size(); b += kChunk) {
    const std::size_t n = std::min(kChunk, x.size() - b);
    round_columns(form, q, fmt, x.subspan(b, n), cols, stats);
    for (std::size_t i = 0; i < n; ++i)
      out[b + i] = {rn[i], rd[i], ru[i], hi[i], lo[i], scale[i], floor_log2[i]};
  }
}

namespace testing {
std::vector<std::int64_t> fast_path_targets() { return fast::targets(); }

bool fast_path_on(std::int64_t target, Form form, Quantity q, Format fmt, std::span<const double> x,
                  const RoundedColumns& out, unsigned char* ok) {
  return fast::evaluate_batch_on(target, form, q, fmt, x.data(), x.size(), out, ok).has_value();
}

namespace {
// The best compiled target without a fused multiply-add: on x86-64 SSE4, elsewhere whichever
// of the portable ones Highway built (0: none).
std::int64_t portable_target() {
#if HWY_ARCH_X86
  if (HWY_TARGETS & HWY_SSE4) return HWY_SSE4;
#endif
  if (HWY_TARGETS & HWY_EMU128) return HWY_EMU128;
  if (HWY_TARGETS & HWY_SCALAR) return HWY_SCALAR;
  return 0;
}
}  // namespace
// Highway's own test mock: every HWY_DYNAMIC_DISPATCH of the process picks among these targets
// until it is reset (0).
ScopedPortableFastPath::ScopedPortableFastPath() : saved_(portable_target() != 0) {
  if (saved_) hwy::SetSupportedTargetsForTest(portable_target());
}
ScopedPortableFastPath::~ScopedPortableFastPath() {
  if (saved_) hwy::SetSupportedTargetsForTest(0);
}
}  // namespace testing

}  // namespace gelucheck::ref
