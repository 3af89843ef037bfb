#include "process_subject.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>

#include "gelucheck/cleanup.hpp"
#include "gelucheck/process.hpp"
#include "lib_map.hpp"
#include "protocol.hpp"

namespace gelucheck::subject {

// The wire carries elements little-endian; on this host that is their memory layout.
static_assert(std::endian::native == std::endian::little,
              "the subject protocol's raw elements are little-endian");

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

std::chrono::milliseconds millis(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0));
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", s);  // a deadline met to the millisecond is noise
  return buf;
}

// The last lines a log file received after byte `from`, as one line for a message ("" when
// nothing came or the file is unreadable): what the child said during one call, not before it.
std::string log_tail(const std::string& path, std::uintmax_t from = 0) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const auto start = static_cast<std::streamoff>(from);
  if (size <= start) return {};
  constexpr std::streamoff kTail = 2000;  // enough for a traceback's last frames or a sanitizer line
  const bool cut = size - start > kTail;
  in.seekg(cut ? size - kTail : start);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.empty()) return {};
  return (cut ? "..." : "") + protocol::one_line(text, 2 * kTail);
}

std::uintmax_t file_size_or_zero(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t n = fs::file_size(path, ec);
  return ec ? 0 : n;
}

// A call's deadline is calibrated from the subject's own measured speed, so that a subject that
// hangs at one input does not cost the full --timeout at every bisection step: kFloor plus
// kFactor times the slowest time per element measured on that op times n, never above
// OpenOptions::call_timeout_seconds. kFloor covers the round trip, a fresh child's first call and
// the scheduling of a loaded machine; kFactor a call slower than the slowest seen so far (a
// loaded machine, a slower path). An op not measured yet borrows the slowest rate of any op,
// with kBorrowed more margin (another format or direction may take another path).
constexpr double kFloorSeconds = 1.0;
constexpr double kFactor = 10.0;
constexpr double kBorrowed = 10.0;
// Calls of fewer elements do not measure the time per element (their round trip dominates),
// unless they took longer than kSlowSeconds (then the elements' time does).
constexpr std::size_t kMinMeasured = 64;
constexpr double kSlowSeconds = 0.1;
// The calibration call made when a subject is opened, on ordinary values of its own choosing
// (1 + k/128, k = 1..kCalibration: exact in every format, none of them a special point), so that
// even the first real call has a calibrated deadline.
constexpr std::size_t kCalibration = 127;
constexpr double kCalibrationSeconds = 10;

std::size_t op_index(const Op& op) {
  const std::vector<Op>& all = all_ops();
  return static_cast<std::size_t>(std::find(all.begin(), all.end(), op) - all.begin());
}

class ProcessSubject final : public Subject {
 public:
  ProcessSubject(std::string spec, std::vector<std::string> argv, const OpenOptions& opt,
                 std::vector<std::string> env = {})
      : spec_(std::move(spec)), argv_(std::move(argv)), env_(std::move(env)), opt_(opt) {
    try {  // the child's stderr log lives here
      dir_ = cleanup::make_temp_dir(fs::temp_directory_path().string(), "gelucheck-subject");
    } catch (const std::exception& e) {
      throw SpecError(SpecError::Kind::unavailable, spec_ + ": " + e.what());
    }
    std::string why;
    if (!start(why)) {
      remove_dir();
      throw SpecError(SpecError::Kind::unavailable, spec_ + ": " + why);
    }
    if (hs_.provides.empty()) {
      remove_dir();
      throw SpecError(SpecError::Kind::unavailable,
                      spec_ + ": its handshake provides no op (\"" + hs_.name + "\")");
    }
    rate_.assign(all_ops().size(), -1);
    calibrate();
  }
  ~ProcessSubject() override {
    if (child_) {
      // A polite end: "quit", then EOF on its stdin; killed after the grace period.
      const std::string quit = protocol::format_request({true, {}, 0, 1}) + "\n";
      child_->write_all(quit.data(), quit.size(), Clock::now() + std::chrono::milliseconds(200));
      child_->finish(std::chrono::milliseconds(1000));
      child_.reset();
    }
    remove_dir();
  }
  ProcessSubject(const ProcessSubject&) = delete;
  ProcessSubject& operator=(const ProcessSubject&) = delete;

  std::string spec() const override { return spec_; }
  std::string describe() const override { return hs_.name; }
  Capabilities capabilities() const override {
    Capabilities c;
    c.ops = hs_.provides;
    c.strided = hs_.strided;
    c.fresh_evaluations = true;
    c.in_process = false;
    return c;
  }
  int started() const { return started_; }

  Status call(const Call& c) override {
    if (c.n > protocol::kMaxElements)
      throw std::logic_error("Subject::call: " + std::to_string(c.n) + " elements, above the " +
                             "protocol's limit");
    const bool backward = c.op.direction == Direction::backward;
    if (c.n > 0 && (!c.x || !c.out || (backward && !c.dy)))
      throw std::logic_error("Subject::call: null array for " + op_name(c.op));
    if (c.stride == 0) throw std::logic_error("Subject::call: stride 0");
    if (!capabilities().provides(c.op))
      return Status::make(Status::Kind::unavailable,
                          op_name(c.op) + " is not in the handshake's \"provides\"");
    if (c.stride > 1 && !hs_.strided)
      return Status::make(Status::Kind::unavailable, "the subject does not take strides");

    if (const auto known = known_hang(c)) return *known;
    if (const auto probed = probe_suspects(c)) return *probed;
    return exchange(c, deadline_seconds(c.op, c.n));
  }

  bool fresh_start() override {
    if (child_) {
      child_->kill();
      child_.reset();
    }
    return true;
  }

 private:
  // One call through the child, with a deadline of `limit` seconds: restarts the child if there
  // is none, measures the call's speed on success, and remembers an input that hung alone in a
  // fresh child.
  Status exchange(const Call& c, double limit) {
    const bool backward = c.op.direction == Direction::backward;
    const std::string what = op_name(c.op) + " of " + std::to_string(c.n) + " element" +
                             (c.n == 1 ? "" : "s");
    if (!child_) {
      std::string why;
      if (!start(why)) return lose(start_kind_, "restarting for " + what + ": " + why);
      if (!(hs_now_ == hs_)) {
        return lose(Status::Kind::protocol_error,
                    "restarting for " + what + ": the new child's handshake differs from the " +
                        "first (" + protocol::format_handshake(hs_now_) + ")");
      }
    }
    const bool fresh = child_calls_ == 0;
    ++child_calls_;
    limit_ = limit;
    log_mark_ = file_size_or_zero(log_);  // what the child says from here on is this call's

    const auto t0 = Clock::now();
    const auto deadline = t0 + millis(limit);
    const protocol::Request req{false, c.op, c.n, c.stride};
    const std::string line = protocol::format_request(req) + "\n";
    const std::size_t bytes = c.n * element_size(c.op.format);
    Status st;
    if (!child_->write_all(line.data(), line.size(), deadline) ||
        !child_->write_all(c.x, bytes, deadline) ||
        (backward && !child_->write_all(c.dy, bytes, deadline))) {
      st = io_failure("while sending " + what);
    } else {
      st = answer(c, what, bytes, deadline);
    }
    const double took = std::chrono::duration<double>(Clock::now() - t0).count();
    if (st.ok() && c.n > 0 && (c.n >= kMinMeasured || took > kSlowSeconds)) {
      const double per = took / static_cast<double>(c.n);
      double& r = rate_[op_index(c.op)];
      r = std::max(r, per);
      any_rate_ = std::max(any_rate_, per);
    }
    if (st.kind == Status::Kind::timed_out && c.n == 1) {
      const std::uint64_t b = std::bit_cast<std::uint64_t>(load(c.op.format, c.x, 0));
      suspects_.insert(b);  // worth a probe in the other ops
      if (fresh) {
        hung_[{op_index(c.op), b}] = seconds_text(limit);
        st.message += "; it hung alone in a fresh child: later calls containing it are answered "
                      "without calling";
      }
    }
    return st;
  }

  // Reads the answer to a request whose payload has been sent.
  Status answer(const Call& c, const std::string& what, std::size_t bytes,
                Clock::time_point deadline) {
    std::string answer;
    if (!child_->read_line(answer, deadline, protocol::kMaxLine))
      return io_failure("while waiting for the answer to " + what);
    std::string why;
    const auto a = protocol::parse_answer(answer, why);
    if (!a) return lose(Status::Kind::protocol_error, "answer to " + what + ": " + why);
    switch (a->kind) {
      case protocol::Answer::Kind::error:
        return lose(Status::Kind::failed, what + ": " + protocol::one_line(a->message));
      case protocol::Answer::Kind::wrote_input:
        return lose(Status::Kind::wrote_input, what + ": " + protocol::one_line(a->message));
      case protocol::Answer::Kind::ok:
      case protocol::Answer::Kind::ok_wrote_input: break;
    }
    if (a->n != c.n)
      return lose(Status::Kind::protocol_error,
                  "answered \"ok " + std::to_string(a->n) +
                      (a->kind == protocol::Answer::Kind::ok ? "" : " wrote_input ...") + "\" to " +
                      what);
    if (!child_->read_exact(c.out, bytes, deadline))
      return io_failure("while reading the " + std::to_string(c.n) + " results of " + what);
    // The results of a call that wrote its inputs are in c.out: the harness measures them.
    if (a->kind == protocol::Answer::Kind::ok_wrote_input)
      return lose(Status::Kind::wrote_input, what + ": " + protocol::one_line(a->message));
    return Status::success();
  }

  // The deadline of a call of n elements of op, in seconds (kFloorSeconds, kFactor above).
  double deadline_seconds(const Op& op, std::size_t n) const {
    const double own = rate_[op_index(op)];
    const double r = own >= 0 ? own : any_rate_ * kBorrowed;
    if (r < 0) return opt_.call_timeout_seconds;
    return std::min(opt_.call_timeout_seconds,
                    kFloorSeconds + kFactor * r * static_cast<double>(n));
  }

  // The calibration call (kCalibration): its failure is no finding (the real calls will show
  // it); the deadlines then stay at --timeout until a real call has been measured.
  void calibrate() {
    const Op op = hs_.provides.front();
    std::vector<double> v;
    for (std::size_t k = 1; k <= kCalibration; ++k) v.push_back(1 + static_cast<double>(k) / 128);
    const std::vector<unsigned char> x = encode(op.format, v);
    std::vector<unsigned char> dy = encode(op.format, std::vector<double>(v.size(), 1.0));
    std::vector<unsigned char> y(x.size());
    const Call c{op, x.data(), op.direction == Direction::backward ? dy.data() : nullptr, y.data(),
                 v.size(), 1};
    (void)exchange(c, std::min(opt_.call_timeout_seconds, kCalibrationSeconds));
  }

  // A call containing an input that hung alone (in a fresh child) in this op: answered
  // timed_out without calling, so bisection steps, later chunks and other checks that contain it
  // pay no deadline again.
  std::optional<Status> known_hang(const Call& c) const {
    if (hung_.empty()) return std::nullopt;
    const std::size_t k = op_index(c.op);
    for (std::size_t i = 0; i < c.n; ++i) {
      const double v = load(c.op.format, c.x, i);
      const auto h = hung_.find({k, std::bit_cast<std::uint64_t>(v)});
      if (h != hung_.end())
        return Status::make(Status::Kind::timed_out,
                            "known to hang at x = " + hexfloat(v) + ": alone in a fresh child it " +
                                "gave no answer within " + h->second + "; this call (its element " +
                                std::to_string(i) + " of " + std::to_string(c.n) +
                                ") was not made");
    }
    return std::nullopt;
  }

  // A call of op containing a value that hung alone in another op: that value is tried alone in
  // a fresh child first (one short deadline), so that a subject hanging at one input in every
  // op pays a bisection once, not once per op.
  std::optional<Status> probe_suspects(const Call& c) {
    if (suspects_.empty()) return std::nullopt;
    const std::size_t k = op_index(c.op), w = element_size(c.op.format);
    for (std::size_t i = 0; i < c.n; ++i) {
      const std::uint64_t b = std::bit_cast<std::uint64_t>(load(c.op.format, c.x, i));
      if (!suspects_.count(b) || cleared_.count({k, b})) continue;
      unsigned char x1[8], dy1[8], y1[8];
      std::memcpy(x1, static_cast<const unsigned char*>(c.x) + i * w, w);
      if (c.dy) std::memcpy(dy1, static_cast<const unsigned char*>(c.dy) + i * w, w);
      fresh_start();
      const Status st = exchange({c.op, x1, c.dy ? dy1 : nullptr, y1, 1, 1}, deadline_seconds(c.op, 1));
      if (st.kind == Status::Kind::timed_out) return known_hang(c);
      cleared_.insert({k, b});
    }
    return std::nullopt;
  }

  // Starts a child and reads its handshake into hs_now_ (and into hs_ for the first child).
  // On failure: false, `why` in words, start_kind_ the Status kind it maps to; no child left.
  bool start(std::string& why) {
    ++started_;
    child_calls_ = 0;
    log_mark_ = 0;
    log_ = dir_.path + "/stderr-" + std::to_string(started_) + ".log";
    if (started_ > 1) {  // keep only the current child's log
      std::error_code ec;
      fs::remove(dir_.path + "/stderr-" + std::to_string(started_ - 1) + ".log", ec);
    }
    process::Spec ps;
    ps.argv = argv_;
    ps.env = env_;
    child_ = std::make_unique<process::Child>(ps, log_);
    if (!child_->alive()) {
      const auto e = child_->poll();
      why = "cannot start " + argv_[0] + (e ? ": " + e->why : "") + with_log();
      child_.reset();
      start_kind_ = Status::Kind::crashed;
      return false;
    }
    const auto deadline = Clock::now() + millis(opt_.handshake_timeout_seconds);
    std::string line;
    if (!child_->read_line(line, deadline, protocol::kMaxLine)) {
      if (child_->error().find("too long") != std::string::npos) {
        child_->kill();
        why = "bad handshake: a first line longer than " + std::to_string(protocol::kMaxLine) +
              " bytes" + with_log();
        start_kind_ = Status::Kind::protocol_error;
      } else if (child_->timed_out()) {
        child_->kill();
        why = "no handshake within " + seconds_text(opt_.handshake_timeout_seconds) +
              "; killed" + with_log();
        start_kind_ = Status::Kind::timed_out;
      } else {
        why = "no handshake: " + ended() + with_log();
        start_kind_ = Status::Kind::crashed;
      }
      child_.reset();
      return false;
    }
    std::string bad;
    const auto h = protocol::parse_handshake(line, bad);
    if (!h) {
      child_->kill();
      child_.reset();
      why = "bad handshake: " + bad + with_log();
      start_kind_ = Status::Kind::protocol_error;
      return false;
    }
    hs_now_ = *h;
    if (started_ == 1) hs_ = *h;
    return true;
  }

  // After a failed read or write: a deadline, or the child has gone (or closed its stdout).
  Status io_failure(const std::string& when) {
    if (child_->timed_out()) {
      child_->kill();
      const bool calibrated = limit_ < opt_.call_timeout_seconds;
      return lose(Status::Kind::timed_out,
                  "no answer within " + seconds_text(limit_) +
                      (calibrated ? " (calibrated from its measured speed, at most " +
                                        seconds_text(opt_.call_timeout_seconds) + ")"
                                  : std::string()) +
                      " " + when + "; killed" + with_log());
    }
    const std::string io = child_->error();
    if (io.find("too long") != std::string::npos)
      return lose(Status::Kind::protocol_error, "a line longer than " +
                                                    std::to_string(protocol::kMaxLine) +
                                                    " bytes " + when);
    const std::string how = ended();
    if (how.rfind("closed", 0) == 0)
      return lose(Status::Kind::protocol_error, how + " " + when + with_log());
    const std::string detail = io == "end of stream" ? "" : " (" + io + ")";
    return lose(Status::Kind::crashed, how + " " + when + detail + with_log());
  }

  // How the child ended, once its stream failed: it exited or was killed by a signal, or (still
  // running a while later) it closed its end; then it is killed.
  std::string ended() {
    // An end of stream comes before the exit status: give the dying child a moment to be reaped.
    const auto until = Clock::now() + std::chrono::milliseconds(2000);
    while (Clock::now() < until) {
      if (const auto e = child_->poll()) return e->why;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    child_->kill();
    return "closed its stdout without exiting (then killed)";
  }

  // The stderr of the current call (from log_mark_ on; a new child's whole log before its first).
  std::string with_log() const {
    const std::string t = log_tail(log_, log_mark_);
    return t.empty() ? std::string() : "; its stderr ended with: " + t;
  }

  // Ends the child (the next call starts a fresh one) and returns the Status, with the stderr
  // of this call.
  Status lose(Status::Kind k, std::string msg) {
    if (child_) {
      child_->kill();
      child_.reset();
    }
    Status st = Status::make(k, std::move(msg));
    st.stderr_tail = log_tail(log_, log_mark_);
    return st;
  }

  void remove_dir() { cleanup::remove_temp_dir(dir_); }

  std::string spec_;
  std::vector<std::string> argv_;
  std::vector<std::string> env_;  // "NAME=value" for every child (a peer's variant)
  OpenOptions opt_;
  cleanup::TempDir dir_;
  std::string log_;
  std::unique_ptr<process::Child> child_;
  protocol::Handshake hs_;      // the first child's, what capabilities() reports
  protocol::Handshake hs_now_;  // the current child's
  Status::Kind start_kind_ = Status::Kind::crashed;
  int started_ = 0;
  int child_calls_ = 0;            // calls the current child has served (0: fresh)
  std::uintmax_t log_mark_ = 0;    // the log's size when the current call began
  double limit_ = 0;               // the current call's deadline, seconds
  std::vector<double> rate_;       // per op (all_ops() order): slowest seconds per element, -1 unknown
  double any_rate_ = -1;           // the slowest over every op
  // Inputs (op index, the bits of x as a double) that hung alone in a fresh child; values that
  // hung alone in some op; (op, value) probed alone and answered.
  std::map<std::pair<std::size_t, std::uint64_t>, std::string> hung_;  // → the deadline it missed
  std::set<std::pair<std::size_t, std::uint64_t>> cleared_;
  std::set<std::uint64_t> suspects_;
};

bool shell_special(char c) {
  switch (c) {
    case '$': case '`': case '|': case '&': case ';': case '<': case '>': case '(': case ')':
    case '*': case '?': case '[':
      return true;
    default: return false;
  }
}

}  // namespace

std::vector<std::string> split_command(std::string_view s) {
  const auto usage = [&](const std::string& why) {
    return SpecError(SpecError::Kind::usage,
                     "cmd:" + std::string(s) + ": " + why +
                         " (cmd: takes plain words and quotes; for shell features use "
                         "cmd:/bin/sh -c '...')");
  };
  std::vector<std::string> words;
  std::string w;
  bool in_word = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(std::move(w));
      w.clear();
      in_word = false;
      continue;
    }
    if (!in_word && (c == '~' || c == '#'))
      throw usage(std::string("a word starts with '") + c + "'");
    in_word = true;
    if (c == '\'') {
      const std::size_t end = s.find('\'', i + 1);
      if (end == std::string_view::npos) throw usage("unterminated '");
      w.append(s.substr(i + 1, end - i - 1));
      i = end;
    } else if (c == '"') {
      std::size_t j = i + 1;
      for (; j < s.size() && s[j] != '"'; ++j) {
        if (s[j] == '\\' && j + 1 < s.size() &&
            (s[j + 1] == '"' || s[j + 1] == '\\' || s[j + 1] == '$' || s[j + 1] == '`'))
          ++j;
        else if (s[j] == '$' || s[j] == '`')
          throw usage(std::string("'") + s[j] + "' inside \"...\"");
        w += s[j];
      }
      if (j == s.size()) throw usage("unterminated \"");
      i = j;
    } else if (c == '\\') {
      if (i + 1 == s.size()) throw usage("a trailing backslash");
      w += s[++i];
    } else if (shell_special(c)) {
      throw usage(std::string("unquoted '") + c + "'");
    } else {
      w += c;
    }
  }
  if (in_word) words.push_back(std::move(w));
  if (words.empty()) throw usage("no command");
  return words;
}

std::string subject_host_path() {
  constexpr const char* kHost = "gelucheck-subject-host";
  std::error_code ec;
  const std::string beside = process::self_dir() + "/" + kHost;
  if (::access(beside.c_str(), X_OK) == 0) return beside;
#ifdef GELUCHECK_SUBJECT_HOST_BUILD_PATH
  if (::access(GELUCHECK_SUBJECT_HOST_BUILD_PATH, X_OK) == 0) return GELUCHECK_SUBJECT_HOST_BUILD_PATH;
#endif
  throw SpecError(SpecError::Kind::unavailable,
                  std::string("lib: needs ") + kHost + ", which is not beside " +
                      process::self_dir() + " (it is installed with gelucheck)");
}

std::unique_ptr<Subject> open_cmd(std::string_view command, const OpenOptions& opt,
                                  std::vector<std::string> env) {
  return std::make_unique<ProcessSubject>("cmd:" + std::string(command), split_command(command),
                                          opt, std::move(env));
}

std::unique_ptr<Subject> open_lib(std::string_view rest, const OpenOptions& opt,
                                  std::vector<std::string> env) {
  const std::string spec = "lib:" + std::string(rest);
  LibSpec ls = split_lib_spec(rest);
  if (ls.path.empty())
    throw SpecError(SpecError::Kind::usage, spec + ": no library path (lib:PATH[:MAP])");
  try {
    (void)parse_lib_map(ls.map);
  } catch (const std::invalid_argument& e) {
    throw SpecError(SpecError::Kind::usage, spec + ": " + e.what());
  }
  // dlopen() searches the library path for a name without '/', never the current directory:
  // a file that exists here is meant, so it is passed with its directory.
  std::error_code ec;
  if (ls.path.find('/') == std::string::npos && fs::exists(ls.path, ec)) ls.path = "./" + ls.path;
  std::vector<std::string> argv{subject_host_path(), ls.path};
  if (!ls.map.empty()) argv.push_back(ls.map);
  return std::make_unique<ProcessSubject>(spec, std::move(argv), opt, std::move(env));
}

int children_started(const Subject& s) {
  const auto* p = dynamic_cast<const ProcessSubject*>(&s);
  return p ? p->started() : -1;
}

}  // namespace gelucheck::subject
