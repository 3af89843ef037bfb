// gelucheck-subject-host LIBRARY [MAP] — serves the subject protocol (docs/subjects.md) for a
// shared library exporting the C ABI (gelucheck/subject_abi.h), so that gelucheck can call it in
// a child process: a library that crashes, hangs or corrupts memory takes only this process down.
//
// What it guards against, beyond the crash itself:
//  - inputs written: x and dy are copied before the call and compared after it (byte for byte);
//    a difference is answered "ok N wrote_input MESSAGE" with the first changed element, and the
//    results follow (they are measured all the same);
//  - writes (or reads) past the end: each array ends where an unmapped page begins, so touching
//    element n faults; the SIGSEGV handler says which array's end was crossed, then dies by the
//    signal as it would have;
//  - every fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS), real or
//    raised by the library itself, is said on stderr and ends the host by that signal, so the
//    call it happened in is the one that crashed; so does an exit() or _exit() mid-call;
//  - elements left unwritten: the output array is filled with all-one bits (a NaN in every
//    format) before each call, so an unwritten element reads as NaN, never as a stale result;
//  - stray output: the library's stdout is sent to stderr (the protocol keeps the original
//    stdout), so a debug printf cannot corrupt an answer.
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "gelucheck/cleanup.hpp"
#include "gelucheck/subject.hpp"
#include "gelucheck/subject_abi.h"
#include "lib_map.hpp"
#include "protocol.hpp"

namespace {

using namespace gelucheck;
using namespace gelucheck::subject;

static_assert(std::endian::native == std::endian::little,
              "the subject protocol's raw elements are little-endian");

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "gelucheck-subject-host: %s\n", msg.c_str());
  std::exit(2);
}

// An array of up to `capacity` bytes whose END is followed by an unmapped page (PROT_NONE).
class GuardedArray {
 public:
  void reserve(std::size_t bytes) {
    if (bytes <= cap_ && base_) return;
    release();
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    cap_ = (bytes + page - 1) / page * page;
    void* p = mmap(nullptr, cap_ + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) die("cannot map " + std::to_string(cap_) + " bytes: " + std::strerror(errno));
    base_ = static_cast<unsigned char*>(p);
    if (mprotect(base_ + cap_, page, PROT_NONE) != 0) die("mprotect failed");
    guard_ = base_ + cap_;
    guard_end_ = guard_ + page;
  }
  // The first of `bytes` bytes ending at the guard page.
  unsigned char* data(std::size_t bytes) const { return guard_ - bytes; }
  bool guards(const void* addr) const {
    const auto* a = static_cast<const unsigned char*>(addr);
    return guard_ && a >= guard_ && a < guard_end_;
  }
  ~GuardedArray() { release(); }

 private:
  void release() {
    if (base_) munmap(base_, static_cast<std::size_t>(guard_end_ - base_));
    base_ = guard_ = guard_end_ = nullptr;
    cap_ = 0;
  }
  unsigned char* base_ = nullptr;
  unsigned char* guard_ = nullptr;
  unsigned char* guard_end_ = nullptr;
  std::size_t cap_ = 0;
};

GuardedArray g_x, g_dy, g_out;
const char* g_symbol = "";  // the function being called, for the fault handler

// Async-signal-safe output for the handler: write(2) of fixed strings and a hex address.
void say(const char* s) {
  const ssize_t r = write(2, s, std::strlen(s));
  (void)r;
}
void say_hex(std::uintptr_t v) {
  char buf[2 + 2 * sizeof v + 1];
  buf[0] = '0';
  buf[1] = 'x';
  for (std::size_t i = 0; i < 2 * sizeof v; ++i)
    buf[2 + i] = "0123456789abcdef"[(v >> (4 * (2 * sizeof v - 1 - i))) & 0xf];
  buf[sizeof buf - 1] = 0;
  say(buf);
}

// The signals that end a call of the library: the faults, and what abort() and assert() raise.
// Each ends the host by that signal, whether the kernel sent it for a real fault or the library
// raised it itself (raise(), kill()) — a handler that returned from a raised signal would let the
// library go on, and its next crash would land in a later call, at inputs that compute fine.
constexpr int kFatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};

// The main thread's stack (lowest address) and the size reserved below it for its growth, to tell
// a stack overflow from another fault.
std::uintptr_t g_stack_low = 0;

void on_fatal(int sig, siginfo_t* info, void*) {
  const char* abbrev = sigabbrev_np(sig);
  say("gelucheck-subject-host: SIG");
  say(abbrev ? abbrev : "?");
  say(" in ");
  say(g_symbol[0] ? g_symbol : "the host, outside any call of the library");
  const void* a = info->si_addr;
  const auto addr = reinterpret_cast<std::uintptr_t>(a);
  if (info->si_code <= 0) {
    // SI_USER, SI_TKILL, SI_QUEUE: sent, not a fault of the instruction at hand.
    say(": raised by raise(), kill() or abort()");
  } else if (sig == SIGSEGV || sig == SIGBUS) {
    if (g_out.guards(a))
      say(": access beyond the last element of the output array");
    else if (g_x.guards(a))
      say(": access beyond the last element of x");
    else if (g_dy.guards(a))
      say(": access beyond the last element of dy");
    else if (g_stack_low && addr < g_stack_low + (std::uintptr_t{1} << 16) &&
             addr + (std::uintptr_t{1} << 20) > g_stack_low)
      say(": the stack overflowed (an access at its end)");
    say(" (address ");
    say_hex(addr);
    say(")");
  } else {
    say(" (at ");
    say_hex(addr);
    say(")");
  }
  say("\n");
  // Die by the signal itself, so that gelucheck reads how the call ended.
  cleanup::die_by_signal(sig);
}

// A library that calls exit() during a call ends the host with whatever status it chose (0
// included); this says so in the log, which gelucheck quotes with the crash.
void on_exit_during_call() {
  if (!g_symbol[0]) return;
  say("gelucheck-subject-host: ");
  say(g_symbol);
  say(" called exit() during a call\n");
}

void install_fatal_handlers() {
  // No core files from an untrusted library's crashes (one per bisection step otherwise).
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* low = nullptr;
    std::size_t size = 0;
    if (pthread_attr_getstack(&attr, &low, &size) == 0) g_stack_low = reinterpret_cast<std::uintptr_t>(low);
    pthread_attr_destroy(&attr);
  }
  static std::vector<char> stack(1 << 16);  // the fault may come from a blown stack
  stack_t ss{};
  ss.ss_sp = stack.data();
  ss.ss_size = stack.size();
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_sigaction = on_fatal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : kFatal) sigaction(sig, &sa, nullptr);
  std::atexit(on_exit_during_call);
}

// The protocol's own stdin/stdout, moved off fds 0 and 1 so that the library cannot reach them.
struct Wire {
  int in = -1, out = -1;
  std::string buf;  // bytes read past the last line
  std::size_t pos = 0;

  bool fill() {
    if (pos > 0) {
      buf.erase(0, pos);
      pos = 0;
    }
    char tmp[1 << 16];
    for (;;) {
      const ssize_t r = read(in, tmp, sizeof tmp);
      if (r > 0) {
        buf.append(tmp, static_cast<std::size_t>(r));
        return true;
      }
      if (r < 0 && errno == EINTR) continue;
      return false;
    }
  }
  // false on EOF before a '\n'
  bool line(std::string& l) {
    for (;;) {
      const std::size_t nl = buf.find('\n', pos);
      if (nl != std::string::npos) {
        l.assign(buf, pos, nl - pos);
        pos = nl + 1;
        return true;
      }
      if (buf.size() - pos > protocol::kMaxLine) die("request line too long");
      if (!fill()) return false;
    }
  }
  // What line() read past its line first, then the rest straight from the pipe into dst: not
  // through fill()'s tmp and buf, two more copies of x and dy.
  bool bytes(void* dst, std::size_t n) {
    auto* d = static_cast<unsigned char*>(dst);
    const std::size_t k = std::min(n, buf.size() - pos);
    std::memcpy(d, buf.data() + pos, k);
    pos += k;
    d += k;
    n -= k;
    while (n > 0) {
      const ssize_t r = read(in, d, n);
      if (r > 0) {
        d += r;
        n -= static_cast<std::size_t>(r);
      } else if (r == 0 || errno != EINTR) {
        return false;
      }
    }
    return true;
  }
  void send(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    while (n > 0) {
      const ssize_t w = write(out, p, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) std::exit(0);  // gelucheck has gone: nothing left to serve
      p += w;
      n -= static_cast<std::size_t>(w);
    }
  }
  void send_line(const std::string& s) {
    const std::string l = s + "\n";
    send(l.data(), l.size());
  }
};

Wire take_stdio() {
  Wire w;
  w.in = dup(0);
  w.out = dup(1);
  const int null = open("/dev/null", O_RDONLY);
  if (w.in < 0 || w.out < 0 || null < 0 || dup2(null, 0) < 0 || dup2(2, 1) < 0)
    die(std::string("cannot rearrange stdin/stdout: ") + std::strerror(errno));
  close(null);
  return w;
}

// What serves one op: a function of the ABI's array signature, or a scalar T f(T).
struct Entry {
  bool present = false;
  bool scalar = false;
  void* fn = nullptr;
  std::string symbol;
};

// Calls fn over n elements of storage type T: the ABI's array signature, or (scalar) T f(T) per
// element; for a backward, the array function takes dy and the scalar one is f'.
template <class T>
void call_typed(void* fn, bool scalar, bool fwd, const void* x, const void* dy, void* out,
                std::size_t n) {
  const auto* tx = static_cast<const T*>(x);
  auto* tout = static_cast<T*>(out);
  if (scalar) {
    const auto f = reinterpret_cast<T (*)(T)>(fn);
    for (std::size_t i = 0; i < n; ++i) tout[i] = f(tx[i]);
  } else if (fwd) {
    reinterpret_cast<void (*)(const T*, T*, std::size_t)>(fn)(tx, tout, n);
  } else {
    reinterpret_cast<void (*)(const T*, const T*, T*, std::size_t)>(fn)(
        tx, static_cast<const T*>(dy), tout, n);
  }
}

// Calls the entry on x (and dy) into out: n elements of the op's format.
void invoke(const Entry& e, const Op& op, const void* x, const void* dy, void* out, std::size_t n) {
  const bool fwd = op.direction == Direction::forward;
  switch (op.format) {
    case Format::binary64: call_typed<double>(e.fn, e.scalar, fwd, x, dy, out, n); break;
    case Format::binary32: call_typed<float>(e.fn, e.scalar, fwd, x, dy, out, n); break;
    case Format::binary16:
    case Format::bfloat16: call_typed<std::uint16_t>(e.fn, e.scalar, fwd, x, dy, out, n); break;
  }
  // A scalar backward: out holds f'(x); dx = dy · f'(x) rounded once to the format. The product
  // of two values of the format is exact in binary64 for binary32, binary16 and bfloat16 (p <= 24
  // each, so <= 48 significant bits, exponents far inside binary64's range), and binary64's own
  // product rounds once: store() then rounds it to the format once, which is the IEEE product in
  // that format.
  if (e.scalar && !fwd)
    for (std::size_t i = 0; i < n; ++i)
      store(op.format, load(op.format, dy, i) * load(op.format, out, i), out, i);
}

// The first element where `now` differs from `before` (bytes), or npos.
std::size_t first_change(const unsigned char* before, const unsigned char* now, std::size_t n,
                         std::size_t esize) {
  // One comparison of the whole buffers first: they are almost always equal, and a call per
  // element was 2.5 % of an exhaustive sweep's time (the host's and gelucheck's together).
  if (n == 0 || std::memcmp(before, now, n * esize) == 0) return std::string::npos;
  for (std::size_t i = 0; i < n; ++i)
    if (std::memcmp(before + i * esize, now + i * esize, esize) != 0) return i;
  return std::string::npos;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr,
                 "usage: gelucheck-subject-host LIBRARY [MAP]\n"
                 "Serves the subject protocol gelucheck-subject/1 on stdin/stdout for a shared\n"
                 "library exporting gelucheck/subject_abi.h (run by gelucheck for lib: subjects).\n");
    return 2;
  }
  Wire wire = take_stdio();
  const std::string lib = argv[1];
  std::vector<LibMapping> map;
  try {
    map = parse_lib_map(argc == 3 ? argv[2] : "");
  } catch (const std::invalid_argument& e) {
    die(e.what());
  }
  void* h = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) die(std::string("cannot load ") + lib + ": " + dlerror());

  const auto provides_fn =
      reinterpret_cast<gelucheck_subject_provides_fn*>(dlsym(h, "gelucheck_subject_provides"));
  const auto describe_fn =
      reinterpret_cast<gelucheck_subject_describe_fn*>(dlsym(h, "gelucheck_subject_describe"));

  std::vector<Entry> entries(all_ops().size());
  protocol::Handshake hs;
  std::vector<std::string> withdrawn;
  for (std::size_t k = 0; k < all_ops().size(); ++k) {
    const Op& op = all_ops()[k];
    Entry& e = entries[k];
    e.symbol = abi_symbol(op);
    for (const LibMapping& m : map)
      if (m.op == op) {
        e.symbol = m.symbol;
        e.scalar = m.scalar;
        if (!dlsym(h, m.symbol.c_str()))
          die(lib + " does not export " + m.symbol + " (mapped to " + op_name(op) +
              "); C++ functions need extern \"C\"");
      }
    e.fn = dlsym(h, e.symbol.c_str());
    if (!e.fn) continue;
    if (provides_fn && provides_fn(op_name(op).c_str()) == 0) {
      withdrawn.push_back(op_name(op));
      continue;
    }
    e.present = true;
    hs.provides.push_back(op);
  }
  hs.name = lib;
  if (describe_fn) {
    const char* d = describe_fn();
    if (d && *d) hs.name = std::string(d) + " (" + lib + ")";
  }
  if (!map.empty()) hs.name += ", map " + std::string(argv[2]);
  if (!withdrawn.empty()) {
    hs.name += "; withdrawn by the library on this machine:";
    for (const std::string& w : withdrawn) hs.name += " " + w;
  }
  install_fatal_handlers();
  wire.send_line(protocol::format_handshake(hs));

  std::string line, why;
  std::vector<unsigned char> x0, dy0;
  while (wire.line(line)) {
    const auto req = protocol::parse_request(line, why);
    if (!req) die(why);  // the stream is out of step: nothing more can be understood
    if (req->quit) return 0;
    const std::size_t esize = element_size(req->op.format);
    const std::size_t bytes = req->n * esize;
    const bool bwd = req->op.direction == Direction::backward;
    g_x.reserve(bytes);
    g_out.reserve(bytes);
    if (bwd) g_dy.reserve(bytes);
    unsigned char* x = g_x.data(bytes);
    unsigned char* dy = bwd ? g_dy.data(bytes) : nullptr;
    unsigned char* out = g_out.data(bytes);
    if (!wire.bytes(x, bytes) || (bwd && !wire.bytes(dy, bytes))) die("end of input inside a request");
    std::size_t k = 0;
    while (!(all_ops()[k] == req->op)) ++k;  // every op is in all_ops()
    const Entry& e = entries[k];
    if (!e.present) {
      wire.send_line(protocol::format_answer({protocol::Answer::Kind::error, 0,
                                              op_name(req->op) + " is not provided"}));
      continue;
    }
    if (req->stride != 1) {
      wire.send_line(protocol::format_answer(
          {protocol::Answer::Kind::error, 0, "the C ABI takes contiguous arrays only"}));
      continue;
    }
    x0.assign(x, x + bytes);
    if (bwd) dy0.assign(dy, dy + bytes);
    std::memset(out, 0xff, bytes);
    g_symbol = e.symbol.c_str();
    invoke(e, req->op, x, dy, out, req->n);
    g_symbol = "";
    std::size_t i = first_change(x0.data(), x, req->n, esize);
    const char* which = "x";
    if (i == std::string::npos && bwd) {
      i = first_change(dy0.data(), dy, req->n, esize);
      which = "dy";
    }
    if (i != std::string::npos) {
      const double was = load(req->op.format, bwd && which[0] == 'd' ? dy0.data() : x0.data(), i);
      const double now = load(req->op.format, which[0] == 'd' ? dy : x, i);
      // The results were computed before (or while) the input was written: still the library's
      // answer for these inputs, so they travel with the finding and are measured.
      wire.send_line(protocol::format_answer(
          {protocol::Answer::Kind::ok_wrote_input, req->n,
           e.symbol + " changed " + which + "[" + std::to_string(i) + "] from " + hexfloat(was) +
               " to " + hexfloat(now)}));
      wire.send(out, bytes);
      continue;
    }
    wire.send_line(protocol::format_answer({protocol::Answer::Kind::ok, req->n, {}}));
    wire.send(out, bytes);
  }
  return 0;
}
