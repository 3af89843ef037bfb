// npy_subject.hpp — `npy:DIR`, a subject made of arrays saved from any framework (a directory of
// .npy files named as docs/subjects.md, "Saved arrays", says).
//
// Nothing is evaluated: a call is answered from the record, bit for bit, when every input of it
// (x, and dy for a backward) was saved, and is `unavailable` — naming the first input that was
// not — otherwise. Capabilities say so (fresh_evaluations = false), so that checks needing new
// inputs are reported as not run rather than passed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gelucheck/subject.hpp"

namespace gelucheck::subject {

class NpySubject : public Subject {
 public:
  // The same input saved twice (in one file or two) with outputs of different bits (NaNs equal):
  // the subject is not deterministic, or the arrays come from different runs, kernels or thread
  // counts — a finding either way. Calls answer with the first output saved.
  struct Inconsistency {
    Op op;
    double x = 0, dy = 0;            // dy: backward only
    double first = 0, second = 0;    // the two outputs, as doubles (exact)
    std::string first_at, second_at; // where each was saved: "tanh.f32.y.npy[17]"
  };

  // Reads every array of `dir`; throws SpecError (kind unavailable) naming the file and the
  // problem for a missing or empty directory, a file that breaks the naming convention, an
  // unreadable or malformed array, a dtype that cannot hold the format's values, or arrays of
  // one set whose shapes differ.
  static std::unique_ptr<NpySubject> open(std::string_view dir);

  std::string spec() const override;
  std::string describe() const override;
  Capabilities capabilities() const override;
  Status call(const Call& c) override;
  // Each distinct input on record for op (for a backward: each distinct (x, dy) pair's x), once,
  // in the order first saved; values of op.format as doubles, exact.
  std::vector<double> recorded_inputs(const Op& op) const override;
  // Backward only: the dy of each pair, parallel to recorded_inputs(op); empty for a forward.
  std::vector<double> recorded_gradients(const Op& op) const;
  const std::vector<Inconsistency>& inconsistencies() const { return inconsistencies_; }
  // Entries of the directory outside the convention that are not .npy files (a README, a
  // subdirectory): not read, and named by describe().
  const std::vector<std::string>& ignored() const { return ignored_; }

 private:
  struct Key {
    std::uint64_t x, dy;  // encodings in the op's format; dy = 0 for a forward
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };
  struct Origin {
    std::size_t file;   // index into files_
    std::size_t index;  // element of that file, in C order
  };
  struct Record {
    Op op;
    std::vector<Key> keys;              // distinct inputs, in the order first saved
    std::vector<std::uint64_t> out;     // the output saved first for each, parallel to keys
    std::vector<Origin> origin;         // where that output was saved, parallel to keys
    std::unordered_map<Key, std::size_t, KeyHash> index;  // key → position in keys
    std::size_t saved = 0;              // elements saved, duplicates included
  };

  NpySubject() = default;
  const Record* find(const Op& op) const;
  Record& record(const Op& op);
  void add(const Op& op, const std::vector<std::uint64_t>& x, const std::vector<std::uint64_t>* dy,
           const std::vector<std::uint64_t>& out, std::size_t out_file);
  std::string where(const Origin& o) const;

  std::string dir_;
  std::string about_;                 // first line of subject.txt, if any
  std::vector<Record> records_;       // in the order of all_ops()
  std::vector<std::string> files_;    // output files read, by name
  std::vector<Inconsistency> inconsistencies_;
  std::vector<std::string> ignored_;
};

// Entry point of subject::open() for "npy:DIR".
std::unique_ptr<Subject> open_npy(std::string_view dir);

}  // namespace gelucheck::subject
