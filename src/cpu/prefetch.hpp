// Software prefetch of an address that may lie past the end of its buffer (or off a null
// one): the address is computed as an integer, so no out-of-range pointer is ever formed
// (undefined behaviour even unused), and a prefetch never faults.
#pragma once

#include <cstdint>

namespace tensorbuf::cpu {

inline void prefetch_at(const void* base, std::int64_t offset) {
  const std::uintptr_t address =
      reinterpret_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(offset);
  __builtin_prefetch(reinterpret_cast<const void*>(address));
}

}  // namespace tensorbuf::cpu

namespace tensorbuf::cpu {

// An element about to be read and written, into every cache level (for ownership where the
// target has the instruction).
inline void prefetch_for_write_at(const void* base, std::int64_t offset) {
  const std::uintptr_t address =
      reinterpret_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(offset);
  __builtin_prefetch(reinterpret_cast<const void*>(address), 1, 3);
}

// A stream read once: non-temporal, so it does not evict from the caches what the op keeps
// there.
inline void prefetch_stream_at(const void* base, std::int64_t offset) {
  const std::uintptr_t address =
      reinterpret_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(offset);
  __builtin_prefetch(reinterpret_cast<const void*>(address), 0, 0);
}

}  // namespace tensorbuf::cpu
