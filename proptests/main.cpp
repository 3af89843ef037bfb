// gelucheck_proptests — the property suite's entry point (docs/properties.md).
//
//   gelucheck_proptests [--subject SPEC] [--claim ITEM]... [gtest flags]
//       run every property against the subject SPEC (subject.hpp: accurate, naive, reference,
//       broken:NAME, lib:PATH, cmd:COMMAND..., npy:DIR); default accurate. Claims: the
//       subject's own, each --claim ITEM applied over them in order (FUNCTION@DT=CLAIM, see
//       docs/subjects.md); a subject that claims nothing and gets no --claim is held to the
//       framework default (Claim::framework_default) in every function and format.
//   gelucheck_proptests --list-subjects
//       the built-in subjects and broken variants, one a line: "SPEC<TAB>what it is"
//
// Environment: GELUCHECK_SUBJECT=SPEC when there is no --subject (GELUCHECK_IMPL, its old name,
// is read after it, with a note); RC_PARAMS is RapidCheck's (seed=, max_success=, reproduce=,
// noshrink=1, ...). When RC_PARAMS names no seed, the fixed default seed below is added, so that
// every run is reproducible unless asked not to be. Exit status: GoogleTest's (0 all passed or
// skipped, 1 some failed); 2 for a usage error or a subject that cannot be opened.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gelucheck/cleanup.hpp"
#include "support.hpp"

namespace {

constexpr const char* kDefaultSeed = "20240607";

void usage(std::ostream& os) {
  os << "usage: gelucheck_proptests [--subject SPEC] [--claim ITEM]... [--list-subjects] "
        "[gtest flags]\n"
        "  SPEC: accurate (default) | naive | reference | broken:NAME | lib:PATH | cmd:COMMAND "
        "| npy:DIR\n"
        "  ITEM: CLAIM | FUNCTION=CLAIM | FUNCTION@DT=CLAIM | @DT=CLAIM, CLAIM one of none, cr, "
        "faithful, ulp:N, allclose:atol=A,rtol=R\n";
}

void list_subjects() {
  using gelucheck::subject::open;
  for (const std::string& spec : gelucheck::subject::builtin_specs())
    std::cout << spec << '\t' << open(spec)->describe() << '\n';
  for (const std::string& name : gelucheck::subject::broken_names()) {
    const std::string spec = "broken:" + name;
    std::string what = "a parameterised broken variant (docs/subjects.md)";
    if (name.find_first_of("[:") == std::string::npos) what = open(spec)->describe();
    std::cout << spec << '\t' << what << '\n';
  }
}

// "--name VALUE" or "--name=VALUE" at argv[i]: the value, consuming what it used.
bool take(int argc, char** argv, int& i, const char* name, std::string& value) {
  const std::size_t n = std::strlen(name);
  if (std::strncmp(argv[i], name, n) != 0) return false;
  if (argv[i][n] == '=') {
    value = argv[i] + n + 1;
    return true;
  }
  if (argv[i][n] != '\0') return false;
  if (i + 1 >= argc) throw std::invalid_argument(std::string(name) + " needs a value");
  value = argv[++i];
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  // A signal ends the suite by that signal (cleanup.hpp), whatever RapidCheck was doing.
  gelucheck::cleanup::install();
  std::string spec;
  std::vector<std::string> claims;
  std::vector<char*> rest{argv[0]};
  try {
    for (int i = 1; i < argc; ++i) {
      std::string v;
      if (std::strcmp(argv[i], "--list-subjects") == 0) {
        list_subjects();
        return 0;
      }
      if (take(argc, argv, i, "--subject", v)) spec = v;
      else if (take(argc, argv, i, "--claim", v)) claims.push_back(v);
      else {
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) usage(std::cout);
        rest.push_back(argv[i]);
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "gelucheck_proptests: " << e.what() << '\n';
    usage(std::cerr);
    return 2;
  }
  if (spec.empty()) {
    if (const char* s = std::getenv("GELUCHECK_SUBJECT"); s && *s) {
      spec = s;
    } else if (const char* old = std::getenv("GELUCHECK_IMPL"); old && *old) {
      spec = old;
      std::cerr << "gelucheck_proptests: GELUCHECK_IMPL is deprecated; use --subject or "
                   "GELUCHECK_SUBJECT\n";
    } else {
      spec = gelucheck::subject::library_built() ? "accurate" : "reference";
    }
  }
  // RapidCheck reads RC_PARAMS on first use, after this point.
  const char* rc = std::getenv("RC_PARAMS");
  std::string params = rc ? rc : "";
  if (params.find("seed=") == std::string::npos) {
    params = "seed=" + std::string(kDefaultSeed) + (params.empty() ? "" : " " + params);
    setenv("RC_PARAMS", params.c_str(), 1);
  }
  try {
    gelucheck::prop::open_session(spec, claims);
  } catch (const std::exception& e) {
    std::cerr << "gelucheck_proptests: " << e.what() << '\n';
    return 2;
  }
  const gelucheck::prop::Session& s = gelucheck::prop::session();
  // A listing (--gtest_list_tests, as CTest's test discovery asks) is GoogleTest's output alone:
  // its reader takes every indented line for a test.
  bool listing = false;
  for (const char* a : rest) listing = listing || std::strcmp(a, "--gtest_list_tests") == 0;
  if (!listing) {
    std::cout << "gelucheck_proptests: subject " << s.subject->spec() << " ("
              << s.subject->describe() << "), RC_PARAMS=\"" << params << "\"\n"
              << "claims (" << s.claims_origin << "):\n";
    for (gelucheck::Format fmt : gelucheck::all_formats)
      for (const gelucheck::subject::Function fn : gelucheck::subject::all_functions) {
        const gelucheck::Claim c = s.claims.get(fn, fmt);
        if (c.claims_anything())
          std::cout << "  " << gelucheck::subject::function_name(fn) << '@'
                    << gelucheck::subject::dtype_name(fmt) << ": " << c.text << '\n';
      }
  }
  int gargc = static_cast<int>(rest.size());
  ::testing::InitGoogleTest(&gargc, rest.data());
  gelucheck::prop::register_tests();
  return RUN_ALL_TESTS();
}
