// fake_subject MODE [FILE] — a cmd: subject that misbehaves on purpose, for process_test.cpp.
// Every mode but the handshake ones says it provides tanh.forward.f64 and erf.forward.f64 and
// answers tanh.forward.f64 with y = x (honestly); MODE decides what happens on erf.forward.f64:
//   echo           answered like tanh (y = x)
//   garbage        the answer line "hello"
//   wrong_count    "ok N+1" and N+1 elements
//   short          "ok N", half the elements, then exit(0)
//   exit           exits with status 3 right after reading the request
//   abort          writes "fake_subject: about to abort" to stderr, then abort()
//   error          "error something went wrong" (and it keeps serving)
//   hang           never answers
//   close          closes its stdout and sleeps
//   long_line      an answer line of 100000 'x'
//   writes         "ok N wrote_input ..." and N elements y = x (a write into x, results given)
// Handshake modes:
//   bad_handshake  first line "hello"
//   no_handshake   sleeps without a word
//   no_ops         a valid handshake providing nothing
//   changes FILE   the first run creates FILE; a run that finds it provides only tanh.forward.f64;
//                  erf is answered as in mode error
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

void out(const void* p, std::size_t n) {
  const auto* c = static_cast<const char*>(p);
  while (n > 0) {
    const ssize_t w = write(1, c, n);
    if (w <= 0) std::exit(1);
    c += w;
    n -= static_cast<std::size_t>(w);
  }
}
void line(const std::string& s) {
  const std::string l = s + "\n";
  out(l.data(), l.size());
}
bool in_line(std::string& l) {
  l.clear();
  char c;
  for (;;) {
    const ssize_t r = read(0, &c, 1);
    if (r <= 0) return false;
    if (c == '\n') return true;
    l += c;
  }
}
bool in_bytes(void* p, std::size_t n) {
  auto* c = static_cast<char*>(p);
  while (n > 0) {
    const ssize_t r = read(0, c, n);
    if (r <= 0) return false;
    c += r;
    n -= static_cast<std::size_t>(r);
  }
  return true;
}
[[noreturn]] void sleep_forever() {
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "echo";
  if (mode == "bad_handshake") {
    line("hello");
    sleep_forever();
  }
  if (mode == "no_handshake") sleep_forever();
  std::string provides = R"(["tanh.forward.f64","erf.forward.f64"])";
  if (mode == "no_ops") provides = "[]";
  if (mode == "changes" && argc > 2) {
    if (access(argv[2], F_OK) == 0) {
      provides = R"(["tanh.forward.f64"])";
    } else if (FILE* f = std::fopen(argv[2], "w")) {
      std::fclose(f);
    }
  }
  line(R"({"protocol":"gelucheck-subject/1","name":"fake_subject )" + mode +
       R"(","provides":)" + provides + "}");

  std::string req;
  while (in_line(req)) {
    if (req == "quit") return 0;
    // "forward FORM f64 N": this fake serves binary64 forwards only.
    char form[16] = {0};
    std::size_t n = 0;
    if (std::sscanf(req.c_str(), "forward %15s f64 %zu", form, &n) != 2) {
      std::fprintf(stderr, "fake_subject: cannot serve \"%s\"\n", req.c_str());
      return 2;
    }
    std::vector<double> x(n);
    if (!in_bytes(x.data(), n * 8)) return 2;
    const bool special = std::strcmp(form, "erf") == 0;
    if (!special || mode == "echo") {
      line("ok " + std::to_string(n));
      out(x.data(), n * 8);
    } else if (mode == "garbage") {
      line("hello");
    } else if (mode == "wrong_count") {
      line("ok " + std::to_string(n + 1));
      x.push_back(0);
      out(x.data(), x.size() * 8);
    } else if (mode == "short") {
      line("ok " + std::to_string(n));
      out(x.data(), n * 4);
      return 0;
    } else if (mode == "exit") {
      return 3;
    } else if (mode == "abort") {
      std::fprintf(stderr, "fake_subject: about to abort\n");
      std::abort();
    } else if (mode == "error" || mode == "changes") {
      line("error something went wrong");
    } else if (mode == "hang") {
      sleep_forever();
    } else if (mode == "close") {
      close(1);
      sleep_forever();
    } else if (mode == "long_line") {
      line(std::string(100000, 'x'));
    } else if (mode == "writes") {
      line("ok " + std::to_string(n) + " wrote_input fake_subject changed x[0]");
      out(x.data(), n * 8);
    }
  }
  return 0;
}
