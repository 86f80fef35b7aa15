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
