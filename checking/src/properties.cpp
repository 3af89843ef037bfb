// The property suite's outcome: gelucheck_proptests (GoogleTest + RapidCheck, proptests/) run as a
// subprocess with --gtest_output=json, its JSON and log read back. Each test records the Lean
// theorem it mirrors as the GoogleTest property "lean" (and may record "cases").
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "gelucheck/cleanup.hpp"
#include "gelucheck/process.hpp"
#include "internal.hpp"

#ifndef GELUCHECK_DEFAULT_PROPTESTS
#define GELUCHECK_DEFAULT_PROPTESTS ""
#endif

namespace gelucheck::report {

const std::vector<std::string>& lean_theorems() {
  // Every theorem of LeanMlir.Proofs.Architectures.GeluForm (docs/properties.md, "The Lean
  // theorems"), in the order of that page; hasVJP is a definition whose `correct`
  // field is hasVJP_correct, listed for traceability all the same.
  static const std::vector<std::string> names = {
      "Proofs.GeluForm.scalar_tanh",         "Proofs.GeluForm.scalar_erf",
      "Proofs.GeluForm.scalar_differentiable", "Proofs.GeluForm.scalarDeriv_tanh",
      "Proofs.GeluForm.scalarDeriv_erf",     "Proofs.GeluForm.map_tanh",
      "Proofs.GeluForm.map_erf",             "Proofs.GeluForm.map_differentiable",
      "Proofs.GeluForm.pdiv_map",            "Proofs.GeluForm.hasVJP",
      "Proofs.GeluForm.hasVJP_tanh",         "Proofs.GeluForm.hasVJP_erf",
      "Proofs.GeluForm.hasVJP_correct"};
  return names;
}

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::optional<std::uint64_t> first_count(const std::string& text, const std::regex& re) {
  std::smatch m;
  if (std::regex_search(text, m, re)) return std::stoull(m[1].str());
  return std::nullopt;
}

// Cases per test from the log: RapidCheck prints "OK, passed N tests" after a passing property
// that classifies its cases (RC_TAG/RC_CLASSIFY); several properties in one test add up.
std::map<std::string, std::uint64_t> cases_from_log(const std::string& log) {
  static const std::regex run(R"(^\[ RUN +\] (\S+))");
  static const std::regex passed(R"(OK, passed (\d+) tests)");
  std::map<std::string, std::uint64_t> cases;
  std::istringstream in(log);
  std::string line, current;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, run)) current = m[1].str();
    else if (!current.empty() && std::regex_search(line, m, passed))
      cases[current] += std::stoull(m[1].str());
  }
  return cases;
}

// A fresh directory under the system's temporary one, registered with cleanup (a signal removes
// it; a run killed with SIGKILL leaves it to the next run's sweep), removed on scope exit.
struct Scratch {
  cleanup::TempDir dir;
  Scratch() {
    const std::string tmp = std::filesystem::temp_directory_path().string();
    cleanup::sweep_stale(tmp);
    dir = cleanup::make_temp_dir(tmp, "gelucheck-proptests");
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() { cleanup::remove_temp_dir(dir); }
};

std::string property_string(const nlohmann::json& t, const char* key) {
  if (!t.contains(key)) return "";
  const auto& v = t[key];
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// GoogleTest's JSON printer (JsonUnitTestResultPrinter::EscapeJson, 1.12) compares each `char`
// with ' ' where char is signed, so it writes every byte >= 0x80 of a message as "\u00XX": parsed
// back, each byte of the UTF-8 has become the code point U+00XX, and "·" (C2 B7) the two
// characters "Â·" (C3 82 C2 B7) in every report file. This turns such a string back into the bytes
// the suite wrote. A string holding a code point above U+00FF, or whose bytes would not be UTF-8,
// did not come from that escaping (a GoogleTest writing UTF-8 as it is) and is kept as it is.
std::string gtest_bytes(const std::string& s) {
  std::string bytes;
  bytes.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      bytes += s[i];
    } else if ((c == 0xC2 || c == 0xC3) && i + 1 < s.size()) {  // U+0080 ... U+00FF
      bytes += static_cast<char>(((c & 0x03) << 6) | (static_cast<unsigned char>(s[++i]) & 0x3F));
    } else {
      return s;
    }
  }
  try {
    (void)nlohmann::json(bytes).dump();  // throws on bytes that are not UTF-8
  } catch (const nlohmann::json::type_error&) {
    return s;
  }
  return bytes;
}

void undo_gtest_byte_escapes(nlohmann::json& j) {
  if (j.is_string()) j = gtest_bytes(j.get_ref<const std::string&>());
  else if (j.is_structured())
    for (auto& v : j) undo_gtest_byte_escapes(v);
}

}  // namespace

Properties run_properties(const Options& opt, const std::string& spec,
                          const std::vector<std::string>& claims) {
  Properties p;
  if (!opt.properties) {
    p.status = "skipped";
    p.reason = "--no-properties";
    return p;
  }
  // An installed gelucheck has the suite beside it (both in bin/); one run from its build tree
  // has the build's.
  const std::string beside = process::self_dir() + "/gelucheck_proptests";
  const std::string found = access(beside.c_str(), X_OK) == 0 ? beside : GELUCHECK_DEFAULT_PROPTESTS;
  p.executable = opt.proptests.empty() ? found : opt.proptests;
  if (p.executable.empty()) {
    p.status = "unavailable";
    p.reason = "gelucheck was built without the property suite (gelucheck_proptests); pass "
               "--proptests PATH or --no-properties";
    return p;
  }
  if (access(p.executable.c_str(), X_OK) != 0) {
    p.status = "unavailable";
    p.reason = "no executable at " + p.executable + " (build the target gelucheck_proptests, or "
               "pass --proptests PATH or --no-properties)";
    return p;
  }
  const Scratch scratch;
  const std::string json_path = scratch.dir.path + "/proptests.json";
  const std::string log_path = scratch.dir.path + "/proptests.log";
  std::vector<std::string> env;
  // The report's seed drives RapidCheck too (same seed, same cases), unless the user set RC_PARAMS.
  if (const char* user = getenv("RC_PARAMS")) {
    p.rc_params = user;
  } else {
    p.rc_params = "seed=" + std::to_string(opt.seed) + " max_success=" + std::to_string(opt.property_cases);
    env.push_back("RC_PARAMS=" + p.rc_params);
  }
  // The subject and its claims as the suite's own flags (docs/properties.md).
  std::vector<std::string> argv{p.executable, "--subject", spec};
  for (const std::string& c : claims) {
    argv.push_back("--claim");
    argv.push_back(c);
  }
  argv.push_back("--gtest_output=json:" + json_path);
  argv.push_back("--gtest_color=no");
  const process::Exit exit = process::run({argv, "", env}, log_path);
  p.exit_code = exit.shell_status();
  const std::string log = slurp(log_path);
  if (exit.kind == process::Exit::Kind::not_started) {
    p.status = "error";
    p.reason = exit.why;
    return p;
  }
  const std::string why = exit.kind == process::Exit::Kind::signalled ? exit.why : "";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(slurp(json_path));
    undo_gtest_byte_escapes(j);
  } catch (const std::exception& e) {
    p.status = "error";
    p.reason = "exit status " + std::to_string(p.exit_code) + (why.empty() ? "" : " (" + why + ")") +
               ", and no readable GoogleTest JSON at " + json_path + ": " + e.what() +
               "; last output: " + log.substr(log.size() > 400 ? log.size() - 400 : 0);
    return p;
  }
  const auto log_cases = cases_from_log(log);
  static const std::regex falsified(R"(Falsifiable after (\d+) tests)");
  for (const auto& suite : j.value("testsuites", nlohmann::json::array())) {
    for (const auto& t : suite.value("testsuite", nlohmann::json::array())) {
      PropertyTest pt;
      pt.suite = suite.value("name", "");
      pt.name = t.value("name", "");
      pt.lean = property_string(t, "lean");
      const std::string result = t.value("result", "");
      const std::string status = t.value("status", "");
      if (t.contains("failures") && !t["failures"].empty()) {
        pt.outcome = "fail";
        for (const auto& f : t["failures"]) {
          if (!pt.message.empty()) pt.message += "\n";
          pt.message += f.value("failure", "");
        }
      } else if (result == "SKIPPED" || status == "NOTRUN") {
        pt.outcome = "skipped";
      } else {
        pt.outcome = "pass";
      }
      if (const std::string c = property_string(t, "cases"); !c.empty()) {
        try { pt.cases = std::stoull(c); } catch (const std::exception&) {}
      }
      if (!pt.cases) {
        const std::string full = pt.suite + "." + pt.name;
        if (auto it = log_cases.find(full); it != log_cases.end()) pt.cases = it->second;
        else if (pt.outcome == "fail") pt.cases = first_count(pt.message, falsified);
      }
      p.tests.push_back(std::move(pt));
    }
  }
  p.status = "run";
  if (p.tests.empty()) {
    p.status = "error";
    p.reason = "the property suite ran no test (exit status " + std::to_string(p.exit_code) + ")";
  }
  return p;
}

}  // namespace gelucheck::report
