// gelucheck/proptests/views.hpp — walking gelucheck::View index by index, written independently
// of src/ so that the properties (and the mutants) do not reuse the code they check.
#pragma once

#include <cstddef>
#include <vector>

#include "gelucheck/gelu.hpp"

namespace gelucheck::prop {

inline std::size_t element_count(const std::vector<std::size_t>& shape) {
  std::size_t n = 1;
  for (std::size_t d : shape) n *= d;
  return n;
}

template <class T>
std::ptrdiff_t offset_of(const View<T>& v, const std::vector<std::size_t>& idx) {
  std::ptrdiff_t off = 0;
  for (std::size_t k = 0; k < idx.size(); ++k)
    off += static_cast<std::ptrdiff_t>(idx[k]) * v.strides[k];
  return off;
}

// Calls fn(idx, flat) for every multi-index of `shape` in row-major order; flat counts 0, 1, ….
template <class Fn>
void for_each_index(const std::vector<std::size_t>& shape, Fn&& fn) {
  const std::size_t n = element_count(shape);
  std::vector<std::size_t> idx(shape.size(), 0);
  for (std::size_t flat = 0; flat < n; ++flat) {
    fn(idx, flat);
    for (std::size_t k = shape.size(); k-- > 0;) {
      if (++idx[k] < shape[k]) break;
      idx[k] = 0;
    }
  }
}

}  // namespace gelucheck::prop
