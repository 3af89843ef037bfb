// The in-process subjects (builtins.cpp); subject::open() dispatches to them.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gelucheck/subject.hpp"

namespace gelucheck::subject {
// accurate | naive | reference | broken:NAME; nullptr for any other spec; SpecError for an
// unknown broken:NAME.
std::unique_ptr<Subject> open_builtin(std::string_view spec);
}  // namespace gelucheck::subject
