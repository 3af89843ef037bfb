// What `gelucheck report` and `gelucheck check` share: run the campaign on the subjects, write the
// report directory (and JUnit XML), print the verdict, return the exit code (docs/cli.md).
#include <cstdio>
#include <fstream>
#include <string>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "options.hpp"
#include "gelucheck/output_dir.hpp"
#include "gelucheck/render.hpp"
#include "gelucheck/report.hpp"
#include "gelucheck/resources.hpp"

namespace gelucheck::cli {
namespace {

// Refuses (usage, exit 2) a run that will not fit in memory, saying how much it needs; says how
// long it will take when that is long, or on a terminal.
int check_resources(const report::Options& opt, const char* who) {
  const report::Estimate est = report::estimate(opt);
  const AvailableMemory avail = available_memory(opt.threads);
  if (est.bytes > avail.bytes) {
    std::fprintf(stderr, "%s: --points %zu needs about %s of memory (8 bytes per input and about "
                 "32 MiB besides), but %s is %s; ask for fewer points\n", who, opt.points,
                 mebibytes(est.bytes).c_str(), avail.source.c_str(), mebibytes(avail.bytes).c_str());
    return kExitUsage;
  }
  constexpr double kLong = 3600;  // a run this long is said even without a terminal
  if (opt.progress || est.seconds > kLong)
    std::fprintf(stderr, "%s: about %s of work on %u thread(s) (estimated from --points; the "
                 "property suite, the plots and slow subjects come on top), %s of memory%s\n", who,
                 report::describe_seconds(est.seconds).c_str(), opt.threads,
                 mebibytes(est.bytes).c_str(),
                 est.seconds > kLong ? "; SIGINT or SIGTERM stops it cleanly" : "");
  return kExitOk;
}

}  // namespace

int run_report(const report::Options& opt, const RunTargets& t) {
  const char* who = opt.command.c_str();
  if (const int rc = check_resources(opt, who); rc != kExitOk) return rc;
  auto say = [who](const std::exception& e, int rc) {
    std::fprintf(stderr, "%s: %s\n", who, e.what());
    return rc;
  };
  try {
    report::check_writable(t.out);  // fail before the campaign, not after it
  } catch (const output::Refused& e) {
    return say(e, kExitUsage);  // not gelucheck's to replace: choose another --out
  } catch (const std::exception& e) {
    return say(e, kExitFailure);
  }
  report::Report rep;
  try {
    rep = report::run(opt);
  } catch (const subject::SpecError& e) {
    return say(e, e.kind == subject::SpecError::Kind::usage ? kExitUsage : kExitFailure);
  }
  return finish_report(rep, t);
}

int finish_report(const report::Report& rep, const RunTargets& t) {
  const report::Options& opt = rep.options;
  const char* who = opt.command.c_str();
  auto say = [who](const std::exception& e, int rc) {
    std::fprintf(stderr, "%s: %s\n", who, e.what());
    return rc;
  };
  try {
    for (const std::string& note : report::write(rep, t.out))
      std::fprintf(stderr, "%s: %s\n", who, note.c_str());
  } catch (const output::Refused& e) {
    return say(e, kExitUsage);
  } catch (const std::exception& e) {
    return say(e, kExitFailure);
  }
  if (!t.junit.empty() && !write_whole_file(t.junit, report::to_junit(rep))) {
    std::fprintf(stderr, "%s: cannot write the JUnit XML to %s\n", who, t.junit.c_str());
    return kExitFailure;
  }

  std::printf("%s: wrote %s/report.html or %s/report.md (read one), %s/report.json (schema %s)%s%s%s\n",
              who, t.out.c_str(), t.out.c_str(), t.out.c_str(), report::kSchema, opt.plots ? " and the plots (*.png)" : "",
              t.junit.empty() ? "" : ", JUnit XML to ", t.junit.c_str());
  for (const report::SubjectResult& s : rep.subjects) {
    if (opt.properties && s.properties.status != "run")
      std::printf("%s: %s: properties NOT run (%s): %s\n", who, s.spec.c_str(),
                  s.properties.status.c_str(), s.properties.reason.c_str());
    if (!s.not_measured.empty()) {
      std::string ops;
      for (const std::string& p : s.provides) ops += (ops.empty() ? "" : ", ") + p;
      std::printf("%s: %s provides %zu of %zu ops (%s); the others are not measured (report.md "
                  "says why)\n",
                  who, s.spec.c_str(), s.provides.size(), subject::all_ops().size(),
                  ops.empty() ? "none" : ops.c_str());
    }
  }
  if (rep.gate_failures.empty()) {
    std::printf("%s: every claim holds%s\n", who,
                opt.properties ? " and every property that ran on a gated subject passed" : "");
    return kExitOk;
  }
  std::FILE* to = t.gate ? stderr : stdout;
  std::fflush(stdout);
  std::fprintf(to, "%s: %zu gate failure(s):\n", who, rep.gate_failures.size());
  for (const std::string& f : rep.gate_failures) std::fprintf(to, "  %s\n", f.c_str());
  return t.gate ? kExitGate : kExitOk;
}

}  // namespace gelucheck::cli
