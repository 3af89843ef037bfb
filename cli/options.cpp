// Option words shared by the subcommands (options.hpp).
#include "options.hpp"

#include <cstdio>
#include <fstream>

namespace gelucheck::cli {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> v;
  std::size_t b = 0;
  for (;;) {
    const std::size_t e = s.find(',', b);
    v.push_back(s.substr(b, e == std::string::npos ? std::string::npos : e - b));
    if (e == std::string::npos) return v;
    b = e + 1;
  }
}

std::string parse_formats_and_functions(const std::string& formats, const std::string& functions,
                                        std::vector<Format>& fmts,
                                        std::vector<subject::Function>& fns) {
  fmts.clear();
  for (const std::string& f : split(formats)) {
    const std::optional<Format> fmt = subject::parse_dtype(f);
    if (!fmt) return "--formats: unknown format \"" + f + "\" (f64, f32, bf16, f16)";
    fmts.push_back(*fmt);
  }
  fns.clear();
  for (const std::string& f : split(functions)) {
    const std::optional<subject::Function> fn = subject::parse_function(f);
    if (!fn)
      return "--functions: unknown function \"" + f +
             "\" (tanh.value, tanh.derivative, erf.value, erf.derivative)";
    fns.push_back(*fn);
  }
  if (fmts.empty() || fns.empty()) return "--formats and --functions must name at least one each";
  return "";
}

bool write_whole_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp-gelucheck";
  std::ofstream f(tmp, std::ios::binary);
  f << text;
  f.close();
  if (!f || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace gelucheck::cli
