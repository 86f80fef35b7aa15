// Validating and planning substr, and the text of its rejected run (src/core only).
#pragma once

#include <cstdint>
#include <string>

#include "core/export_for_mpi.hpp"
#include "core/substr_plan.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/string_tensor.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

// Validates dtypes and shapes (spec/substr.md rules 1-2) and builds the plan; the policy is
// left for the op to resolve.
TENSORBUF_INTERNAL_FOR_MPI SubstrPlan plan_substr(const StringTensor& input,
                                                  const TensorBuffer& pos, const TensorBuffer& len,
                                                  const SubstrOptions& options);

// Why a call must read device data on the host under CUDA graph capture (core/capture.hpp), or
// null: kError's first bad element, or the output's total size when substr_chars_bound has no
// bound.
const char* substr_capture_blocker(const SubstrPlan& plan);

// The output chars of a kDrop call, bounded on the host (CUDA's bounded form under capture,
// docs/capture.md): the input's chars times the broadcast factor (each input string is used
// out_size / in_size times, and a substring is never longer than its string). -1 when that
// bound exceeds kSubstrBoundFactor times the input's chars (a broadcast input: the read-back
// total is cheaper than the memory) or kError.
inline constexpr std::int64_t kSubstrBoundFactor = 4;
std::int64_t substr_chars_bound(const SubstrPlan& plan);

// Rule 5, the element's input string read on the host (Python's bytes repr, at most 64 bytes
// shown): "pos 6 out of range for string b'Hello' at index 0". Beside the plan, as
// core::raise_if_rejected and the distributed op find it (core/op_errors.hpp).
TENSORBUF_INTERNAL_FOR_MPI std::string rejection_message(const StringTensor& input,
                                                         const SubstrResult& result);

}  // namespace tensorbuf::core
