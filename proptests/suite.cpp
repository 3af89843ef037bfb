// proptests/suite.cpp — the run's subject and claims, the registry that turns each property into
// GoogleTest tests (one per format), skipping with reasons, and evaluation through the harness.
#include <fmt/format.h>

#include <stdexcept>

#include "support.hpp"

namespace gelucheck::prop {
namespace {

std::unique_ptr<Session>& the_session() {
  static std::unique_ptr<Session> s;
  return s;
}

std::vector<Definition>& definitions() {
  static std::vector<Definition> v;
  return v;
}

// Set while RapidCheck runs a property body: fail() must then raise RapidCheck's failure (which
// shrinks), elsewhere a GoogleTest failure.
thread_local bool t_in_property = false;
// Harness calls of the current test (each is at least one call of the subject, a round trip for
// one out of process): recorded as "harness_calls", the cost of a property on a slow subject.
std::uint64_t t_calls = 0;
struct InProperty {
  InProperty() { t_in_property = true; }
  ~InProperty() { t_in_property = false; }
  InProperty(const InProperty&) = delete;
  InProperty& operator=(const InProperty&) = delete;
};

struct Skipped {
  std::string why;
};
struct Failed {
  std::string what;
};

class PropertyTest : public ::testing::Test {
 public:
  PropertyTest(const Definition& d, Format fmt) : d_(d), fmt_(fmt) {}
  void TestBody() override {
    RecordProperty("lean", d_.lean);
    RecordProperty("subject", session().subject->spec());
    if (d_.per_format) RecordProperty("format", std::string(subject::dtype_name(fmt_)));
    RecordProperty("seed", std::to_string(seed()));
    t_calls = 0;
    try {
      d_.body(fmt_);
      if (t_calls > 0) RecordProperty("harness_calls", std::to_string(t_calls));
    } catch (const Skipped& s) {
      RecordProperty("skip_reason", s.why);
      GTEST_SKIP() << s.why;
    } catch (const Failed& f) {
      if (t_calls > 0) RecordProperty("harness_calls", std::to_string(t_calls));
      ADD_FAILURE() << f.what;
    }
  }

 private:
  Definition d_;
  Format fmt_;
};

// Moves the counterexample line of `description` (the last RC_FAIL's message: the shrunk case)
// to the end of `message`, so that it is the failure's last line.
std::string counterexample_last(std::string message, const std::string& description) {
  const std::size_t at = description.rfind(kCounterexamplePrefix);
  if (at == std::string::npos) return message;
  const std::string line = description.substr(at, description.find('\n', at) - at);
  for (std::size_t p; (p = message.find(line)) != std::string::npos;) {
    const std::size_t from = p > 0 && message[p - 1] == '\n' ? p - 1 : p;
    message.erase(from, p + line.size() - from);
  }
  while (!message.empty() && message.back() == '\n') message.pop_back();
  return message + "\n" + line;
}

std::string row_name(Function fn, Format fmt) {
  return subject::function_name(fn) + "@" + std::string(subject::dtype_name(fmt));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Session.

void open_session(const std::string& spec, const std::vector<std::string>& claim_items) {
  auto s = std::make_unique<Session>();
  s->subject = subject::open(spec);
  s->caps = s->subject->capabilities();
  s->claims = s->subject->claims();
  s->claims_origin = "the subject's own";
  for (const std::string& item : claim_items) {
    s->claims.apply(item);
    s->claims_origin = "the subject's own, overridden by --claim";
  }
  if (claim_items.empty() && !s->claims.any()) {
    // Nobody claimed anything: hold the subject to what every framework's own tests demand.
    for (Format fmt : all_formats)
      s->claims.set(std::nullopt, fmt, Claim::framework_default(fmt));
    s->claims_origin = "the framework default (the subject claims nothing, no --claim given)";
  }
  the_session() = std::move(s);
}

Session& session() {
  if (!the_session()) throw std::logic_error("the property suite's subject is not open");
  return *the_session();
}

Claim claim_of(Function f, Format fmt) { return session().claims.get(f, fmt); }

// ---------------------------------------------------------------------------------------------
// Registry.

bool define(const Definition& d) {
  definitions().push_back(d);
  return true;
}

void register_tests() {
  for (const Definition& d : definitions()) {
    const std::vector<Format> formats =
        d.per_format ? std::vector<Format>(all_formats.begin(), all_formats.end())
                     : std::vector<Format>{Format::binary64};
    for (Format fmt : formats) {
      const std::string name =
          d.per_format ? std::string(d.name) + "_" + std::string(subject::dtype_name(fmt)) : d.name;
      ::testing::RegisterTest(d.suite, name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                              [d, fmt]() -> PropertyTest* { return new PropertyTest(d, fmt); });
    }
  }
}

void skip(const std::string& why) {
  if (t_in_property) throw std::logic_error("skip() inside a RapidCheck property: " + why);
  throw Skipped{why};
}

void fail(const std::string& message) {
  if (t_in_property) RC_FAIL(message);
  throw Failed{message};
}

void fail_at(const subject::Op& op, double x, const std::string& message) {
  fail(message + "\n" + kCounterexamplePrefix + subject::op_name(op) + " x=" + hexfloat(x));
}

void fail_at(Function fn, Format fmt, double x, const std::string& message) {
  fail_at(op_of(fn, fmt), x, message);
}

void record(const std::string& key, const std::string& value) {
  ::testing::Test::RecordProperty(key, value);
}

std::uint64_t seed() { return rc::detail::configuration().testParams.seed; }

void run_checked(const std::function<void()>& property, int divisor) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  if (divisor > 1)
    params.maxSuccess = std::max(std::min(params.maxSuccess, 5), params.maxSuccess / divisor);
  const auto body = [&property] {
    const InProperty in;
    property();
  };
  const auto result = rc::detail::checkTestable(body, metadata, params);
  if (result.template is<rc::detail::SuccessResult>()) {
    const auto& s = result.template get<rc::detail::SuccessResult>();
    record("cases", std::to_string(s.numSuccess));
    if (!s.distribution.empty()) {
      rc::detail::printResultMessage(result, std::cout);
      std::cout << std::endl;
    }
    return;
  }
  std::ostringstream ss;
  rc::detail::printResultMessage(result, ss);
  std::string message = "RC_PARAMS seed=" + std::to_string(seed()) + " (subject " +
                        session().subject->spec() + ")\n" + ss.str();
  if (result.template is<rc::detail::FailureResult>()) {
    const auto& f = result.template get<rc::detail::FailureResult>();
    record("cases", std::to_string(f.numSuccess));
    std::string ce;
    for (const auto& [type, value] : f.counterExample) ce += value + "; ";
    record("counterexample", ce + f.description);
    message = counterexample_last(std::move(message), f.description);
  }
  throw Failed{message};
}

std::vector<Function> targets(Format fmt, std::initializer_list<Function> candidates, Need need) {
  const Session& s = session();
  if (!s.caps.fresh_evaluations)
    skip("the subject answers only the inputs on record (saved arrays); this property needs "
         "fresh evaluations");
  std::vector<Function> out;
  std::string not_run, claims;
  for (const Function fn : candidates) {
    const Claim c = s.claims.get(fn, fmt);
    std::string why;
    if (!s.caps.provides(op_of(fn, fmt)))
      why = "the subject does not provide " + subject::op_name(op_of(fn, fmt));
    else if (need != Need::op && !c.claims_anything())
      why = "no claim for " + row_name(fn, fmt) + " (nothing to hold it to; --claim sets one)";
    else if (need == Need::bound && !bounds_exact_value(c, fmt))
      why = "the claim for " + row_name(fn, fmt) + " (" + c.text +
            ") is too loose to bound the exact value by the result";
    if (why.empty()) {
      out.push_back(fn);
      if (need != Need::op) claims += (claims.empty() ? "" : "; ") + row_name(fn, fmt) + ": " + c.text;
    } else {
      not_run += (not_run.empty() ? "" : "; ") + why;
    }
  }
  if (!not_run.empty()) record("not_run", not_run);
  if (!claims.empty()) record("claim", claims);
  if (out.empty()) skip(not_run);
  return out;
}

std::vector<Form> forms_with(Format fmt, Direction d) {
  std::vector<Form> v;
  for (Form f : {Form::tanh, Form::erf})
    if (session().caps.provides({f, d, fmt})) v.push_back(f);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Evaluation through the harness.

namespace {

subject::HarnessOptions options(std::size_t stride) {
  subject::HarnessOptions o;
  o.max_findings = 1;  // the property prints the first; bisecting on costs calls for nothing
  o.stride = stride;
  return o;
}

std::vector<double> complete(const subject::Evaluation& ev, const subject::Op& op, std::size_t n,
                             std::size_t stride) {
  const std::string call = fmt::format("a call of {} element{}{}", n, n == 1 ? "" : "s",
                                       stride > 1 ? fmt::format(", stride {}", stride) : "");
  if (!ev.findings.empty())
    fail_at(ev.findings.front().op, ev.findings.front().x,
            "harness finding: " + subject::describe(ev.findings.front()) + " (in " + call + ")");
  if (ev.unavailable)
    fail(subject::op_name(op) + ": no result for any element of " + call + ": " + ev.unavailable_why);
  if (ev.failed_count > 0)
    fail(fmt::format("{}: {} element(s) of {} without a result{}", subject::op_name(op),
                     ev.failed_count, call, ev.unavailable_why.empty() ? "" : ": " + ev.unavailable_why));
  return ev.y;
}

}  // namespace

std::vector<double> run_forward(Form f, Format fmt, std::span<const double> xs, std::size_t stride) {
  ++t_calls;
  const subject::Evaluation ev = subject::forward(*session().subject, f, fmt, xs, options(stride));
  return complete(ev, {f, Direction::forward, fmt}, xs.size(), stride);
}

std::vector<double> run_backward(Form f, Format fmt, std::span<const double> xs,
                                 std::span<const double> dys, std::size_t stride) {
  ++t_calls;
  const subject::Evaluation ev =
      subject::backward(*session().subject, f, fmt, xs, dys, options(stride));
  return complete(ev, {f, Direction::backward, fmt}, xs.size(), stride);
}

std::vector<double> run_function(Function fn, Format fmt, std::span<const double> xs) {
  if (fn.quantity == Quantity::value) return run_forward(fn.form, fmt, xs);
  const std::vector<double> ones(xs.size(), 1.0);
  return run_backward(fn.form, fmt, xs, ones);
}

double run_function(Function fn, Format fmt, double x) {
  return run_function(fn, fmt, std::span<const double>(&x, 1)).front();
}

}  // namespace gelucheck::prop
