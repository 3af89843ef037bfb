// gelucheck/subject.hpp — the ONE door through which every check reaches the code it checks.
//
// A *subject* is any GELU under check: the library's built-in paths (accurate, naive), the
// correctly rounded reference, the deliberately broken variants, a shared library exporting the C
// ABI (subject_abi.h), a program speaking the subject protocol on stdin/stdout, or arrays saved
// from a framework. Checks (the report's campaign, the property suite, `gelucheck eval` and
// `gelucheck check`) see only this interface; none names src/ directly.
//
// The subject is not trusted. A call may crash, hang, refuse, lie about what it provides, write
// into its inputs or give different bits on a second call. None of these ends gelucheck: call()
// returns a Status that says what happened, and the checks turn it into a finding with the input
// that caused it (harness.hpp bisects a failing batch down to one element).
//
// Data: elements travel in the format's own storage — binary64 as double, binary32 as float,
// binary16 and bfloat16 as uint16_t bit patterns — exactly as the C ABI takes them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "gelucheck/claim.hpp"
#include "gelucheck/common.hpp"

namespace gelucheck::subject {

// ---------------------------------------------------------------------------------------------
// Names shared by the ABI, the protocol and the command line.

// The ABI's dtype names: f64 (binary64), f32 (binary32), bf16 (bfloat16), f16 (binary16).
std::string_view dtype_name(Format f);
std::optional<Format> parse_dtype(std::string_view s);  // also accepts the Format names
std::size_t element_size(Format f);                     // 8, 4, 2, 2

// One of the four functions (gelucheck/common.hpp: its one type and names).
using gelucheck::all_functions;
using gelucheck::Function;
using gelucheck::function_name;
using gelucheck::parse_function;

// What a subject computes on one call: the forward (GeluForm.map) or the backward (the VJP,
// dx = dy · f'(x), GeluForm.hasVJP) of one form in one format. The derivative is the backward
// with dy = 1. ABI symbol: gelu_<form>_<dt> / gelu_<form>_backward_<dt>.
enum class Direction { forward, backward };
std::string_view direction_name(Direction d);  // "forward", "backward"
std::optional<Direction> parse_direction(std::string_view s);
struct Op {
  Form form;
  Direction direction;
  Format format;
  friend bool operator==(const Op&, const Op&) = default;
};
std::string op_name(const Op& op);        // "tanh.forward.f64", "erf.backward.bf16"
std::optional<Op> parse_op(std::string_view s);
std::string abi_symbol(const Op& op);     // "gelu_tanh_f64", "gelu_erf_backward_bf16"
// Every op, in a fixed order (form, direction, format as in all_formats).
const std::vector<Op>& all_ops();
// The op that computes function f in fmt: the value is the forward, the derivative the backward
// (with dy = 1); and the function an op computes.
Op op_of(Function f, Format fmt);
Function function_of(const Op& op);

// One element of a call's memory (the storage rule at the top of this file) as the double holding
// its value, and back. store() rounds v to the format first (round_to_format: nearest, ties to
// even), so it takes any double. The encodings are gelucheck::to_bits / from_bits (common.hpp),
// their one home: a NaN keeps its sign and the leading bits of its payload.
double load(Format f, const void* data, std::size_t i);
void store(Format f, double v, void* data, std::size_t i);
// n elements at once, exactly: encoding a double that is not a value of the format is a caller's
// error (std::invalid_argument), not a rounding.
std::vector<unsigned char> encode(Format fmt, std::span<const double> values);
std::vector<double> decode(Format fmt, const void* storage, std::size_t n);
void decode_into(Format fmt, const void* storage, std::size_t n, double* out);  // out[0..n)

// ---------------------------------------------------------------------------------------------
// What happened on one call.

struct Status {
  enum class Kind {
    ok,              // out holds n results
    unavailable,     // the subject does not provide this op (or, for saved arrays, this input)
    crashed,         // the subject's process died (signal or exit) during the call
    timed_out,       // no answer within the time limit; the subject was killed
    protocol_error,  // malformed answer (wrong size, garbage, broken handshake)
    wrote_input,     // the call changed x or dy (the subject must not write its inputs)
    failed,          // the subject reported an error of its own (an exception, a message)
  };
  Kind kind = Kind::ok;
  std::string message;  // for everything but ok: what happened, in words
  // Out-of-process subjects: the end of what the child wrote on stderr during THIS call (not
  // before it), one line; empty when it wrote nothing or for in-process subjects.
  std::string stderr_tail;
  bool ok() const { return kind == Kind::ok; }
  static Status success() { return {}; }
  static Status make(Kind k, std::string msg) { return {k, std::move(msg), {}}; }
};
std::string_view kind_name(Status::Kind k);  // "ok", "crashed", ...

// One call's memory: n elements each, contiguous, in the op's format storage. dy is null for a
// forward. `stride` asks the subject to evaluate through a strided layout of its own (element i
// at i·stride of some buffer it owns) where it can (Capabilities::strided); 1 is contiguous.
struct Call {
  Op op;
  const void* x = nullptr;
  const void* dy = nullptr;
  void* out = nullptr;
  std::size_t n = 0;
  std::size_t stride = 1;
};

struct Capabilities {
  std::vector<Op> ops;            // what the subject says it provides
  bool strided = false;           // honours Call::stride > 1
  bool fresh_evaluations = true;  // false for saved arrays: only recorded inputs can be answered
  bool in_process = true;         // runs in gelucheck's own process (built-ins only)
  bool provides(const Op& op) const;
};

// What one subject claims, per function and per format. Unset entries are Claim::none().
class ClaimSet {
 public:
  Claim get(Function f, Format fmt) const;
  // Sets the claim for every (function, format) matching the pattern (an unset field matches
  // all); later calls override earlier ones where they overlap.
  void set(std::optional<Function> f, std::optional<Format> fmt, const Claim& c);
  bool any() const;  // some entry claims something
  // The command line's form (docs/subjects.md): "CLAIM" or "FUNCTION=CLAIM", "FUNCTION@DT=CLAIM",
  // "@DT=CLAIM", with CLAIM one of none | cr | faithful | ulp:N | allclose:atol=A,rtol=R and
  // FUNCTION one of the four names (or "tanh.*", "erf.*", "*.value", "*.derivative"). Applied
  // onto *this. Throws std::invalid_argument with a message on a malformed item.
  void apply(std::string_view item);
  // Every entry as an item of that syntax ("tanh.value@f64=faithful", ...): apply()ing them to an
  // empty set gives this set back.
  std::vector<std::string> items() const;

 private:
  // indexed [function 0..3][format 0..3] as all_functions × all_formats
  Claim c_[4][4];
};
Claim parse_claim(std::string_view s);  // "cr", "ulp:4", "allclose:atol=1e-5,rtol=1e-5", ...
std::string claim_item(const Claim& c);  // the inverse: the claim in that syntax

// ---------------------------------------------------------------------------------------------
// The door.

class Subject {
 public:
  virtual ~Subject() = default;
  // The spec it was opened from ("lib:./libmine.so", "accurate"), for reports.
  virtual std::string spec() const = 0;
  // What it says about itself: name, version, kernel, anything worth recording (one line).
  virtual std::string describe() const = 0;
  virtual Capabilities capabilities() const = 0;
  // What it claims of itself (the built-ins do; external subjects are told with --claim).
  virtual ClaimSet claims() const { return {}; }
  // Evaluates one batch. Never throws for the subject's misbehaviour (that is the Status); may
  // throw std::logic_error for a misuse by the caller (n == 0 with null pointers is fine).
  virtual Status call(const Call& c) = 0;
  // Makes the next call run in a fresh instance of the subject (out-of-process: a new child, as
  // after a crash), so that a finding can be replayed without the state earlier calls left.
  // False, doing nothing, when the subject has no such instance (in-process ones).
  virtual bool fresh_start() { return false; }
  // Saved arrays only: the inputs on record for `op` (values of op.format, as doubles).
  virtual std::vector<double> recorded_inputs(const Op& op) const {
    (void)op;
    return {};
  }
};

// Raised by open() for a spec that cannot be opened: malformed (usage), or a subject that fails
// its handshake, a library that cannot be loaded, a directory without arrays.
struct SpecError : std::runtime_error {
  enum class Kind { usage, unavailable } kind;
  SpecError(Kind k, const std::string& what) : std::runtime_error(what), kind(k) {}
};

struct OpenOptions {
  double call_timeout_seconds = 60;  // per call of an out-of-process subject; then it is killed
  // From the start of an out-of-process subject to its handshake (an interpreter importing a
  // framework can take seconds on a loaded machine); then it is killed.
  double handshake_timeout_seconds = 60;
};

// Opens a subject from its spec (docs/subjects.md):
//   accurate | naive | reference     the built-ins (the library's two paths; the MPFR reference)
//   broken:NAME                      a deliberately broken variant (broken_names())
//   torch[:OPTIONS]                  PyTorch's F.gelu through its adapter (one thread)
//   onednn[:OPTIONS]                 oneDNN's eltwise GELU through its lib: adapter
//   onnxruntime[:OPTIONS]            ONNX Runtime's Gelu kernels through its cmd: adapter (Node.js)
//   ggml[:OPTIONS]                   ggml's CPU GELU through its lib: adapter
//   (a peer's OPTIONS: docs/subjects.md, "Peers"; subjects/src/peers.hpp)
//   lib:PATH[:MAP]                   a shared library exporting the C ABI, loaded in a child process
//   cmd:COMMAND ARGS...              a program speaking the subject protocol on stdin/stdout
//   npy:DIR                          arrays saved from any framework
std::unique_ptr<Subject> open(std::string_view spec, const OpenOptions& opt = {});
std::vector<std::string> broken_names();
// The built-ins of this build: accurate, naive and reference, or reference alone in a build
// without the library under test (GELUCHECK_WITH_LIBRARY=OFF: no x87 long double).
const std::vector<std::string>& builtin_specs();
bool library_built();  // whether accurate and naive exist in this build
// The real peers this installation can measure (PyTorch through its adapter, oneDNN through its
// library), as specs; those whose package or adapter is missing are left out.
std::vector<std::string> peer_specs();
// The variants of a peer (given by its name alone: "torch", "ggml"): each a spec that changes one
// of the default's options (a layout, a thread count, an ISA, a CPU build), those this machine
// can run; `gelucheck diff SPEC --variants` compares each with the default. Throws SpecError:
// usage for a spec that is not a peer's name, unavailable when the peer is not installed.
std::vector<std::string> variant_specs(std::string_view spec);
// The peers' names, "torch, onednn, ...", for messages.
std::string peer_names();
// The specs of the broken variants every check must catch ("broken:NAME" for each fixed variant
// of broken_names(); the parameterised ones are the tests' own). The property suite's bite test
// runs the suite against each.
std::vector<std::string> must_fail_specs();

}  // namespace gelucheck::subject
