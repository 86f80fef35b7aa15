// The library's side of the spelling module (tensorbuf/spellings.hpp): the words of the
// internal enums. The scatter combines are spelled by their public names, as the op table
// declares them, never restated.
#pragma once

#include <cstddef>

#include "core/op_table.hpp"
#include "tensorbuf/spellings.hpp"

namespace tensorbuf {

template <>
struct Spellings<core::ScatterOp> {
  static constexpr auto kWords = [] {
    std::array<Spelling<core::ScatterOp>, kScatterCombines.size()> words{};
    for (std::size_t i = 0; i < words.size(); ++i) {
      words[i] = {static_cast<core::ScatterOp>(i), kScatterCombines[i].name};
    }
    return words;
  }();
};

}  // namespace tensorbuf
