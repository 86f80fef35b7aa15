// substr on the CPU: one element's substring as (begin, n), and rule 3 (bytes) without branches
// on the data. Included by src/cpu/substr.cpp only, like the other src/cpu/substr_*.hpp.
#pragma once

#include <cstdint>

#include "kernels/substr_rules.hpp"

namespace tensorbuf::cpu::substr_detail {

using kernels::pick;
using kernels::unit_window;
using kernels::UnitWindow;

// One element's substring: bytes [begin, begin + n) of its string; n = -1 when pos is out of
// range (begin is then meaningless). Two words: returned in registers.
struct Slice {
  std::int64_t begin;
  std::int64_t n;
};

// The slice of units [w.first, w.end) whose bytes are [b, e); n = -1 when pos is out of range.
inline Slice window_slice(const UnitWindow& w, std::uint64_t b, std::uint64_t e) {
  return Slice{static_cast<std::int64_t>(b),
               static_cast<std::int64_t>(pick(w.valid, e - b, ~0ull))};
}

// Rule 3 without branches on the data.
inline Slice byte_slice(std::int64_t size, std::int64_t pos, std::int64_t len) {
  const UnitWindow w = unit_window(static_cast<std::uint64_t>(size), pos, len);
  return window_slice(w, w.first, w.end);
}

}  // namespace tensorbuf::cpu::substr_detail
