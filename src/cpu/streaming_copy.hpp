// Copies into large outputs that bypass the caches for whole 64-byte lines (shared by the CPU
// backends whose outputs are written once, front to back).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/isa.hpp"
#if defined(TENSORBUF_ISA_SSE2)
#include <emmintrin.h>
#endif

namespace tensorbuf::cpu {

/// Outputs of at least this many bytes are worth streaming: far beyond the caches, where a
/// plain store first reads each destination line (a third memory stream next to the source and
/// the write).
inline constexpr std::int64_t kStreamOutputBytes = std::int64_t{16} << 20;
/// Single copies of at least this many bytes stream their whole lines.
inline constexpr std::int64_t kStreamCopyBytes = 256;

/// The 64-byte lines wholly inside [dst, dst + n) written with non-temporal stores (no read of
/// the destination line first, as glibc's memcpy does for large blocks); the partial lines at
/// both ends with ordinary stores, so a line shared with a neighbouring copy is never half
/// streamed. The caller calls streaming_fence() before others may read the bytes.
inline void copy_streaming(void* dst_bytes, const void* src_bytes, std::size_t n) {
  auto* dst = static_cast<std::uint8_t*>(dst_bytes);
  const auto* src = static_cast<const std::uint8_t*>(src_bytes);
#if defined(TENSORBUF_ISA_SSE2)
  const std::size_t head = (64 - (reinterpret_cast<std::uintptr_t>(dst) & 63)) & 63;
  if (head >= n) {
    std::memcpy(dst, src, n);
    return;
  }
  std::memcpy(dst, src, head);
  dst += head;
  src += head;
  n -= head;
  for (; n >= 64; n -= 64, dst += 64, src += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 32));
    const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 48), d);
  }
#endif
  std::memcpy(dst, src, n);
}

/// Orders this thread's streamed stores before its later stores (and so before the join of a
/// parallel_for that others then read after).
inline void streaming_fence() {
#if defined(TENSORBUF_ISA_SSE2)
  _mm_sfence();
#endif
}

}  // namespace tensorbuf::cpu
