#include "npy_subject.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "npy.hpp"

namespace gelucheck::subject {

namespace fs = std::filesystem;

namespace {

// all_ops() order: form, direction, format as in all_formats.
auto op_order(const Op& op) {
  return std::make_tuple(static_cast<int>(op.form), static_cast<int>(op.direction),
                         static_cast<int>(op.format));
}

[[noreturn]] void unavailable(const std::string& what) {
  throw SpecError(SpecError::Kind::unavailable, what);
}

// A file name of the convention: FORM.DT[.TAG].ROLE.npy.
enum class Role { x, y, dy, dx };
struct Name {
  Form form;
  Format format;
  std::string tag;  // empty when absent
  Role role;
};
bool tag_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}
std::optional<Name> parse_name(std::string_view file) {
  if (!file.ends_with(".npy")) return std::nullopt;
  file.remove_suffix(4);
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t dot = file.find('.', start);
    parts.push_back(file.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (parts.size() != 3 && parts.size() != 4) return std::nullopt;
  const std::optional<Form> form = parse_form(parts[0]);
  const std::optional<Format> format = parse_dtype(parts[1]);
  if (!form || !format) return std::nullopt;
  Name n{*form, *format, "", Role::x};
  if (parts.size() == 4) {
    n.tag = std::string(parts[2]);
    if (n.tag.empty() || !std::all_of(n.tag.begin(), n.tag.end(), tag_char)) return std::nullopt;
  }
  const std::string_view role = parts.back();
  if (role == "x") n.role = Role::x;
  else if (role == "y") n.role = Role::y;
  else if (role == "dy") n.role = Role::dy;
  else if (role == "dx") n.role = Role::dx;
  else return std::nullopt;
  return n;
}

// Which .npy element types may hold values of a format. The format's own storage always; a wider
// float type too (tensor.float().numpy() is how bfloat16 usually leaves PyTorch), when every
// element is exactly a value of the format, checked element by element. Bit patterns (u2) for
// the 16-bit formats; binary16's own f2 is refused for bfloat16 (a different format).
bool holds(npy::Type t, Format f) {
  switch (f) {
    case Format::binary64: return t == npy::Type::f8;
    case Format::binary32: return t == npy::Type::f8 || t == npy::Type::f4;
    case Format::bfloat16: return t != npy::Type::f2;
    case Format::binary16: return true;
  }
  return false;
}
std::string_view storage_hint(Format f) {
  switch (f) {
    case Format::binary64: return "<f8 or >f8";
    case Format::binary32: return "<f4 or >f4 (or <f8 holding binary32 values)";
    case Format::bfloat16:
      return "bit patterns <u2 or >u2 (or <f4/<f8 holding bfloat16 values)";
    case Format::binary16: return "<f2, or bit patterns <u2 (or <f4/<f8 holding binary16 values)";
  }
  return "";
}

// The array's elements as encodings of `fmt` (to_bits), or SpecError naming file and element.
std::vector<std::uint64_t> encodings(const npy::Array& a, Format fmt, const std::string& file) {
  if (!holds(a.type, fmt))
    unavailable(file + ": dtype " + a.descr + " cannot hold " + std::string(name(fmt)) +
                " values (save them as " + std::string(storage_hint(fmt)) + ")");
  const bool own = (a.type == npy::Type::f8 && fmt == Format::binary64) ||
                   (a.type == npy::Type::f4 && fmt == Format::binary32) ||
                   (a.type == npy::Type::f2 && fmt == Format::binary16) || a.type == npy::Type::u2;
  if (own) return a.elements;
  const Format stored = a.type == npy::Type::f8   ? Format::binary64
                        : a.type == npy::Type::f4 ? Format::binary32
                                                  : Format::binary16;
  std::vector<std::uint64_t> out(a.elements.size());
  for (std::size_t k = 0; k < out.size(); ++k) {
    const double v = from_bits(a.elements[k], stored);
    const std::optional<std::uint64_t> b = to_bits(v, fmt);
    if (!b)
      unavailable(file + ": element " + std::to_string(k) + " is " + hexfloat(v) + ", not a " +
                  std::string(name(fmt)) + " value (a " + a.descr +
                  " array may hold them only exactly)");
    out[k] = *b;
  }
  return out;
}

std::uint64_t load(const void* base, std::size_t i, std::size_t size) {
  const auto* p = static_cast<const unsigned char*>(base) + i * size;
  switch (size) {
    case 8: { std::uint64_t v; std::memcpy(&v, p, 8); return v; }
    case 4: { std::uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { std::uint16_t v; std::memcpy(&v, p, 2); return v; }
  }
}
void store(void* base, std::size_t i, std::size_t size, std::uint64_t b) {
  auto* p = static_cast<unsigned char*>(base) + i * size;
  switch (size) {
    case 8: std::memcpy(p, &b, 8); break;
    case 4: { const auto v = static_cast<std::uint32_t>(b); std::memcpy(p, &v, 4); break; }
    default: { const auto v = static_cast<std::uint16_t>(b); std::memcpy(p, &v, 2); break; }
  }
}

}  // namespace

std::size_t NpySubject::KeyHash::operator()(const Key& k) const {
  // Fibonacci hashing of each half, mixed: encodings of nearby values differ in their low bits.
  const std::uint64_t h = k.x * 0x9e3779b97f4a7c15u ^ (k.dy * 0xc2b2ae3d27d4eb4fu + (k.x >> 29));
  return static_cast<std::size_t>(h ^ (h >> 32));
}

const NpySubject::Record* NpySubject::find(const Op& op) const {
  for (const Record& r : records_)
    if (r.op == op) return &r;
  return nullptr;
}

NpySubject::Record& NpySubject::record(const Op& op) {
  if (!find(op)) {
    records_.push_back(Record{op, {}, {}, {}, {}, 0});
    std::sort(records_.begin(), records_.end(),
              [](const Record& a, const Record& b) { return op_order(a.op) < op_order(b.op); });
  }
  for (Record& r : records_)
    if (r.op == op) return r;
  throw std::logic_error("NpySubject::record: lost an op");
}

std::string NpySubject::where(const Origin& o) const {
  return files_[o.file] + "[" + std::to_string(o.index) + "]";
}

void NpySubject::add(const Op& op, const std::vector<std::uint64_t>& x,
                     const std::vector<std::uint64_t>* dy, const std::vector<std::uint64_t>& out,
                     std::size_t out_file) {
  Record& r = record(op);
  r.saved += x.size();
  for (std::size_t k = 0; k < x.size(); ++k) {
    const Key key{x[k], dy ? (*dy)[k] : 0};
    const auto [it, fresh] = r.index.try_emplace(key, r.keys.size());
    if (fresh) {
      r.keys.push_back(key);
      r.out.push_back(out[k]);
      r.origin.push_back({out_file, k});
      continue;
    }
    const std::size_t j = it->second;
    const double first = from_bits(r.out[j], op.format), second = from_bits(out[k], op.format);
    if (!same_bits(first, second))
      inconsistencies_.push_back({op, from_bits(key.x, op.format),
                                  dy ? from_bits(key.dy, op.format) : 0.0, first, second,
                                  where(r.origin[j]), where({out_file, k})});
  }
}

std::unique_ptr<NpySubject> NpySubject::open(std::string_view dir_view) {
  const std::string dir(dir_view);
  if (dir.empty()) throw SpecError(SpecError::Kind::usage, "npy: needs a directory (npy:DIR)");
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    unavailable("npy:" + dir + ": " + (fs::exists(dir, ec) ? "not a directory" : "no such directory"));

  std::unique_ptr<NpySubject> s(new NpySubject());
  s->dir_ = dir;
  // One set of arrays per (form, format, tag): the files of each role.
  using SetKey = std::tuple<int, int, std::string>;
  std::map<SetKey, std::map<Role, std::string>> sets;
  std::vector<std::string> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    entries.push_back(it->path().filename().string());
  if (ec) unavailable("npy:" + dir + ": cannot list the directory: " + ec.message());
  std::sort(entries.begin(), entries.end());
  for (const std::string& e : entries) {
    const std::string path = (fs::path(dir) / e).string();
    if (e == "subject.txt") {
      std::ifstream in(path);
      std::getline(in, s->about_);
      while (!s->about_.empty() && (s->about_.back() == '\r' || s->about_.back() == ' '))
        s->about_.pop_back();
      continue;
    }
    const std::optional<Name> n = parse_name(e);
    if (!n) {
      if (e.ends_with(".npy"))
        unavailable(path +
                    ": not a name of the convention FORM.DT[.TAG].ROLE.npy (FORM tanh|erf, DT "
                    "f64|f32|bf16|f16, ROLE x|y|dy|dx; docs/subjects.md, \"Saved arrays\")");
      s->ignored_.push_back(e);
      continue;
    }
    sets[{static_cast<int>(n->form), static_cast<int>(n->format), n->tag}][n->role] = e;
  }
  if (sets.empty())
    unavailable("npy:" + dir + ": no arrays (files FORM.DT.x.npy with FORM.DT.y.npy or " +
                "FORM.DT.dy.npy and FORM.DT.dx.npy; docs/subjects.md, \"Saved arrays\")");

  for (const auto& [key, roles] : sets) {
    const Form form = static_cast<Form>(std::get<0>(key));
    const Format fmt = static_cast<Format>(std::get<1>(key));
    const std::string& tag = std::get<2>(key);
    const std::string stem = std::string(name(form)) + "." + std::string(dtype_name(fmt)) +
                             (tag.empty() ? "" : "." + tag) + ".";
    auto has = [&](Role r) { return roles.count(r) > 0; };
    auto path_of = [&](const std::string& file) { return (fs::path(dir) / file).string(); };
    auto missing = [&](const char* present, const std::string& absent) {
      unavailable(path_of(stem + present + ".npy") + " without " + absent);
    };
    if (!has(Role::x)) missing(has(Role::y) ? "y" : has(Role::dy) ? "dy" : "dx", stem + "x.npy");
    if (has(Role::dy) && !has(Role::dx)) missing("dy", stem + "dx.npy");
    if (has(Role::dx) && !has(Role::dy)) missing("dx", stem + "dy.npy");
    if (!has(Role::y) && !has(Role::dy))
      missing("x", "outputs (" + stem + "y.npy for the forward, " + stem + "dy.npy and " + stem +
                       "dx.npy for the backward)");

    auto read_array = [&](const std::string& file) {
      try {
        return npy::read_file(path_of(file));
      } catch (const npy::Error& err) {
        unavailable(err.what());
      }
    };
    const std::string x_name = roles.at(Role::x);
    const npy::Array xa = read_array(x_name);
    auto read = [&](Role r) {
      const std::string path = path_of(roles.at(r));
      const npy::Array a = read_array(roles.at(r));
      // Elements correspond by their C-order position (npy::Array::elements), so equal shapes
      // suffice whichever order each file was stored in.
      if (a.shape != xa.shape)
        unavailable(path + ": shape " + npy::shape_text(a.shape) + " differs from " + x_name +
                    "'s " + npy::shape_text(xa.shape) +
                    " (the arrays of a set correspond element by element)");
      return encodings(a, fmt, path);
    };
    const std::vector<std::uint64_t> x = encodings(xa, fmt, path_of(x_name));
    if (has(Role::y)) {
      s->files_.push_back(roles.at(Role::y));
      s->add({form, Direction::forward, fmt}, x, nullptr, read(Role::y), s->files_.size() - 1);
    }
    if (has(Role::dy)) {
      const std::vector<std::uint64_t> dy = read(Role::dy);
      s->files_.push_back(roles.at(Role::dx));
      s->add({form, Direction::backward, fmt}, x, &dy, read(Role::dx), s->files_.size() - 1);
    }
  }
  return s;
}

std::string NpySubject::spec() const { return "npy:" + dir_; }

std::string NpySubject::describe() const {
  std::string d = "arrays saved in " + dir_;
  if (!about_.empty()) d += " (" + about_ + ")";
  d += ":";
  for (const Record& r : records_) {
    d += " " + op_name(r.op) + " " + std::to_string(r.keys.size()) + " inputs";
    if (r.saved != r.keys.size()) d += " (" + std::to_string(r.saved) + " saved)";
    d += r.op == records_.back().op ? ";" : ",";
  }
  if (inconsistencies_.empty()) {
    d += " no input saved twice with different outputs";
  } else {
    const Inconsistency& i = inconsistencies_.front();
    d += " " + std::to_string(inconsistencies_.size()) +
         " inputs saved twice with different outputs (first: " + op_name(i.op) + " x = " +
         hexfloat(i.x) + (i.op.direction == Direction::backward ? ", dy = " + hexfloat(i.dy) : "") +
         ": " + hexfloat(i.first) + " in " + i.first_at + ", " + hexfloat(i.second) + " in " +
         i.second_at + ")";
  }
  if (!ignored_.empty()) {
    d += "; not read (outside the convention):";
    for (const std::string& e : ignored_) d += " " + e;
  }
  return d;
}

Capabilities NpySubject::capabilities() const {
  Capabilities c;
  for (const Record& r : records_) c.ops.push_back(r.op);
  c.strided = false;
  c.fresh_evaluations = false;
  c.in_process = false;  // not a built-in: its outputs come from elsewhere
  return c;
}

Status NpySubject::call(const Call& c) {
  const Record* r = find(c.op);
  if (!r)
    return Status::make(Status::Kind::unavailable,
                        "no arrays for " + op_name(c.op) + " in " + dir_);
  const bool backward = c.op.direction == Direction::backward;
  if (c.n > 0 && (!c.x || !c.out || (backward && !c.dy)))
    throw std::logic_error("NpySubject::call: null x, dy or out for n > 0");
  const std::size_t size = element_size(c.op.format);
  // Look every element up first, so that `out` is written only for a call that succeeds.
  std::vector<std::size_t> at(c.n);
  for (std::size_t i = 0; i < c.n; ++i) {
    const Key key{load(c.x, i, size), backward ? load(c.dy, i, size) : 0};
    const auto it = r->index.find(key);
    if (it == r->index.end()) {
      const std::string x = hexfloat(from_bits(key.x, c.op.format));
      return Status::make(
          Status::Kind::unavailable,
          (backward ? "(x, dy) = (" + x + ", " + hexfloat(from_bits(key.dy, c.op.format)) + ")"
                    : "x = " + x) +
              " (element " + std::to_string(i) + ") is not on record for " +
              op_name(c.op) + " in " + dir_);
    }
    at[i] = it->second;
  }
  for (std::size_t i = 0; i < c.n; ++i) store(c.out, i, size, r->out[at[i]]);
  return Status::success();
}

std::vector<double> NpySubject::recorded_inputs(const Op& op) const {
  std::vector<double> v;
  if (const Record* r = find(op))
    for (const Key& k : r->keys) v.push_back(from_bits(k.x, op.format));
  return v;
}

std::vector<double> NpySubject::recorded_gradients(const Op& op) const {
  std::vector<double> v;
  if (const Record* r = find(op); r && op.direction == Direction::backward)
    for (const Key& k : r->keys) v.push_back(from_bits(k.dy, op.format));
  return v;
}

std::unique_ptr<Subject> open_npy(std::string_view dir) { return NpySubject::open(dir); }

}  // namespace gelucheck::subject
