// Shared between the files of reports/src; not part of the public API.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "gelucheck/report.hpp"

namespace gelucheck::report {

struct Progress {
  bool enabled = false;
  void show(const char* what, std::size_t done, std::size_t total) const;
};

// Runs body(i) for i in [0, n) on `threads` threads (the caller's included); rethrows the first
// exception. body must only write state owned by index i.
void parallel_for(std::size_t n, unsigned threads, const Progress& progress, const char* what,
                  const std::function<void(std::size_t)>& body);

// The neighbour of x (a value of fmt) in fmt, in the direction of `toward`.
double next_in(Format fmt, double x, double toward);

// The implementation under test at x (a value of fmt), as a double holding the fmt result.
double evaluate(Path p, Form f, Quantity q, Format fmt, double x);

std::vector<Row> campaign(Format fmt, const std::vector<double>& xs, const Options& opt,
                          const Progress& progress);
Gap tanh_erf_gap(const Options& opt, const Progress& progress);
// Runs the property suite (unless Options say not to) in a scratch directory of its own, removed
// afterwards.
Properties run_properties(const Options& opt);

// The PNG files draw_plots makes, in a fixed order.
const std::vector<std::string>& plot_files();
// Writes the gnuplot data and scripts into dir and runs gnuplot there; returns the PNG names.
// Throws std::runtime_error when gnuplot fails.
std::vector<std::string> draw_plots(const Report& r, const std::string& dir);

}  // namespace gelucheck::report
