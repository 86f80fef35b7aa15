// Random string tensors for substr's capture tests: `total` bytes of UTF-8 text (1- to 4-byte
// characters) cut at random into n strings, so a replay's new contents fit the same offsets
// and chars buffers while every string's length changes. A cut may split a character: the
// rules count character starts only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace tensorbuf::testing {

struct RandomStrings {
  std::vector<std::int64_t> offsets;  // n + 1, the last == chars.size()
  std::string chars;

  std::vector<std::string> values() const {
    std::vector<std::string> out;
    for (std::size_t i = 0; i + 1 < offsets.size(); ++i) {
      out.push_back(chars.substr(static_cast<std::size_t>(offsets[i]),
                                 static_cast<std::size_t>(offsets[i + 1] - offsets[i])));
    }
    return out;
  }
};

inline RandomStrings random_strings(std::int64_t n, std::int64_t total, std::mt19937_64& rng) {
  static const char* const kUnits[] = {"a", "b", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
  RandomStrings s;
  while (static_cast<std::int64_t>(s.chars.size()) < total) s.chars += kUnits[rng() % 5];
  s.chars.resize(static_cast<std::size_t>(total));
  s.offsets.push_back(0);
  for (std::int64_t i = 1; i < n; ++i) {
    s.offsets.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(total + 1)));
  }
  std::sort(s.offsets.begin(), s.offsets.end());
  if (n > 0) s.offsets.push_back(total);
  return s;
}

}  // namespace tensorbuf::testing
