// Host memory for buffers when no device memory is active (no usable GPU).
#pragma once

#include <cstddef>

namespace tensorbuf::core {

// 64-byte-aligned memory. Blocks of kLargeBlock bytes or more are 2 MiB-aligned, advised to
// use transparent huge pages, and cached when freed (up to a process-wide cap) for reuse by a
// later buffer of the same rounded size, so steady-state ops do not pay the kernel's
// first-touch page faults again (on virtual machines these cost more than the copy itself).
// Throws ResourceExhaustedError when the system has no memory.
void* allocate_host_memory(std::size_t bytes);
void free_host_memory(void* ptr, std::size_t bytes) noexcept;

inline constexpr std::size_t kLargeBlock = std::size_t{1} << 20;

// Bytes held by the cache now (for tests).
std::size_t cached_host_bytes();

// Blocks up to kSmallBlock bytes are kept by the thread that frees them (its last four) for
// its next allocation of the same rounded size; false under AddressSanitizer (for tests).
inline constexpr std::size_t kSmallBlock = std::size_t{256} << 10;
bool small_host_cache_enabled();

}  // namespace tensorbuf::core
