// `gelucheck check SPEC --exhaustive [--range LO:HI] [--shard K/N] [--failures N] [--restart]
// [--checkpoint-every S]` and `gelucheck merge OUT SHARD_DIR...` (docs/cli.md, "Exhaustive
// binary32"): the sweep of gelucheck/exhaustive.hpp, its checkpoint beside --out, its shard
// files, and under mpirun (a GELUCHECK_MPI build) its ranks gathered on rank 0.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "gelucheck/exhaustive.hpp"
#include "gelucheck/output_dir.hpp"
#include "gelucheck/render.hpp"
#include "gelucheck/report.hpp"
#include "mpi_ranks.hpp"

namespace gelucheck::cli {
namespace {

namespace fs = std::filesystem;
namespace ex = report::exhaustive;

constexpr const char* kShardFile = "shard.json";
// The checkpoint directory beside --out: `.NAME.checkpoint/`, holding this marker (so that a
// directory of that name gelucheck did not make is never written into) and one
// `checkpoint-K-of-N.json` per part. Not a `.NAME.tmp-XXXXXX`: a later run's sweep of stale
// temporary directories must leave it, since it is what that run resumes from.
constexpr const char* kCheckpointMarker = ".gelucheck-checkpoint";
constexpr const char* kCheckpointMarkerText = "gelucheck.checkpoint/1\n";

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

struct CheckpointPlace {
  fs::path dir, file;
};

// Where the checkpoint of this part goes; makes the directory (with its marker) if missing.
// Throws output::Refused when a path of that name exists and is not ours.
CheckpointPlace checkpoint_place(const std::string& out, ex::Shard part) {
  fs::path target = fs::absolute(out).lexically_normal();
  if (target.filename().empty()) target = target.parent_path();
  const fs::path dir = target.parent_path() / ("." + target.filename().string() + ".checkpoint");
  const fs::path marker = dir / kCheckpointMarker;
  struct stat st{};
  if (lstat(dir.c_str(), &st) != 0) {
    // Made whole under another name, then renamed into place: the directory never exists
    // without its marker (several ranks of one sweep may do this at once; one rename wins).
    const fs::path tmp = dir.string() + ".new" + std::to_string(getpid());
    std::error_code ec;
    fs::create_directory(tmp, ec);
    std::ofstream(tmp / kCheckpointMarker, std::ios::binary) << kCheckpointMarkerText;
    if (ec || std::rename(tmp.c_str(), dir.c_str()) != 0) fs::remove_all(tmp, ec);
  }
  if (lstat(dir.c_str(), &st) != 0)
    throw std::runtime_error("cannot make " + dir.string() + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode) || slurp(marker) != kCheckpointMarkerText)
    throw output::Refused(dir.string() + " exists and is not a checkpoint of gelucheck's; "
                          "remove it or choose another --out");
  return {dir, dir / ("checkpoint-" + std::to_string(part.k + 1) + "-of-" +
                      std::to_string(part.n) + ".json")};
}

// After a finished part: its checkpoint goes, and the directory with its marker when no other
// part's checkpoint is left in it (rmdir removes only an empty directory).
void remove_checkpoint(const CheckpointPlace& p) {
  std::error_code ec;
  fs::remove(p.file, ec);
  fs::remove(p.file.string() + ".tmp", ec);
  bool others = false;
  for (const auto& e : fs::directory_iterator(p.dir, ec))
    others |= e.path().filename() != kCheckpointMarker;
  if (!others) {
    fs::remove(p.dir / kCheckpointMarker, ec);
    rmdir(p.dir.c_str());
  }
}

// Writes a part's result as OUT/shard.json through output::Writer.
int write_shard(const ex::Sweep& s, const std::string& out, const std::string& who) {
  try {
    output::Writer w(out, "gelucheck check --shard");
    w.write_file(kShardFile, ex::to_json(s).dump(1) + "\n");
    w.commit();
    for (const std::string& n : w.notes()) std::fprintf(stderr, "%s: %s\n", who.c_str(), n.c_str());
  } catch (const output::Refused& e) {
    return usage_error(who, e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", who.c_str(), e.what());
    return kExitFailure;
  }
  std::printf("%s: wrote %s/%s (bit patterns %s, %llu inputs); combine the parts with "
              "`gelucheck merge OUT SHARD_DIR...`\n",
              who.c_str(), out.c_str(), kShardFile, ex::range_text(s.part).c_str(),
              static_cast<unsigned long long>(s.inputs));
  return kExitOk;
}

// The options of the report a sweep's parts make, as the sweep's command gave them.
report::Options merged_options(const ex::Sweep& s, const std::string& command,
                               const std::vector<std::string>& claims) {
  report::Options opt;
  opt.subjects = {s.id.spec};
  opt.claims = claims;
  opt.functions.clear();
  for (const std::string& f : s.id.functions) opt.functions.push_back(*subject::parse_function(f));
  opt.command = command;
  return opt;
}

}  // namespace

int run_exhaustive(const report::Options& base, const ExhaustiveArgs& a, const RunTargets& t) {
  const std::string who = base.command;
  ex::SweepOptions so;
  so.report = base;
  so.cap = a.cap;
  so.checkpoint_seconds = a.checkpoint_seconds;
  try {
    if (!a.range.empty()) so.range = ex::parse_range(a.range);
  } catch (const std::invalid_argument& e) {
    return usage_error(who, "--range " + a.range + ": " + e.what());
  }
  try {
    if (!a.shard.empty()) so.shard = ex::parse_shard(a.shard);
  } catch (const std::invalid_argument& e) {
    return usage_error(who, "--shard " + a.shard + ": " + e.what());
  }
  const bool ranks = mpi::size() > 1;
  if (ranks && !a.shard.empty())
    return usage_error(who, "--shard and mpirun both split the range; use one of them");
  if (ranks) so.shard = {static_cast<unsigned>(mpi::rank()), static_cast<unsigned>(mpi::size())};
  const bool shard_file = !a.shard.empty();
  const bool writes = !ranks || mpi::rank() == 0;
  // The output must be writable before the hours of the sweep, not after.
  CheckpointPlace cp;
  try {
    if (writes) report::check_writable(t.out);
    cp = checkpoint_place(t.out, so.shard);
  } catch (const output::Refused& e) {
    return usage_error(who, e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", who.c_str(), e.what());
    return kExitFailure;
  }
  so.checkpoint = cp.file.string();
  if (a.restart) {
    std::error_code ec;
    if (fs::remove(cp.file, ec))
      std::fprintf(stderr, "%s: --restart: removed the checkpoint %s\n", who.c_str(), cp.file.c_str());
  } else if (fs::exists(cp.file)) {
    std::fprintf(stderr, "%s: resuming from the checkpoint %s (--restart starts afresh)\n",
                 who.c_str(), cp.file.c_str());
  }
  const ex::BitRange part = ex::shard_part(so.range, so.shard);
  if (writes && (base.progress || so.range == ex::BitRange{}))
    std::fprintf(stderr, "%s: %llu binary32 inputs (bit patterns %s%s) × %zu "
                 "function(s) on %u thread(s)%s; a checkpoint every %.0f s in %s (SIGINT stops, "
                 "the same command resumes)\n",
                 who.c_str(), static_cast<unsigned long long>(ex::count_inputs(part)),
                 ex::range_text(part).c_str(), ranks ? ", rank 0's part" : "",
                 base.functions.size(), base.threads,
                 ranks ? (", " + std::to_string(mpi::size()) + " ranks").c_str() : "",
                 so.checkpoint_seconds, cp.dir.c_str());

  ex::Sweep sweep;
  std::string error;
  int error_rc = kExitFailure;
  try {
#ifdef __GLIBC__
    // Each block allocates and frees buffers of a few MiB per thread; glibc's default trimming
    // handed that memory back to the kernel after every block (madvise) and faulted it in
    // again: about 12 % of a four-function sweep's CPU time, spent in the kernel. This process
    // keeps it instead (the sweep's peak is tens of MiB).
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
#endif
    std::uint64_t resumed = 0;
    sweep = ex::run(so, &resumed);
    if (resumed)
      std::fprintf(stderr, "%s: resumed with %llu inputs already done\n", who.c_str(),
                   static_cast<unsigned long long>(resumed));
  } catch (const subject::SpecError& e) {
    error = e.what();
    if (e.kind == subject::SpecError::Kind::usage) error_rc = kExitUsage;
  } catch (const std::invalid_argument& e) {  // a checkpoint of another sweep
    error = e.what();
    error_rc = kExitUsage;
  } catch (const std::exception& e) {
    error = e.what();
  }

  if (ranks) {
    // Every rank sends its part (or its error) to rank 0, which merges them; rank 0's exit code
    // is every rank's.
    const std::string mine = error.empty() ? ex::to_json(sweep).dump() : "error " + std::to_string(error_rc) + " " + error;
    const std::vector<std::string> all = mpi::gather(mine);
    int rc = kExitOk;
    if (mpi::rank() == 0) {
      std::vector<ex::Sweep> parts;
      for (std::size_t r = 0; r < all.size() && rc == kExitOk; ++r) {
        if (all[r].rfind("error ", 0) == 0) {
          std::fprintf(stderr, "%s: rank %zu: %s\n", who.c_str(), r, all[r].c_str() + 8);
          rc = std::atoi(all[r].c_str() + 6);
          continue;
        }
        parts.push_back(ex::from_json(nlohmann::ordered_json::parse(all[r])));
      }
      if (rc == kExitOk) {
        sweep = ex::merge(std::move(parts));
        if (const std::string m = ex::missing(sweep); !m.empty()) {
          std::fprintf(stderr, "%s: the ranks' parts do not cover the range: %s\n", who.c_str(), m.c_str());
          rc = kExitFailure;
        }
      }
    }
    rc = mpi::broadcast(rc);
    if (rc != kExitOk) return rc;
    if (mpi::rank() != 0) {
      remove_checkpoint(cp);
      return mpi::broadcast(kExitOk);  // wait for rank 0's verdict
    }
    const int verdict = finish_report(ex::to_report(sweep, base), t);
    remove_checkpoint(cp);
    return mpi::broadcast(verdict);
  }
  if (!error.empty()) {
    std::fprintf(stderr, "%s: %s\n", who.c_str(), error.c_str());
    return error_rc;
  }
  const int rc = shard_file ? write_shard(sweep, t.out, who) : finish_report(ex::to_report(sweep, base), t);
  if (rc == kExitOk || rc == kExitGate) remove_checkpoint(cp);
  return rc;
}

std::function<int()> add_merge_command(CLI::App& app) {
  struct Args {
    std::string out;
    std::vector<std::string> shards;
    std::string junit;
    bool gate = false;
  };
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand(
      "merge", "Combine the shard results of `check SPEC --exhaustive --shard K/N` into one "
               "report, the same as one process gives; write OUT/report.md, OUT/report.html and "
               "OUT/report.json");
  sub->add_option("out", args->out, "The report directory to write (as check --out)")->required();
  sub->add_option("shards", args->shards,
                  "The shards' output directories (each holds shard.json), in any order")
      ->required();
  sub->add_option("--junit", args->junit, "Also write JUnit XML here");
  sub->add_flag("--gate", args->gate, "Exit 4 when a claim breaks or the subject misbehaved");
  return [args]() -> int {
    const std::string who = "gelucheck merge";
    std::vector<ex::Sweep> parts;
    for (const std::string& d : args->shards) {
      const fs::path f = fs::path(d) / kShardFile;
      std::ifstream in(f, std::ios::binary);
      if (!in)
        return usage_error(who, f.string() + ": cannot be read (not a shard's output directory?)");
      try {
        const nlohmann::ordered_json j = nlohmann::ordered_json::parse(in);
        parts.push_back(ex::from_json(j));
      } catch (const std::exception& e) {
        return usage_error(who, f.string() + ": not a shard result: " + e.what());
      }
      if (parts.back().done.size() != 1 || !(parts.back().done.front() == parts.back().part))
        return usage_error(who, f.string() + ": an unfinished part");
    }
    ex::Sweep merged;
    try {
      merged = ex::merge(std::move(parts));
    } catch (const std::invalid_argument& e) {
      return usage_error(who, e.what());
    }
    if (const std::string m = ex::missing(merged); !m.empty())
      return usage_error(who, "the shards do not cover the sweep's range " +
                            ex::range_text(merged.id.total) + ": " + m);
    report::Options opt = merged_options(merged, merged.command, merged.claim_args);
    return finish_report(ex::to_report(merged, opt), {args->out, args->junit, args->gate});
  };
}

}  // namespace gelucheck::cli
