// substr's lane form for long UTF-8 strings on the device: kLanes threads share one string,
// each counting and locating the character starts of its run of the string's words.
#pragma once

#include <cstdint>

#include "kernels/config.hpp"
#include "kernels/substr_scan.hpp"

namespace tensorbuf::kernels {

// The lane-parallel form for long UTF-8 strings: kLanes threads per string (a warp under the
// CUDA executor's launch). The 8-byte words of the chars buffer that hold a string's bytes
// (word w = bytes [8w, 8w + 8) from the buffer's start) are cut into kLanes runs of equal
// length; lane l counts the character starts in run l, then, per output element, the lane
// whose run holds the substring's first (last) character finds its byte.
inline constexpr int kLanes = 32;

// Word w of `chars` with its byte j in bits 8j..8j+7. Only its bytes inside [lo, hi) are
// meaningful. The device loads the aligned word: device chars buffers start 8-byte aligned and
// are padded to whole 8-byte words (cuda/device_memory.cpp), so the word of any byte of the
// buffer lies inside the allocation. The host reads only the bytes inside [lo, hi) (a host
// buffer has no padding) and leaves the others 0.
TENSORBUF_HOST_DEVICE inline std::uint64_t load_chars_word(const std::uint8_t* chars,
                                                           std::int64_t w, std::int64_t lo,
                                                           std::int64_t hi) {
#if defined(__CUDA_ARCH__)
  (void)lo;
  (void)hi;
  return *reinterpret_cast<const std::uint64_t*>(chars + 8 * w);
#else
  std::uint64_t word = 0;
  const std::int64_t a = 8 * w > lo ? 8 * w : lo;
  const std::int64_t b = 8 * w + 8 < hi ? 8 * w + 8 : hi;
  for (std::int64_t at = a; at < b; ++at) {
    word |= static_cast<std::uint64_t>(chars[at]) << (8 * (at - 8 * w));
  }
  return word;
#endif
}

// The top bit of each byte of word w that starts a character of the string at bytes
// [first, end) of chars: its bytes outside 0x80..0xBF, and its byte 0 whatever it is (rule 4).
// The word holds at least one byte of the string.
TENSORBUF_HOST_DEVICE inline std::uint64_t starts_in_word(const std::uint8_t* chars, std::int64_t w,
                                                          std::int64_t first, std::int64_t end) {
  const std::int64_t base = 8 * w;
  std::uint64_t valid = kTopBits;
  if (first > base) valid &= kTopBits << (8 * (first - base));      // first - base: 1..7
  if (end < base + 8) valid &= kTopBits >> (8 * (base + 8 - end));  // 1..7
  std::uint64_t starts = ~continuation_bits(load_chars_word(chars, w, first, end)) & valid;
  if (first >= base) starts |= std::uint64_t{0x80} << (8 * (first - base));
  return starts;
}

// The words [*w_lo, *w_hi) of lane `lane`'s run for the string at [first, end) (empty runs for
// an empty string, and for the last lanes of a short one).
TENSORBUF_HOST_DEVICE inline void lane_words(std::int64_t first, std::int64_t end, int lane,
                                             std::int64_t* w_lo, std::int64_t* w_hi) {
  if (first >= end) {
    *w_lo = 0;
    *w_hi = 0;
    return;
  }
  const std::int64_t w0 = first / 8;
  const std::int64_t w1 = end / 8 + (end % 8 != 0 ? 1 : 0);
  const std::int64_t per = (w1 - w0) / kLanes + ((w1 - w0) % kLanes != 0 ? 1 : 0);
  const std::int64_t a = w0 + per * lane;
  *w_lo = a < w1 ? a : w1;
  *w_hi = a + per < w1 ? a + per : w1;
}

// The character starts in lane `lane`'s run of the string at [first, end) of chars.
TENSORBUF_HOST_DEVICE inline std::int64_t lane_count_starts(const std::uint8_t* chars,
                                                            std::int64_t first, std::int64_t end,
                                                            int lane) {
  std::int64_t w_lo = 0;
  std::int64_t w_hi = 0;
  lane_words(first, end, lane, &w_lo, &w_hi);
  std::int64_t count = 0;
  for (std::int64_t w = w_lo; w < w_hi; ++w) {
    count += count_top_bits(starts_in_word(chars, w, first, end));
  }
  return count;
}

// The byte (in chars) of start number k (0-based, k < lane_count_starts) in lane `lane`'s run
// of the string at [first, end).
TENSORBUF_HOST_DEVICE inline std::int64_t lane_start_byte(const std::uint8_t* chars,
                                                          std::int64_t first, std::int64_t end,
                                                          int lane, std::int64_t k) {
  std::int64_t w_lo = 0;
  std::int64_t w_hi = 0;
  lane_words(first, end, lane, &w_lo, &w_hi);
  for (std::int64_t w = w_lo; w < w_hi; ++w) {
    const std::uint64_t starts = starts_in_word(chars, w, first, end);
    const std::int64_t c = count_top_bits(starts);
    if (k < c) return 8 * w + select_top_bit(starts, k);
    k -= c;
  }
  return end;  // not reached for a valid k
}

}  // namespace tensorbuf::kernels
