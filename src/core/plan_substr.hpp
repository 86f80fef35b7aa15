// substr: the plan (shapes and the broadcast map, plain data) and the backend entry points.
#pragma once

#include <cstdint>
#include <functional>

#include "core/dispatch.hpp"
#include "kernels/substr_map.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/string_tensor.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf::core {

struct SubstrPlan {
  Shape out_shape;
  std::int64_t out_size = 0;               // strings in the output
  std::int64_t in_size = 0;                // strings in the input
  std::int64_t in_chars = 0;               // bytes in the input
  DataType index_type = DataType::kInt32;  // of pos and len
  SubstrUnit unit = SubstrUnit::kByte;
  OutOfBoundsPolicy policy = OutOfBoundsPolicy::kError;  // resolved (never kDeviceDefault)
  kernels::SubstrMap map;  // output index -> input / pos index (0-stride views)
};

// Validates dtypes and shapes (spec/substr.md rules 1-2) and builds the plan; the policy is
// left for the op to resolve.
SubstrPlan plan_substr(const StringTensor& input, const TensorBuffer& pos, const TensorBuffer& len,
                       const SubstrOptions& options);

// Raw pointers of one run, on the backend's side.
struct SubstrArgs {
  const std::int64_t* in_offsets = nullptr;  // in_size + 1
  const std::uint8_t* in_chars = nullptr;
  const void* pos = nullptr;  // plan.index_type, pos.shape
  const void* len = nullptr;
  std::int64_t* out_offsets = nullptr;  // out_size + 1, written by the backend
  // Allocates the output's chars (total bytes) on the backend's side, once, after the sizes
  // are known and only when no error is reported.
  std::function<std::uint8_t*(std::int64_t total)> allocate_chars;
};

struct SubstrResult {
  std::int64_t first_bad_index = -1;  // kError: smallest flat output index out of range, or -1
  std::int64_t total_bytes = 0;       // bytes of the output's chars
};

}  // namespace tensorbuf::core

namespace tensorbuf::cpu {
core::SubstrResult substr(const core::SubstrPlan& plan, const core::SubstrArgs& args);

// The AVX-512BW + BMI2 path for UTF-8 strings of up to 64 bytes (docs/substr.md, "CPU fast
// paths"): whether this CPU has it, and a switch for tests to compare it with the portable
// path (on by default; off forces the portable code).
bool substr_simd_available();
void set_substr_simd_enabled(bool enabled);
}  // namespace tensorbuf::cpu

namespace tensorbuf::cuda {
core::SubstrResult substr(const core::SubstrPlan& plan, const core::SubstrArgs& args,
                          const core::CudaContext& context);
}  // namespace tensorbuf::cuda
