// substr for callers inside the library (tensorbuf::dist): the run, and the text of its
// out-of-range error, apart, so a caller can name the element by another index.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/substr_plan.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::core {

struct SubstrRun {
  std::optional<StringTensor> out;  // unset when result.first_bad_index >= 0 (kError)
  SubstrResult result;
};

// tensorbuf::substr up to its out-of-range error: argument errors still throw.
SubstrRun run_substr(const StringTensor& input, const TensorBuffer& pos, const TensorBuffer& len,
                     const SubstrOptions& options);

// "pos 6 out of range for string b'Hello' at index 0" (spec/substr.md rule 5).
std::string substr_out_of_range_message(std::string_view string, std::int64_t pos,
                                        std::int64_t index);

}  // namespace tensorbuf::core
