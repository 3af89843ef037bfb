// Writing the report directory through output::Writer (gelucheck/output_dir.hpp): everything goes
// into a fresh directory beside --out, swapped into place only when complete, and only over a
// directory gelucheck wrote; a failure or a signal never leaves a half-written report.
#include "gelucheck/output_dir.hpp"

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "internal.hpp"

namespace gelucheck::report {

void check_writable(const std::string& out) { output::check(out); }

std::vector<std::string> write(const Report& r, const std::string& out) {
  output::Writer w(out, "gelucheck report");
  try {
    if (r.options.plots) draw_plots(r, w.dir());
    const nlohmann::ordered_json j = to_json(r);
    w.write_file("report.json", j.dump(2) + "\n");
    w.write_file("report.md", to_markdown(j));
    w.write_file("report-details.md", to_markdown_details(j));
    // The PNGs were drawn into the writer's directory above: read back to be inlined, so that
    // report.html is one file that shows everything (a CI artifact viewer opens one file).
    std::vector<std::pair<std::string, std::string>> pngs;
    for (const auto& name : j["plots"]) {
      const std::string path = w.dir() + "/" + name.get<std::string>();
      std::ifstream in(path, std::ios::binary);
      if (!in) throw std::runtime_error("cannot read the plot " + path);
      std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      pngs.emplace_back(name.get<std::string>(), std::move(bytes));
    }
    w.write_file("report.html", to_html(j, pngs));
    // The batch of each batch-dependent finding, where its defect's reproducer reads it.
    for (std::size_t s = 0; s < r.subjects.size(); ++s)
      for (const subject::Finding& f : r.subjects[s].findings)
        if (f.alone == subject::Finding::Alone::needs_batch && !f.batch_x.empty())
          subject::save_batch(f, w.dir() + "/" + batch_dir(s, f));
    w.commit();
  } catch (const output::Refused&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error("writing the report to " + w.target() + ": " + e.what());
  }
  return w.notes();
}

}  // namespace gelucheck::report
