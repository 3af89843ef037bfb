// Plots, drawn by gnuplot (Debian's gnuplot-nox has the pngcairo terminal). The data and the
// scripts are kept beside the PNGs in plot-data/, so anyone can redraw or restyle them:
//   cd DIR && gnuplot plot-data/<name>.gp
//
// ulp error against x: the inputs in [-40, 10] (grid and hard points) grouped into bins of width
// 0.05 (Row::plot_envelope), each drawn at its largest error, so no worst case is hidden by thinning; errors of 0 are
// drawn at 1e-4 (the log axis has no 0), infinite ones at 1e30.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "gelucheck/process.hpp"
#include "internal.hpp"

namespace gelucheck::report {

std::vector<std::string> plot_files(const Report& rep) {
  std::vector<std::string> files;
  for (const char* kind : {"ulp_", "hist_"})
    for (Format fmt : rep.options.formats) files.push_back(kind + std::string(name(fmt)) + ".png");
  files.push_back("gap.png");
  return files;
}

namespace {

constexpr double kZeroAt = 1e-4, kInfAt = 1e30;

std::ofstream open_out(const std::string& path) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f.precision(17);
  return f;
}

// Subjects are named by their index in file names (a spec may hold '/', ':' or spaces).
std::string stem(const Row& r) {
  return std::string(name(r.format)) + "_" + std::string(name(r.form)) + "_" +
         std::string(name(r.quantity)) + "_s" + std::to_string(r.subject);
}

// A spec as a gnuplot title: single quotes doubled.
std::string title(const std::string& spec) {
  std::string t;
  for (char c : spec) t += c == '\'' ? std::string("''") : std::string(1, c);
  return t;
}

const char* const kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                "#8c564b", "#e377c2", "#7f7f7f"};

void write_envelope(const Row& r, const std::string& path) {
  auto f = open_out(path);
  f << "# x(bin centre)  max ulp error in the bin (0 drawn at 1e-4, inf at 1e30)\n";
  for (std::size_t b = 0; b < r.plot_envelope.size(); ++b) {
    const double u = r.plot_envelope[b];
    if (u < 0) continue;  // no input in the bin
    // max(u, 1e-4) draws 0 at 1e-4; the map is nondecreasing, so the bin's max maps to its max.
    f << kPlotLo + (static_cast<double>(b) + 0.5) * kPlotBin << " "
      << (std::isinf(u) ? kInfAt : std::max(u, kZeroAt)) << "\n";
  }
}

void write_histogram(const Row& r, const std::string& path) {
  auto f = open_out(path);
  f << "# k  count of errors in (2^(k-1), 2^k]; k = " << kHistLo - 2 << " holds the zero errors, "
    << kHistHi + 2 << " the infinite ones\n";
  f << kHistLo - 2 << " " << r.histogram.zero << "\n";
  for (std::size_t i = 0; i < r.histogram.bins.size(); ++i)
    f << kHistLo + static_cast<int>(i) << " " << r.histogram.bins[i] << "\n";
  f << kHistHi + 2 << " " << r.histogram.infinite << "\n";
}

void panel_script(std::ofstream& gp, const Report& rep, Format fmt, bool histogram) {
  for (Form form : {Form::tanh, Form::erf})
    for (Quantity q : {Quantity::value, Quantity::derivative}) {
      // Every subject measured in this format, the later ones drawn first so that the first
      // subject (the one the report is about) is on top where they coincide.
      std::vector<const Row*> rows;
      for (const Row& r : rep.rows)
        if (r.format == fmt && r.form == form && r.quantity == q && r.against == form) rows.push_back(&r);
      if (rows.empty()) continue;
      gp << "set title '" << name(form) << " " << name(q) << " (" << type_name(fmt) << ")'\n";
      gp << "plot ";
      for (std::size_t k = rows.size(); k-- > 0;) {
        const Row& r = *rows[k];
        const char* colour = kColours[r.subject % std::size(kColours)];
        const std::string t = title(rep.subjects[r.subject].spec);
        if (histogram)
          gp << "'plot-data/hist_" << stem(r) << ".dat' using 1:($2>0?$2:NaN) with steps lw 2 lc rgb '"
             << colour << "' title '" << t << "', ";
        else
          gp << "'plot-data/ulp_" << stem(r) << ".dat' with points pt 7 ps 0.4 lc rgb '" << colour
             << "' title '" << t << "', ";
      }
      // The claim of the first subject, where it is an ulp bound.
      const Row& first = *rows.front();
      if (!histogram && first.claim && first.claim->kind == Claim::Kind::ulp)
        gp << first.claim->max_ulp << " with lines dt 2 lc rgb 'black' title 'claim of "
           << title(rep.subjects[first.subject].spec) << ": " << first.claim->max_ulp << " ulp', ";
      gp << "1/0 notitle\n";
    }
}

}  // namespace

std::vector<std::string> draw_plots(const Report& rep, const std::string& dir) {
  namespace fs = std::filesystem;
  const std::string data = dir + "/plot-data";
  fs::create_directories(data);
  std::vector<std::string> scripts;
  for (Format fmt : rep.options.formats) {
    for (const Row& r : rep.rows) {
      if (r.format != fmt || r.against != r.form) continue;
      write_envelope(r, data + "/ulp_" + stem(r) + ".dat");
      write_histogram(r, data + "/hist_" + stem(r) + ".dat");
    }
    const std::string f = std::string(name(fmt));
    {
      const std::string gpname = "plot-data/ulp_" + f + ".gp";
      auto gp = open_out(dir + "/" + gpname);
      gp << "set terminal pngcairo size 1400,1000 font ',10'\nset output 'ulp_" << f << ".png'\n"
         << "set multiplot layout 2,2 title 'ulp error against x, " << f
         << " (max per bin of width 0.05; 0 drawn at 1e-4), seed " << rep.options.seed << "'\n"
         << "set logscale y\nset format y '10^{%L}'\nset xrange [-40:10]\nset grid\n"
         << "set xlabel 'x'\nset ylabel 'ulp error'\nset key top left\n";
      panel_script(gp, rep, fmt, false);
      gp << "unset multiplot\n";
      scripts.push_back(gpname);
    }
    {
      const std::string gpname = "plot-data/hist_" + f + ".gp";
      auto gp = open_out(dir + "/" + gpname);
      gp << "set terminal pngcairo size 1400,1000 font ',10'\nset output 'hist_" << f << ".png'\n"
         << "set multiplot layout 2,2 title 'histogram of ulp errors, " << f << ", all "
         << (fmt == Format::binary64   ? rep.inputs64.total
             : fmt == Format::binary32 ? rep.inputs32.total
             : fmt == Format::binary16 ? rep.inputs16.total
                                       : rep.inputsbf16.total)
         << " inputs'\n"
         << "set logscale y\nset grid\nset xlabel 'k: error in (2^{k-1}, 2^k]  (" << kHistLo - 2
         << ": zero, " << kHistHi + 2 << ": infinite)'\nset ylabel 'inputs'\nset key top right\n"
         << "set xrange [" << kHistLo - 3 << ":" << kHistHi + 3 << "]\n";
      panel_script(gp, rep, fmt, true);
      gp << "unset multiplot\n";
      scripts.push_back(gpname);
    }
  }
  {
    auto f = open_out(data + "/gap.dat");
    f << "# x  (tanh - erf) value  (tanh - erf) derivative, exact (MPFR)\n";
    for (std::size_t i = 0; i < rep.gap.curve_x.size(); ++i)
      f << rep.gap.curve_x[i] << " " << rep.gap.curve_value[i] << " " << rep.gap.curve_derivative[i] << "\n";
    auto gp = open_out(dir + "/plot-data/gap.gp");
    gp.precision(17);
    gp << "set terminal pngcairo size 1400,600 font ',10' noenhanced\nset output 'gap.png'\n"
       << "set multiplot layout 1,2 title 'tanh form - erf form (exact, from the MPFR reference)'\n"
       << "set grid\nset xlabel 'x'\nset xrange [" << rep.gap.curve_lo << ":" << rep.gap.curve_hi << "]\n"
       << "set title 'value gap: sup " << rep.gap.value.sup_decimal << " at |x| = " << rep.gap.value.at << "'\n"
       << "plot 'plot-data/gap.dat' using 1:2 with lines lw 2 title 'gelu_tanh(x) - gelu_erf(x)'\n"
       << "set title 'derivative gap: sup " << rep.gap.derivative.sup_decimal << " at |x| = "
       << rep.gap.derivative.at << "'\n"
       << "plot 'plot-data/gap.dat' using 1:3 with lines lw 2 lc rgb '#d62728' "
          "title \"gelu_tanh'(x) - gelu_erf'(x)\"\nunset multiplot\n";
    scripts.push_back("plot-data/gap.gp");
  }
  for (const std::string& s : scripts) {
    const process::Exit rc = process::run({{"gnuplot", s}, dir, {}}, data + "/gnuplot.log");
    if (!rc.ok()) {
      std::ifstream logf(data + "/gnuplot.log");
      std::string log((std::istreambuf_iterator<char>(logf)), std::istreambuf_iterator<char>());
      throw std::runtime_error("gnuplot failed on " + s + " (" + rc.why + "): " +
                               log.substr(log.size() > 600 ? log.size() - 600 : 0) +
                               " — install gnuplot-nox or pass --no-plots");
    }
  }
  fs::remove(data + "/gnuplot.log");
  return plot_files(rep);
}

}  // namespace gelucheck::report
