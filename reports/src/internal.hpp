// Shared between the files of reports/src; not part of the public API.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gelucheck/render.hpp"
#include "gelucheck/report.hpp"

namespace gelucheck::report {

// The PNG files draw_plots makes, in a fixed order.
std::vector<std::string> plot_files(const Report& rep);
// Writes the gnuplot data and scripts into dir and runs gnuplot there; returns the PNG names.
// Throws std::runtime_error when gnuplot fails.
std::vector<std::string> draw_plots(const Report& r, const std::string& dir);

// Text shared by the renderers (text.cpp). A report.json number (or "inf"/"-inf"/"nan", or null:
// "–") as %.<digits>g, or %.<digits>f when fixed.
std::string fmt_num(const nlohmann::ordered_json& v, int digits = 3, bool fixed = false);
// An ulp error: 3 digits, but near a claim's boundary (0.5, 1) the fewest that show which side of
// it the error is on: measure() reports a result that is not correctly rounded as at least
// nextafter(0.5, 1), printed "0.5000000000000001".
std::string fmt_ulp(const nlohmann::ordered_json& v);
// `s` escaped for XML and HTML, in text and in quoted attributes (& < > " ').
std::string xml(const std::string& s);
// The defect kinds of report.json subject `sj` that touch `op` ("nan, flush"; "–": none), and the
// op name of an accuracy[] row ("tanh.forward.f32"): the at-a-glance table's cells.
std::string kinds_for(const nlohmann::ordered_json& sj, const std::string& op);
std::string op_name_of(const nlohmann::ordered_json& row);

}  // namespace gelucheck::report
