// round_batch: the fast path (fast_path.hpp) where its rounding test decides, the MPFR reference
// (enclose()) elsewhere. See docs/reference.md, "The fast reference".
#include "gelucheck/fast_reference.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>

#include "fast_path.hpp"
#include "gelucheck/reference.hpp"
#include "gelucheck/mpfr.hpp"

namespace gelucheck::ref {
namespace {

std::atomic<bool> g_portable{false};  // testing::ScopedPortableFastPath

// The fast path's build for this CPU: the FMA one where there is one and the CPU has FMA (both
// give the same roundings; hi + lo may differ in its last bits, far below 2^-70).
void evaluate_fast(Form form, Quantity q, Format fmt, const double* x, std::size_t n, Rounded* out,
                   unsigned char* ok) {
#ifdef GELUCHECK_FAST_HAVE_FMA
  static const bool fma = __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx");
  if (fma && !g_portable.load(std::memory_order_relaxed))
    return fast_fma::evaluate_batch(form, q, fmt, x, n, out, ok);
#endif
  fast::evaluate_batch(form, q, fmt, x, n, out, ok);
}


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

void round_batch(Form form, Quantity q, Format fmt, std::span<const double> x,
                 std::span<Rounded> out, FastStats* stats) {
  if (out.size() != x.size())
    throw std::invalid_argument("round_batch: out.size() != x.size()");
  for (double v : x)
    if (!is_value_of(v, fmt))
      throw std::invalid_argument("round_batch: x = " + hexfloat(v) + " is not a value of " +
                                  std::string(name(fmt)));
  std::uint64_t fast = 0, fallback = 0;
  constexpr std::size_t kChunk = 256;
  unsigned char ok[kChunk];
  for (std::size_t b = 0; b < x.size(); b += kChunk) {
    const std::size_t n = std::min(kChunk, x.size() - b);
    if (fmt != Format::binary64) evaluate_fast(form, q, fmt, x.data() + b, n, out.data() + b, ok);
    else std::fill(ok, ok + n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      if (ok[i]) {
        ++fast;
      } else {
        out[b + i] = round_mpfr(form, q, fmt, x[b + i]);
        ++fallback;
      }
    }
  }
  if (stats != nullptr) {
    stats->fast += fast;
    stats->fallback += fallback;
  }
}

namespace testing {
ScopedPortableFastPath::ScopedPortableFastPath() : saved_(g_portable.exchange(true)) {}
ScopedPortableFastPath::~ScopedPortableFastPath() { g_portable.store(saved_); }
}  // namespace testing

}  // namespace gelucheck::ref
