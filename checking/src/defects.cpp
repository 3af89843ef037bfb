// The defect model of gelucheck/defects.hpp: kinds, observations, and the fold of a subject's
// observations, findings and failed properties into its distinct defects.
#include "gelucheck/defects.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <regex>
#include <sstream>

#include "gelucheck/measure.hpp"
#include "gelucheck/mpfr.hpp"
#include "gelucheck/reference.hpp"
#include "gelucheck/report.hpp"

namespace gelucheck::report {

std::string_view defect_kind_name(DefectKind k) {
  switch (k) {
    case DefectKind::crash: return "crash";
    case DefectKind::hang: return "hang";
    case DefectKind::wrote_input: return "wrote_input";
    case DefectKind::wrote_past_end: return "wrote_past_end";
    case DefectKind::protocol: return "protocol";
    case DefectKind::repeat: return "repeat";
    case DefectKind::position: return "position";
    case DefectKind::stride: return "stride";
    case DefectKind::nan: return "nan";
    case DefectKind::limit: return "limit";
    case DefectKind::overflow: return "overflow";
    case DefectKind::zero_sign: return "zero_sign";
    case DefectKind::flush: return "flush";
    case DefectKind::accuracy: return "accuracy";
    case DefectKind::identity: return "identity";
    case DefectKind::monotone: return "monotone";
    case DefectKind::bound: return "bound";
    case DefectKind::gap: return "gap";
    case DefectKind::vjp: return "vjp";
  }
  return "?";
}

std::optional<DefectKind> parse_defect_kind(std::string_view s) {
  for (DefectKind k : kDefectKinds)
    if (defect_kind_name(k) == s) return k;
  return std::nullopt;
}

void Observation::merge(const Observation& b,
                        const std::function<bool(double, double)>& before) {
  if (b.count == 0) return;
  if (count == 0) {
    *this = b;
    return;
  }
  if (before(b.first_x, first_x)) {
    first_x = b.first_x;
    first_expected = b.first_expected;
    first_got = b.first_got;
  }
  if (b.worst_size > worst_size || (b.worst_size == worst_size && before(b.worst_x, worst_x))) {
    worst_size = b.worst_size;
    worst_x = b.worst_x;
    worst_expected = b.worst_expected;
    worst_got = b.worst_got;
  }
  lo = std::min(lo, b.lo);
  hi = std::max(hi, b.hi);
  count += b.count;
  breaks_claim |= b.breaks_claim;
  sample.insert(sample.end(), b.sample.begin(), b.sample.end());
  std::stable_sort(sample.begin(), sample.end(),
                   [&](const Point& u, const Point& v) { return before(u.x, v.x); });
  if (sample.size() > kSampleSize) sample.resize(kSampleSize);
}

Observation& Row::observation(DefectKind k, std::string_view fact) {
  for (Observation& o : observations)
    if (o.kind == k && o.fact == fact) return o;
  Observation o;
  o.kind = k;
  o.fact = std::string(fact);
  observations.push_back(std::move(o));
  return observations.back();
}

const Observation* Row::find_observation(DefectKind k, std::string_view fact) const {
  for (const Observation& o : observations)
    if (o.kind == k && o.fact == fact) return &o;
  return nullptr;
}

}  // namespace gelucheck::report

// ---------------------------------------------------------------------------------------------
// Folding a subject's observations, findings and failed properties into its defects.

namespace gelucheck::report {
namespace {

using subject::Direction;
using subject::Op;

Op op_of(const Row& row) { return subject::op_of({row.form, row.quantity}, row.format); }
std::size_t op_index(const std::string& name) {
  const auto& ops = subject::all_ops();
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (subject::op_name(ops[i]) == name) return i;
  return ops.size();
}

// A number for a sentence: 4 significant digits ("-8.371", "1.2e+04", "-inf", "nan").
std::string short_num(double v) {
  char buf[40];
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "+inf" : "-inf";
  if (v == 0) return std::signbit(v) ? "-0" : "+0";
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}
std::string count_text(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_-+=:,./@%") == std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// `gelucheck eval` on that one input (docs/cli.md): the command that shows what the subject
// returns there, in a fresh process.
std::string eval_command(const std::string& spec, const Op& op, double x, std::optional<double> dy) {
  const bool backward = op.direction == Direction::backward;
  const char* q = !backward ? "value" : dy ? "backward" : "derivative";
  std::string input = hexfloat(x);
  if (backward && dy) input += " " + hexfloat(*dy);
  return "echo '" + input + "' | gelucheck eval --subject " + shell_quote(spec) + " --form " +
         std::string(name(op.form)) + " --quantity " + q + " --format " +
         std::string(name(op.format));
}

// The same call in PyTorch's own terms, for the torch peer (adapters/python/torch_subject.py
// calls torch.nn.functional.gelu; the derivative is autograd's backward with dy = 1).
std::string torch_command(const std::string& spec, const Op& op, double x) {
  if (spec != "torch" && spec.rfind("torch:", 0) != 0) return {};
  const char* dtype = op.format == Format::binary64   ? "float64"
                      : op.format == Format::binary32 ? "float32"
                      : op.format == Format::bfloat16 ? "bfloat16"
                                                      : "float16";
  const std::string approx = op.form == Form::tanh ? "'tanh'" : "'none'";
  std::string xs = std::isnan(x) ? "float('nan')" : std::isinf(x) ? (x > 0 ? "float('inf')" : "float('-inf')")
                                                                   : "float.fromhex('" + hexfloat(x) + "')";
  std::string body = "import torch; x = torch.tensor([" + xs + "], dtype=torch." + dtype + ")";
  if (op.direction == Direction::forward)
    body += "; print(float(torch.nn.functional.gelu(x, approximate=" + approx + ")).hex())";
  else
    body += ".requires_grad_(); torch.nn.functional.gelu(x, approximate=" + approx +
            ").backward(torch.ones_like(x)); print(float(x.grad).hex())";
  return "python3 -c \"" + body + "\"";
}

// A GELU value with other constants, at 160 bits, rounded to fmt: the tanh form as
// x / (1 + exp(-2 c1 (x + c2 x^3))) (its value 0.5 x (1 + tanh u) without the cancellation), the
// erf form as 0.5 x erfc(-c x) (x / sqrt 2 for the right c). The candidates' constants are
// decimals typed into code, so their binary64 values are what such code computes with.
double gelu_with(Form form, double c1, double c2, double x, Format fmt) {
  Mpfr t(160), u(160), r(160);
  mpfr_set_d(t, x, MPFR_RNDN);
  if (form == Form::tanh) {
    mpfr_mul(u, t, t, MPFR_RNDN);
    mpfr_mul(u, u, t, MPFR_RNDN);
    mpfr_mul_d(u, u, c2, MPFR_RNDN);
    mpfr_add(u, u, t, MPFR_RNDN);
    mpfr_mul_d(u, u, -2 * c1, MPFR_RNDN);
    mpfr_exp(u, u, MPFR_RNDN);
    mpfr_add_ui(u, u, 1, MPFR_RNDN);
    mpfr_div(r, t, u, MPFR_RNDN);
  } else {
    mpfr_mul_d(u, t, -c1, MPFR_RNDN);
    mpfr_erfc(u, u, MPFR_RNDN);
    mpfr_mul(r, u, t, MPFR_RNDN);
    mpfr_div_ui(r, r, 2, MPFR_RNDN);
  }
  return round_to_format(mpfr_get_d(r, MPFR_RNDN), fmt);
}

// A known mistyping of a constant: most sampled breaks of a value row are within one value of the
// format (either way) of the function with that constant.
std::string mistyped_constant(const Row& row, const Observation& o) {
  if (row.quantity != Quantity::value || o.sample.size() < 8) return {};
  struct Candidate {
    double c1, c2;
    const char* what;
  };
  // √(2/π) = 0.7978845608028654, 0.044715, 1/√2 = 0.7071067811865476, typed short or swapped.
  static const Candidate tanh_candidates[] = {
      {0.7978845608028654, 0.0447, "0.0447 for 0.044715"},
      {0.7978845608028654, 0.04472, "0.04472 for 0.044715"},
      {0.7978845608028654, 0.0044715, "0.0044715 for 0.044715"},
      {0.7978845608028654, 0.44715, "0.44715 for 0.044715"},
      {0.7978845608028654, 0.0, "no cubic term (0.044715 left out)"},
      {0.7978, 0.044715, "0.7978 for sqrt(2/pi)"},
      {0.79788, 0.044715, "0.79788 for sqrt(2/pi)"},
      {0.797885, 0.044715, "0.797885 for sqrt(2/pi)"},
      {0.8, 0.044715, "0.8 for sqrt(2/pi)"},
      {0.6366197723675814, 0.044715, "2/pi for sqrt(2/pi)"},
      {1.2533141373155003, 0.044715, "sqrt(pi/2) for sqrt(2/pi)"},
      {2.5066282746310002, 0.044715, "sqrt(2 pi) for sqrt(2/pi)"},
  };
  static const Candidate erf_candidates[] = {
      {0.7071, 0, "0.7071 for 1/sqrt(2)"},
      {0.70711, 0, "0.70711 for 1/sqrt(2)"},
      {0.707107, 0, "0.707107 for 1/sqrt(2)"},
      {1.4142135623730951, 0, "sqrt(2) for 1/sqrt(2) (x * sqrt 2 in place of x / sqrt 2)"},
      {0.5, 0, "1/2 for 1/sqrt(2)"},
      {1.0, 0, "no scaling of x (erf(x) for erf(x / sqrt 2))"},
  };
  const auto check = [&](const Candidate& c) {
    std::size_t near = 0, tried = 0;
    const auto within_one = [&](double a, double b) {
      return a == b || a == next_in(row.format, b, INFINITY) || a == next_in(row.format, b, -INFINITY);
    };
    // Only results more than one value of the format from the correctly rounded value count: a
    // constant a few digits short moves the value by about an ulp, so a result merely off by one
    // would "match" it without being evidence of it.
    for (const Observation::Point& p : o.sample) {
      if (!std::isfinite(p.x) || !std::isfinite(p.got) || within_one(p.got, p.expected)) continue;
      ++tried;
      if (within_one(p.got, gelu_with(row.form, c.c1, c.c2, p.x, row.format))) ++near;
    }
    return tried >= 8 && near * 10 >= tried * 9 ? std::to_string(near) + " of " + std::to_string(tried) : std::string();
  };
  const auto run = [&](const auto& list) -> std::string {
    for (const Candidate& c : list)
      if (auto n = check(c); !n.empty())
        return n + " sampled breaks are within one value of the format of the " + std::string(name(row.form)) +
               " form computed with " + c.what + ": a mistyped constant";
    return {};
  };
  return row.form == Form::tanh ? run(tanh_candidates) : run(erf_candidates);
}

// What the subject really computes, where a row's evidence shows it.
std::string diagnose_accuracy(const Row& row, const Observation& o) {
  // Every result in the narrow formats' common normal range is a value of a narrower format.
  const auto narrow = [&](std::size_t in, Format f) -> std::string {
    if (row.narrow_checked < 100 || in != row.narrow_checked) return {};
    return "every " + std::string(name(row.format)) + " result in [2^-14, 65504] (" +
           std::to_string(row.narrow_checked) + " of them) is a " + std::string(name(f)) +
           " value: it computes in " + std::string(name(f)) + " (or rounds its results to it)";
  };
  if (row.format == Format::binary64 || row.format == Format::binary32) {
    if (auto d = narrow(row.narrow_in_binary16, Format::binary16); !d.empty()) return d;
    if (auto d = narrow(row.narrow_in_bfloat16, Format::bfloat16); !d.empty()) return d;
    if (row.format == Format::binary64)
      if (auto d = narrow(row.narrow_in_binary32, Format::binary32); !d.empty()) return d;
  }
  // Inputs quantized first: neighbours that round to one narrower value get one result, though
  // their correctly rounded results differ (at least 50 such pairs, at least 90 % of them equal:
  // a kernel may quantize only in part of the line, as a table over [-10, 10] that returns x
  // beyond it does). A faithful implementation gets few such pairs equal: two results one ulp
  // apart or less can coincide only where it rounds one of them the other way.
  const auto quantized = [&](std::size_t pairs, std::size_t equal, Format f) -> std::string {
    if (pairs < 50 || equal * 10 < pairs * 9) return {};
    return "its inputs are rounded to " + std::string(name(f)) + " first: " +
           (equal == pairs ? "all " + std::to_string(pairs)
                           : std::to_string(equal) + " of " + std::to_string(pairs)) +
           " pairs of neighbouring inputs that round to one " + std::string(name(f)) +
           " value got equal results, though their correctly rounded results differ";
  };
  if (auto d = quantized(row.quant_pairs_binary16, row.quant_equal_binary16, Format::binary16); !d.empty()) return d;
  if (auto d = quantized(row.quant_pairs_bfloat16, row.quant_equal_bfloat16, Format::bfloat16); !d.empty()) return d;
  if (auto d = mistyped_constant(row, o); !d.empty()) return d;
  // The other form: most sampled breaks are faithful results of the other form.
  if (o.sample.size() >= 8) {
    const Form other = row.form == Form::tanh ? Form::erf : Form::tanh;
    std::size_t near = 0;
    for (const Observation::Point& p : o.sample) {
      if (!std::isfinite(p.x)) continue;
      const Error e = measure(p.got, ref::enclose(other, row.quantity, p.x, 128), row.format);
      if (e.faithful()) ++near;
    }
    if (near * 10 >= o.sample.size() * 9)
      return std::to_string(near) + " of " + std::to_string(o.sample.size()) +
             " sampled breaks are faithful results of the " + std::string(name(other)) +
             " form: it computes the " + (other == Form::tanh ? "tanh form (gelu_new)" : "erf form (x·Φ(x))") +
             " for the " + std::string(name(row.form)) + " form";
  }
  return {};
}

// A flush of the negative tail that is a clean cut (every input up to its greatest x gives zero,
// every tail input past it a nonzero result), and the roundest number between the two, when it
// has at most two significant digits and the two are within 2^-16 of it (the threshold of an
// `if (x < C) return 0`, seen by an exhaustive sweep; a sampled grid's gaps often hold a round
// number by chance, as the textbook formula's natural collapse at x ~ -7.2 in binary64 shows).
std::string diagnose_cutoff(const Row& row, const Observation& o) {
  if (o.fact != "tail" || !row.tail_min_nonzero_x || !(*row.tail_min_nonzero_x > o.hi)) return {};
  const double a = o.hi, b = *row.tail_min_nonzero_x;  // a < b <= -1
  std::string round;
  for (int digits = 1; digits <= 2 && round.empty(); ++digits) {
    const double step = std::pow(10.0, std::floor(std::log10(std::fabs(a))) - digits + 1);
    const double c = std::ceil(a / step) * step;
    // Only where the last zero and the first nonzero result are so close that a round number
    // between them is no coincidence (a sampled grid leaves gaps that often hold one).
    if (c > a && c <= b && b - a <= std::ldexp(std::fabs(c), -16)) round = short_num(c);
  }
  std::string out = "a clean cut: every input up to x = " + short_num(a) + " gives zero, every tail input from x = " +
                    short_num(b) + " on a nonzero result";
  if (!round.empty()) out += "; " + round + " lies between (a threshold such as `if (x < " + round + ") return 0`)";
  return out;
}

// Which input a kind's defect is shown by: the worst for a size that means something, else the first.
bool shows_worst(DefectKind k) {
  return k == DefectKind::accuracy || k == DefectKind::nan || k == DefectKind::overflow ||
         k == DefectKind::flush || k == DefectKind::zero_sign || k == DefectKind::monotone ||
         k == DefectKind::bound;
}

// The grouping of observations across ops: one cause, seen in several ops, is one defect.
std::string group_key(const Observation& o, const Op& op) {
  const std::string kind(defect_kind_name(o.kind));
  const std::string fn = subject::function_name(subject::function_of(op));
  switch (o.kind) {
    case DefectKind::limit: {
      const double g = o.first_got;
      const std::string got = std::isnan(g) ? "nan" : std::isinf(g) ? "inf" : "finite";
      return kind + "|" + o.fact + "|" + got;
    }
    // The bounds of one function: one result can break several (f(x) >= 0 and f(x) >= x/2 for
    // a negative result at x >= 0), so they are one defect that names each fact broken.
    case DefectKind::bound: return kind + "|" + fn;
    default: return kind + "|" + o.fact + "|" + fn;
  }
}

DefectKind finding_kind(const subject::Finding& f) {
  using K = subject::Status::Kind;
  switch (f.status.kind) {
    case K::crashed:
      return f.status.message.find("beyond the last element") != std::string::npos
                 ? DefectKind::wrote_past_end
                 : DefectKind::crash;
    case K::timed_out: return DefectKind::hang;
    case K::wrote_input: return DefectKind::wrote_input;
    default: return DefectKind::protocol;
  }
}

// The kind a failed property shows, from its suite and name (proptests/, docs/properties.md).
DefectKind property_kind(const std::string& suite, const std::string& name) {
  const auto has = [&](const char* s) { return name.find(s) != std::string::npos; };
  if (suite == "identity_inputs_untouched") return DefectKind::wrote_input;
  if (has("strided")) return DefectKind::stride;
  if (has("repeated")) return DefectKind::repeat;
  if (has("position") || has("depend_on_own_input")) return DefectKind::position;
  if (suite == "pdiv_map" || suite == "hasVJP_correct") return DefectKind::vjp;
  if (suite.rfind("identity_", 0) == 0) return DefectKind::identity;
  if (suite == "bound_monotone") return DefectKind::monotone;
  if (suite.rfind("bound_", 0) == 0) return DefectKind::bound;
  if (suite == "tanh_erf_gap") return DefectKind::gap;
  if (suite == "special_nan_inf") return DefectKind::limit;
  if (suite == "special_finite_in_finite_out") return DefectKind::overflow;
  return DefectKind::accuracy;
}

// The format a property's name ends with (_f64, _f32, _f16, _bf16), if any.
std::optional<Format> property_format(const std::string& name) {
  for (Format f : all_formats) {
    const std::string suffix = "_" + std::string(subject::dtype_name(f));
    if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      return f;
  }
  return std::nullopt;
}
std::string strip_format(const std::string& name) {
  const auto f = property_format(name);
  return f ? name.substr(0, name.size() - subject::dtype_name(*f).size() - 1) : name;
}

// A property failure's counterexample: the line "gelucheck-counterexample: OP x=HEX" the suite
// prints (proptests/suite.cpp), else the first value of RapidCheck's "gelucheck::prop::Input:"
// block, "VALUE (DECIMAL, DT) ...".
struct Counterexample {
  std::optional<Op> op;
  std::optional<Format> format;
  double x = 0;
};
std::optional<Counterexample> counterexample(const std::string& msg) {
  const std::string tag = "gelucheck-counterexample: ";
  if (const auto at = msg.find(tag); at != std::string::npos) {
    const auto end = msg.find('\n', at);
    const std::string line = msg.substr(at + tag.size(), end == std::string::npos ? end : end - at - tag.size());
    const auto sp = line.find(" x=");
    if (sp != std::string::npos) {
      const auto op = subject::parse_op(line.substr(0, sp));
      std::string xs = line.substr(sp + 3);
      xs = xs.substr(0, xs.find_first_of(" \t\r"));
      if (op)
        if (const auto x = parse_real(xs)) return Counterexample{op, op->format, *x};
    }
  }
  // The suite's own failure text: "... tanh.value@f64: input -inf, expected ..." (suite.cpp).
  static const std::regex said(R"(\b(tanh|erf)\.(value|derivative)@(f64|f32|f16|bf16): (?:finite )?input ([^ ,]+))");
  if (std::smatch m; std::regex_search(msg, m, said)) {
    const auto fn = subject::parse_function(m[1].str() + "." + m[2].str());
    const auto fmt = subject::parse_dtype(m[3].str());
    const auto x = parse_real(m[4].str());
    if (fn && fmt && x)
      return Counterexample{subject::op_of(*fn, *fmt),
                            fmt, *x};
  }
  const std::string block = "gelucheck::prop::Input:\n";
  if (const auto at = msg.find(block); at != std::string::npos) {
    const std::string rest = msg.substr(at + block.size());
    const std::string first = rest.substr(0, rest.find_first_of(" \n"));
    const auto open = rest.find('('), close = rest.find(')');
    if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
    const std::string inside = rest.substr(open + 1, close - open - 1);
    const auto comma = inside.rfind(", ");
    if (comma == std::string::npos) return std::nullopt;
    const auto fmt = subject::parse_dtype(inside.substr(comma + 2));
    const auto x = parse_real(first);
    if (fmt && x) return Counterexample{std::nullopt, fmt, *x};
  }
  return std::nullopt;
}

// Whether defect d accounts for input x in op (or, op unknown, some op of format fmt).
bool explains(const Defect& d, const Counterexample& c) {
  for (const DefectOp& o : d.ops) {
    const auto op = subject::parse_op(o.op);
    if (!op || op->format != c.format) continue;
    if (c.op && !(*op == *c.op)) continue;
    if (same_bits(o.x, c.x)) return true;
    const bool ranged = d.kind == DefectKind::nan || d.kind == DefectKind::overflow ||
                        d.kind == DefectKind::flush || d.kind == DefectKind::zero_sign ||
                        d.kind == DefectKind::limit;
    if (ranged && c.x >= o.lo && c.x <= o.hi) return true;
    // NaN from a threshold on: every larger |x| of that sign side counts.
    if (d.kind == DefectKind::nan && std::fabs(c.x) >= std::fabs(o.x) && std::isfinite(c.x)) return true;
  }
  return false;
}

std::string ops_text(const Defect& d) {
  if (d.ops.size() == subject::all_ops().size()) return "all 16 ops";
  if (d.ops.size() <= 3) {
    std::string s;
    for (const DefectOp& o : d.ops) s += (s.empty() ? "" : ", ") + o.op;
    return s;
  }
  return std::to_string(d.ops.size()) + " ops";
}

// Per-op thresholds, for kinds whose position differs by format ("binary64 from -8.371, ...").
std::string per_op(const Defect& d, const char* what, bool magnitude = false) {
  std::string s;
  for (const DefectOp& o : d.ops)
    s += (s.empty() ? "" : "; ") + std::string(what) + (*what ? " " : "") +
         short_num(magnitude ? std::fabs(o.x) : o.x) + " (" + o.op + ")";
  return s;
}

std::string summarize(const Defect& d) {
  const DefectOp& w = d.shown;
  const std::string at = "x = " + hexfloat(w.x);
  const std::string eg = "expected " + hexfloat(w.expected) + ", got " + hexfloat(w.got);
  switch (d.kind) {
    case DefectKind::limit:
      return (std::isnan(w.got) ? std::string("NaN") : "got " + hexfloat(w.got)) + " at x = " +
             short_num(w.x) + " (expected " + hexfloat(w.expected) + ") in " + ops_text(d);
    case DefectKind::nan:
      return "NaN at finite x where the value is a number, " + count_text(d.count, "input", "inputs") +
             ", from |x| = " + per_op(d, "", true);
    case DefectKind::overflow:
      return "+-inf at finite x where the value is finite, " + count_text(d.count, "input", "inputs") +
             ", from |x| = " + short_num(std::fabs(w.x)) + " (" + at + ", " + ops_text(d) + ")";
    case DefectKind::flush:
      if (d.fact == "tail")
        return "the negative tail collapses to " + short_num(w.got) + " from x = " + short_num(w.x) +
               " (expected " + hexfloat(w.expected) + " there), " + count_text(d.count, "input", "inputs") +
               (d.ops.size() > 1 ? ": " + per_op(d, "from") : " (" + ops_text(d) + ")");
      return "flushes results at or below the least normal to zero: " + count_text(d.count, "input", "inputs") + " up to |x| = " +
             short_num(std::fabs(w.x)) + " (" + at + ", " + eg + "; " + ops_text(d) + ")";
    case DefectKind::zero_sign:
      return "returns " + d.fact + " where the value rounds to " + (d.fact == "+0" ? "-0" : "+0") + ", " +
             count_text(d.count, "input", "inputs") + " in [" + short_num(w.lo) + ", " + short_num(w.hi) +
             "] (" + ops_text(d) + ")";
    case DefectKind::accuracy: {
      std::string s = short_num(w.size) + " ulp at " + at + " (" + eg + "; " + w.op + "), " +
                      count_text(d.count, "result", "results") + " beyond " + d.claim;
      if (d.ops.size() == 1) return s + " in [" + short_num(w.lo) + ", " + short_num(w.hi) + "]";
      s += "; max";
      for (const DefectOp& o : d.ops) s += " " + short_num(o.size) + " ulp (" + o.op + ")" + (&o == &d.ops.back() ? "" : ",");
      return s;
    }
    case DefectKind::monotone:
      return "steps the wrong way: " + count_text(d.count, "step", "steps") + ", the largest " +
             short_num(w.size) + " of the value at " + at + " (" + ops_text(d) + ")";
    case DefectKind::bound:
      return "breaks " + d.fact + ": " + count_text(d.count, "input", "inputs") + " in [" + short_num(w.lo) +
             ", " + short_num(w.hi) + "], the worst at " + at + " (bound " + hexfloat(w.expected) +
             ", got " + hexfloat(w.got) + "; " + ops_text(d) + ")";
    default: break;
  }
  return {};
}

void rank(std::vector<Defect>& ds) {
  std::stable_sort(ds.begin(), ds.end(), [](const Defect& a, const Defect& b) {
    if (defect_rank(a.kind) != defect_rank(b.kind)) return defect_rank(a.kind) < defect_rank(b.kind);
    if (a.breaks_claim != b.breaks_claim) return a.breaks_claim;
    return a.shown.size > b.shown.size;
  });
}

}  // namespace

std::string batch_dir(std::size_t s, const subject::Finding& f) {
  return "batches/" + std::to_string(s) + "-" + subject::op_name(f.op) + "-" + std::to_string(f.index);
}

int defect_rank(DefectKind k) {
  switch (k) {
    case DefectKind::crash: return 0;
    case DefectKind::hang: return 1;
    case DefectKind::wrote_input: return 2;
    case DefectKind::wrote_past_end: return 3;
    case DefectKind::protocol: return 4;
    case DefectKind::nan: return 5;
    case DefectKind::limit: return 6;
    case DefectKind::overflow: return 7;
    case DefectKind::zero_sign: return 8;
    case DefectKind::flush: return 9;
    case DefectKind::accuracy: return 10;
    case DefectKind::bound: return 11;
    case DefectKind::monotone: return 12;
    case DefectKind::repeat: return 13;
    case DefectKind::position: return 14;
    case DefectKind::stride: return 15;
    case DefectKind::identity: return 16;
    case DefectKind::vjp: return 17;
    case DefectKind::gap: return 18;
  }
  return 99;
}

std::vector<Defect> find_defects(const Report& r, std::size_t s) {
  const SubjectResult& sr = r.subjects[s];
  std::vector<Defect> out;
  std::vector<std::string> keys;
  const auto group = [&](const std::string& key) -> Defect& {
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == key) return out[i];
    keys.push_back(key);
    out.emplace_back();
    return out.back();
  };

  // 1. The rows' observations. claims[i]: the claims defect i breaks, each with its formats.
  std::vector<std::vector<std::pair<std::string, std::string>>> claims;
  for (const Row& row : r.rows) {
    if (row.subject != s || row.against != row.form) continue;
    const Op op = op_of(row);
    const bool claimed = row.claim && row.claim->claims_anything();
    const std::string claim = claimed ? row.claim->text
                                      : "the framework default " +
                                            subject::claim_item(Claim::framework_default(row.format));
    for (const Observation& o : row.observations) {
      if (o.count == 0) continue;
      Defect& d = group(group_key(o, op));
      const bool worst = shows_worst(o.kind);
      DefectOp e;
      e.op = subject::op_name(op);
      e.count = o.count;
      e.x = worst ? o.worst_x : o.first_x;
      e.expected = worst ? o.worst_expected : o.first_expected;
      e.got = worst ? o.worst_got : o.first_got;
      e.lo = o.lo;
      e.hi = o.hi;
      e.size = o.worst_size;
      const bool first_op = d.ops.empty();
      d.kind = o.kind;
      if (d.fact.find(o.fact) == std::string::npos) d.fact += (d.fact.empty() ? "" : "; ") + o.fact;
      // Another fact of an op already listed (bound): its points overlap the first's, so the
      // op counts the larger set, not the sum.
      auto same = std::find_if(d.ops.begin(), d.ops.end(), [&](const DefectOp& x) { return x.op == e.op; });
      if (same == d.ops.end()) {
        d.ops.push_back(e);
        d.count += o.count;
      } else {
        if (e.count > same->count) {
          d.count += e.count - same->count;
          same->count = e.count;
        }
        same->lo = std::min(same->lo, e.lo);
        same->hi = std::max(same->hi, e.hi);
        if (e.size > same->size) {
          same->x = e.x;
          same->expected = e.expected;
          same->got = e.got;
          same->size = e.size;
        }
      }
      if (o.breaks_claim) {
        const auto i = static_cast<std::size_t>(&d - out.data());
        if (claims.size() <= i) claims.resize(i + 1);
        auto& cs = claims[i];
        auto it = std::find_if(cs.begin(), cs.end(), [&](const auto& c) { return c.first == claim; });
        if (it == cs.end()) cs.push_back({claim, std::string(name(row.format))});
        else if (it->second.find(name(row.format)) == std::string::npos) it->second += ", " + std::string(name(row.format));
      }
      d.breaks_claim |= o.breaks_claim;
      d.gated |= sr.gated && claimed && o.breaks_claim;
      // Shown by the worst op's input (largest size; ties: the first op).
      if (first_op || e.size > d.shown.size) {
        d.shown = e;
        d.reproduce = eval_command(sr.spec, op, e.x, std::nullopt);
        d.reproduce_native = torch_command(sr.spec, op, e.x);
      }
      if (o.kind == DefectKind::accuracy && d.diagnosis.empty()) d.diagnosis = diagnose_accuracy(row, o);
      if (o.kind == DefectKind::flush && first_op) d.diagnosis = diagnose_cutoff(row, o);
    }
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    Defect& d = out[i];
    d.is_range = true;
    // "faithful (< 1 ulp)", or where the ops' claims differ "faithful (< 1 ulp) (binary64);
    // correctly rounded (<= 0.5 ulp) (binary32)".
    if (i < claims.size())
      for (const auto& [c, fmts] : claims[i])
        d.claim += (d.claim.empty() ? "" : "; ") + c + (claims[i].size() > 1 ? " (" + fmts + ")" : "");
    if (d.claim.empty()) d.claim = "no claim";
  }

  // 2. The harness's findings: one defect per kind of misbehaviour, listing its ops.
  for (const subject::Finding& f : sr.findings) {
    const DefectKind k = finding_kind(f);
    using Alone = subject::Finding::Alone;
    const bool batch = f.alone == Alone::needs_batch && !f.batch_x.empty();
    Defect& d = group("finding|" + std::string(defect_kind_name(k)) + (batch ? "|batch" : ""));
    DefectOp e;
    e.op = subject::op_name(f.op);
    e.count = std::max<std::size_t>(f.inputs, 1);
    // A batch-dependent finding names no input as its cause: its x is where the batch starts.
    e.x = e.lo = e.hi = f.x;
    e.has_expected = false;
    e.expected = e.got = NAN;
    const bool first = d.ops.empty();
    d.kind = k;
    d.fact = std::string(subject::kind_name(f.status.kind)) + (batch ? " (needs the batch)" : "");
    bool seen = false;
    for (DefectOp& o : d.ops)
      if (o.op == e.op) {
        o.count += e.count;
        seen = true;
      }
    if (!seen) d.ops.push_back(e);
    d.count += e.count;
    d.breaks_claim = true;
    d.claim = "a subject must not " + std::string(k == DefectKind::crash ? "crash"
                                                  : k == DefectKind::hang ? "hang"
                                                  : k == DefectKind::wrote_input ? "write its inputs"
                                                  : k == DefectKind::wrote_past_end ? "write past its arrays"
                                                  : "break the protocol");
    d.gated = sr.gated;
    if (!first) continue;
    d.shown = e;
    d.dy = f.dy && *f.dy != 1 ? f.dy : std::nullopt;
    d.detail = f.status.message;
    if (!f.stderr_tail.empty() && d.detail.find(f.stderr_tail) == std::string::npos &&
        d.detail.find("stderr") == std::string::npos)
      d.detail += "; its stderr: " + f.stderr_tail;
    switch (f.alone) {
      case Alone::reproduces: d.confirmation = "reproduces alone, in a fresh process"; break;
      case Alone::needs_batch:
        d.confirmation = "no input misbehaves alone, only a call of " + std::to_string(f.batch_x.size()) +
                         " elements; " + (f.batch_reproduces
                                              ? "that call alone, in a fresh process, does again (length-dependent)"
                                              : "that call alone in a fresh process does not: it needs the calls before it (state)");
        break;
      case Alone::not_tried:
        d.confirmation = k == DefectKind::wrote_input ? "shown by the call itself (the inputs' bits compared)"
                                                      : "not replayed alone";
        break;
    }
    if (batch) {
      d.reproduce = "(in the report's directory) " + subject::replay_command(f, sr.spec, batch_dir(s, f));
    } else {
      d.reproduce = eval_command(sr.spec, f.op, f.x, d.dy);
      d.reproduce_native = torch_command(sr.spec, f.op, f.x);
    }
  }
  for (Defect& d : out)
    if (d.summary.empty() && defect_rank(d.kind) <= defect_rank(DefectKind::protocol) && !d.ops.empty() &&
        !d.ops.front().has_expected)
      d.summary = d.fact + (d.fact.find("needs the batch") != std::string::npos
                                ? " in a call starting at x = " + hexfloat(d.shown.x)
                                : " at x = " + hexfloat(d.shown.x)) +
                  " in " + d.shown.op +
                  (d.ops.size() > 1 || d.count > 1 ? " (" + count_text(d.count, "input", "inputs") + " in " + ops_text(d) + ")" : "") +
                  (d.detail.empty() ? "" : ": " + d.detail.substr(0, 300));

  // 3. Failed properties: with the defect whose input is their counterexample, else their own.
  for (const PropertyTest& t : sr.properties.tests) {
    if (t.outcome != "fail") continue;
    const std::string full = t.suite + "." + t.name;
    const auto c = counterexample(t.message);
    bool placed = false;
    // A property that failed on a harness finding (the suite's "harness finding: OP KIND ...")
    // is that finding's consequence: it joins the defect of that misbehaviour.
    if (const auto at = t.message.find("harness finding: "); at != std::string::npos) {
      std::istringstream words(t.message.substr(at + 17));
      std::string op, kind;
      words >> op >> kind;
      for (Defect& d : out)
        if (!d.ops.empty() && !d.ops.front().has_expected && defect_rank(d.kind) <= defect_rank(DefectKind::protocol) &&
            d.fact.rfind(kind, 0) == 0) {
          d.properties.push_back(full);
          placed = true;
          break;
        }
    }
    if (placed) continue;
    if (c)
      for (Defect& d : out)
        if (!d.ops.empty() && d.ops.front().has_expected && explains(d, *c)) {
          d.properties.push_back(full);
          d.gated |= sr.gated;
          placed = true;
          break;
        }
    if (placed) continue;
    const DefectKind k = property_kind(t.suite, t.name);
    Defect& d = group("property|" + std::string(defect_kind_name(k)) + "|" + t.suite + "." + strip_format(t.name));
    const bool first = d.properties.empty();
    d.kind = k;
    d.fact = t.suite + "." + strip_format(t.name);
    d.properties.push_back(full);
    d.count = d.properties.size();
    d.breaks_claim = true;
    d.claim = "the property " + d.fact;
    d.gated = sr.gated;
    if (first) {
      if (c) {
        d.shown.x = d.shown.lo = d.shown.hi = c->x;
        d.shown.op = c->op ? subject::op_name(*c->op) : "";
      } else {
        d.shown.x = NAN;
      }
      d.shown.has_expected = false;
      d.shown.expected = d.shown.got = NAN;
      // The message's last line says what broke (RapidCheck's RC_FAIL text), but for the
      // counterexample line the suite puts after it.
      std::string m = t.message.substr(0, t.message.find("gelucheck-counterexample:"));
      while (!m.empty() && (m.back() == '\n' || m.back() == ' ')) m.pop_back();
      d.detail = m.substr(m.rfind('\n') == std::string::npos ? 0 : m.rfind('\n') + 1);
      d.reproduce = "gelucheck_proptests --subject " + shell_quote(sr.spec) + " --gtest_filter=" + full +
                    (sr.properties.rc_params.empty() ? "" : " (RC_PARAMS=\"" + sr.properties.rc_params + "\")");
    }
  }
  for (Defect& d : out) {
    if (!d.summary.empty()) continue;
    if (!d.ops.empty() && d.ops.front().has_expected) {
      std::sort(d.ops.begin(), d.ops.end(), [](const DefectOp& a, const DefectOp& b) {
        return op_index(a.op) < op_index(b.op);
      });
      d.summary = summarize(d);
    } else {
      d.summary = "property " + d.fact + " fails" +
                  (d.properties.size() > 1 ? " in " + std::to_string(d.properties.size()) + " formats" : "") +
                  (d.detail.empty() ? "" : ": " + d.detail);
    }
  }
  rank(out);
  return out;
}

}  // namespace gelucheck::report
