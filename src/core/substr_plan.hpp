// substr: the plan (shapes and the broadcast map), the buffers and the result a backend
// returns. Plain data only: the kernels include this header and nothing else of src/core's op
// code (DESIGN.md, "The op template").
#pragma once

#include <cstdint>

#include "core/op_result.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// Output dims of size 1 are dropped and adjacent dims merged where both operands allow, so the
// rank left is at most 62 (every dim >= 2 and the element count fits int64).
inline constexpr int kSubstrMaxRank = 64;

// An output element's flat index -> the flat indices of its input string and of its pos/len
// element: NumPy broadcasting through 0 strides, never materialised (kernels::map_element).
// 1.5 KB: the backends read it by reference, and the CUDA passes carry a small view of it
// (kernels::SubstrMapView: inline up to 4 dims, else a table in device memory).
struct SubstrMap {
  int rank = 0;
  std::int64_t dims[kSubstrMaxRank] = {};
  std::int64_t input_strides[kSubstrMaxRank] = {};  // 0 where the input is broadcast
  std::int64_t pos_strides[kSubstrMaxRank] = {};    // 0 where pos/len are broadcast
};

struct SubstrPlan {
  Shape out_shape;
  std::int64_t out_size = 0;               // strings in the output
  std::int64_t in_size = 0;                // strings in the input
  std::int64_t in_chars = 0;               // bytes in the input (at most; see chars_bound)
  DataType index_type = DataType::kInt32;  // of pos and len
  SubstrUnit unit = SubstrUnit::kByte;
  OutOfBoundsPolicy policy = OutOfBoundsPolicy::kError;  // resolved (never kDeviceDefault)
  // >= 0: CUDA's bounded form (docs/capture.md), chosen by the op: the output chars allocated
  // at this many bytes (core::substr_chars_bound) and the total never read back.
  std::int64_t chars_capacity = -1;
  SubstrMap map;
};

// Raw pointers of one run, on the backend's side.
struct SubstrBuffers {
  const std::int64_t* in_offsets = nullptr;  // in_size + 1
  const std::uint8_t* in_chars = nullptr;
  const void* pos = nullptr;  // plan.index_type, pos.shape
  const void* len = nullptr;
  std::int64_t* out_offsets = nullptr;  // out_size + 1, written by the backend
};

// first_bad_index: under kError, the smallest flat output index out of range (rule 5), or -1;
// then nothing was written to the output chars, and the backend names that element's input
// string and pos for the message, so the error path reads nothing again.
struct SubstrResult : OpResult {
  std::int64_t total_bytes = 0;       // bytes of the output's chars
  std::int64_t bad_input_index = -1;  // with first_bad_index: its input string's flat index
  std::int64_t bad_pos = 0;           // with first_bad_index: its pos, as given
};

}  // namespace tensorbuf::core
