// substr for callers inside the library (tensorbuf::mpi): the run apart from raising its
// out-of-range error, so a caller can name the element by another index
// (core::rejection_message).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/substr_backends.hpp"
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

// The CUDA backend's entry, cuda::substr; tests run the op with the driver on the host
// executor in its place (tests/capture/test_substr_op.cpp).
using CudaSubstr = std::function<SubstrResult(const SubstrPlan&, const SubstrBuffers&,
                                              const AllocateChars&, const CudaContext&)>;
// run_substr after its checks: `plan` from plan_substr with its policy resolved for `device`,
// which resolve_device returned (tests pass cuda:0 under the test device memory).
SubstrRun run_planned_substr(const StringTensor& input, const TensorBuffer& pos,
                             const TensorBuffer& len, SubstrPlan plan, Device device, Stream stream,
                             const CudaSubstr& cuda_substr);

}  // namespace tensorbuf::core
