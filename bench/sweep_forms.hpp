// The sweep forms of each area (bench/sweep_<area>.cpp), how an area registers them, and the
// helpers they share.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "sweep.hpp"

namespace tensorbuf::bench {

// Each area's file registers its forms (a namespace-scope SweepAreaRegistration) under the op
// of the table that leads them; sweep_forms() lists the areas in the table's order of those ops
// (op_order), so no shared list names them.
struct SweepAreaRegistration {
  SweepAreaRegistration(std::string_view leading_op, std::vector<SweepForm> (*forms)());
};

/// The yardstick of a streaming op: one serial memcpy of traffic / 2 bytes (traffic = bytes
/// read + bytes written), between buffers touched once here so the calls pay no page faults.
inline std::function<void()> memcpy_yardstick(double traffic_bytes) {
  const auto bytes = static_cast<std::size_t>(std::max(64.0, traffic_bytes / 2));
  std::shared_ptr<std::byte[]> src(new std::byte[bytes]);
  std::shared_ptr<std::byte[]> dst(new std::byte[bytes]);
  std::memset(src.get(), 1, bytes);
  std::memset(dst.get(), 0, bytes);
  return [src, dst, bytes] { std::memcpy(dst.get(), src.get(), bytes); };
}

/// The yardstick of a streaming op on `device`: memcpy_yardstick on the CPU, on CUDA one
/// device-to-device copy of traffic / 2 bytes on the library's stream (the sweep waits for it).
std::function<void()> copy_yardstick(double traffic_bytes, Device device);

}  // namespace tensorbuf::bench
