// Everything a CUDA entry point needs to enqueue work. Plain data.
#pragma once

#include "core/device_memory.hpp"

namespace tensorbuf::core {

struct CudaContext {
  int device = 0;
  StreamHandle stream = nullptr;  // the caller's stream, or the library's
  DeviceMemory* memory = nullptr;
};

}  // namespace tensorbuf::core
