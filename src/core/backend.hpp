// What src/core needs from the CUDA backend besides the ops: the availability probe and the
// process-wide device memory. src/cuda defines these (src/cuda/unavailable.cpp when the
// library is built without CUDA). Each op's entry points are declared next to its plan.
#pragma once

#include <string>

#include "core/device_memory.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::cuda {

struct ProbeResult {
  CudaAvailability availability = CudaAvailability::kNotBuilt;
  std::string reason;       // one line, see cuda_availability_reason()
  int device_count = 0;
};

// Probes the runtime once; never throws.
ProbeResult probe();

// The CUDA device memory (caching allocators, one stream per device). Only called when
// probe() said kAvailable.
core::DeviceMemory& device_memory();

// "CUDA 13.0, sm_90" or "without CUDA".
std::string build_info();

}  // namespace tensorbuf::cuda
