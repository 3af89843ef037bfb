// gelucheck-certify — writes and checks the certificates of certify/certificates/gelu.json
// (gelucheck/certify.hpp; docs/lean.md states what they prove).
//
//   gelucheck-certify generate --out certify/certificates/gelu.json   the search (about a minute)
//   gelucheck-certify check certify/certificates/gelu.json            re-proves every certificate
//   gelucheck-certify lean certify/certificates/gelu.json [--update docs/lean.md]
//                     the statements in Lean's words (printed, or written between the markers)
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>

#include "gelucheck/certify.hpp"

int main(int argc, char** argv) {
  CLI::App app{"Certified facts about gelu_tanh and gelu_erf over all reals (Arb ball arithmetic)"};
  app.require_subcommand(1);
  std::string out, in;
  CLI::App* gen = app.add_subcommand("generate", "Run the searches and write the certificate file");
  gen->add_option("--out", out, "The certificate file to write")->required();
  CLI::App* chk = app.add_subcommand("check", "Re-verify every certificate of a file; exit 1 if any fails");
  chk->add_option("file", in, "The certificate file")->required();
  std::string update;
  CLI::App* lean = app.add_subcommand("lean", "Print the certified statements in Lean's words");
  lean->add_option("file", in, "The certificate file")->required();
  lean->add_option("--update", update, "Write them into this markdown file between its markers instead");
  CLI11_PARSE(app, argc, argv);

  namespace cert = gelucheck::certify;
  if (*gen) {
    std::string log;
    nlohmann::json j;
    try {
      j = cert::generate("cmake --build build --target certificates (runs gelucheck-certify "
                         "generate --out certify/certificates/gelu.json)",
                         &log);
    } catch (const std::exception& e) {
      std::cerr << "gelucheck-certify: the search failed: " << e.what() << "\n";
      return 1;
    }
    std::cerr << log;
    const cert::CheckResult r = cert::check(j);  // never write what does not check
    if (!r.ok()) {
      for (const std::string& e : r.errors) std::cerr << "gelucheck-certify: " << e << "\n";
      return 1;
    }
    std::ofstream f(out);
    f << j.dump(1) << "\n";
    f.close();
    if (!f) {
      std::cerr << "gelucheck-certify: cannot write " << out << "\n";
      return 1;
    }
    std::cerr << "wrote " << out << ": " << r.boxes << " boxes, " << r.roots << " critical points, "
              << r.facts << " facts\n";
    return 0;
  }
  std::ifstream f(in);
  std::stringstream ss;
  ss << f.rdbuf();
  nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, false);
  if (!f || j.is_discarded()) {
    std::cerr << "gelucheck-certify: " << in << " is not a readable JSON file\n";
    return 1;
  }
  if (*lean) {
    const std::string text = cert::lean_statements(j);
    if (update.empty()) {
      std::cout << text;
      return 0;
    }
    std::ifstream d(update);
    std::stringstream ds;
    ds << d.rdbuf();
    std::string doc = ds.str();
    const std::size_t b = doc.find(cert::kLeanBegin), e = doc.find(cert::kLeanEnd);
    if (!d || b == std::string::npos || e == std::string::npos || e < b) {
      std::cerr << "gelucheck-certify: " << update << " has no " << cert::kLeanBegin << " ... "
                << cert::kLeanEnd << " section\n";
      return 1;
    }
    const std::size_t from = b + std::string(cert::kLeanBegin).size();
    doc.replace(from, e - from, "\n" + text);
    std::ofstream o(update);
    o << doc;
    o.close();
    return o ? 0 : 1;
  }
  const cert::CheckResult r = cert::check(j);
  for (const std::string& e : r.errors) std::cerr << "gelucheck-certify: " << e << "\n";
  std::cout << in << ": " << (r.ok() ? "every certificate holds" : "CERTIFICATE FAILS") << " ("
            << r.boxes << " boxes, " << r.roots << " critical points, " << r.facts << " facts)\n";
  return r.ok() ? 0 : 1;
}
