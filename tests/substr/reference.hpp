// Test-side helpers for substr over the public API only: index tensors from plain values and an
// independent reference of spec/substr.md rules 3-4 (built from the rules, not from src/).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::testing {

using Strings = std::vector<std::string>;

// An int32 or int64 tensor of `shape` holding `values` (row-major).
inline TensorBuffer index_buffer(const std::vector<std::int64_t>& values, const Shape& shape,
                                 DataType type) {
  TensorBuffer out = TensorBuffer::create_fixed_size(shape, type);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (type == DataType::kInt32) {
      out.mutable_host<std::int32_t>()[i] = static_cast<std::int32_t>(values[i]);
    } else {
      out.mutable_host<std::int64_t>()[i] = values[i];
    }
  }
  return out;
}

// Byte offsets where the units of s start (every byte; for UTF-8 the bytes outside
// 0x80..0xBF, and byte 0), plus s.size() at the end.
inline std::vector<std::size_t> unit_starts(const std::string& s, bool utf8) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (!utf8 || i == 0 || b < 0x80 || b > 0xBF) starts.push_back(i);
  }
  starts.push_back(s.size());
  return starts;
}

// The substring of s, or nullopt when pos is out of range.
inline std::optional<std::string> reference_substr(const std::string& s, std::int64_t pos,
                                                   std::int64_t len, bool utf8) {
  const std::vector<std::size_t> bounds = unit_starts(s, utf8);
  const auto units = static_cast<std::int64_t>(bounds.size()) - 1;
  const std::int64_t p = pos < 0 ? units + pos : pos;
  if (p < 0 || p > units) return std::nullopt;
  const std::int64_t count = len < 0 ? units - p : std::min(len, units - p);
  const std::size_t b = bounds[static_cast<std::size_t>(p)];
  const std::size_t e = bounds[static_cast<std::size_t>(p + count)];
  return s.substr(b, e - b);
}

// Whether an out-of-range message names output element `index` the way substr's do: it ends
// with " at index <index>".
inline bool names_element(const std::string& message, std::int64_t index) {
  const std::string suffix = " at index " + std::to_string(index);
  return message.size() >= suffix.size() &&
         message.compare(message.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace tensorbuf::testing
