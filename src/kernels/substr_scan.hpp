// Counting and locating UTF-8 character starts in a string, eight bytes at a time (SWAR) and
// 32 per step on long runs: the portable scans behind substr's rule 4 (kernels/substr_rules.hpp),
// on the host and the device. A character start is byte 0 of the string or any byte outside
// 0x80..0xBF; UTF-8 is never decoded. Nothing outside [0, hi) of a string is read.
//
// Start numbers are 0-based in both directions, in every scan of substr (these, the lanes, the
// CPU's AVX-512 and SWAR paths): start number 0 from the front is the first start, from the
// back the last one. pos >= 0 is start number pos from the front, pos < 0 start number
// -pos - 1 from the back (kernels::char_window).
#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/bits.hpp"
#include "kernels/config.hpp"

namespace tensorbuf::kernels {

TENSORBUF_HOST_DEVICE inline std::uint64_t load_u64(const std::uint8_t* p) {
  std::uint64_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

// The top bit of every byte that is a UTF-8 continuation byte (0x80..0xBF: top bits 10). Byte
// order does not matter: only the count of set bits is used.
TENSORBUF_HOST_DEVICE inline std::uint64_t continuation_bits(std::uint64_t x) {
  return x & ~(x << 1) & 0x8080808080808080ull;
}

TENSORBUF_HOST_DEVICE inline bool is_continuation(std::uint8_t b) { return (b & 0xC0u) == 0x80u; }

TENSORBUF_HOST_DEVICE inline int lowest_set_bit(std::uint64_t x) {  // x != 0
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(x)) - 1;
#else
  return __builtin_ctzll(x);
#endif
}

inline constexpr std::uint64_t kTopBits = 0x8080808080808080ull;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
inline constexpr bool kLittleEndian = true;
#else
inline constexpr bool kLittleEndian = false;
#endif

// The last `valid` (1..7) bytes before s + hi as the low bytes of a word, read as the 8 bytes
// [hi - 8, hi) (hi >= 8: still inside the string) and shifted; the high bytes are 0.
TENSORBUF_HOST_DEVICE inline std::uint64_t load_tail(const std::uint8_t* s, std::int64_t hi,
                                                     int valid) {
  return load_u64(s + hi - 8) >> (8 * (8 - valid));
}

// Character starts among bytes [lo, hi) of s: byte 0, and every byte outside 0x80..0xBF.
// Eight bytes at a time (SWAR), 32 per step on long runs, and the last 1..7 bytes in one
// word too when the string has 8 bytes before hi; nothing outside [0, hi) is ever read.
TENSORBUF_HOST_DEVICE inline std::int64_t count_starts(const std::uint8_t* s, std::int64_t lo,
                                                       std::int64_t hi) {
  if (lo >= hi) return 0;
  std::int64_t count = 0;
  if (lo == 0) {
    count = 1;
    lo = 1;
  }
  std::int64_t i = lo;
  std::int64_t continuations = 0;
  for (; hi - i >= 32; i += 32) {
    // Top bits of four words added bytewise (at most 4 per byte: no carry between bytes).
    const std::uint64_t sum = (continuation_bits(load_u64(s + i)) >> 7) +
                              (continuation_bits(load_u64(s + i + 8)) >> 7) +
                              (continuation_bits(load_u64(s + i + 16)) >> 7) +
                              (continuation_bits(load_u64(s + i + 24)) >> 7);
    continuations += sum_bytes(sum);
  }
  count += (i - lo) - continuations;
  for (; hi - i >= 8; i += 8) count += 8 - count_top_bits(continuation_bits(load_u64(s + i)));
  const auto rest = static_cast<int>(hi - i);
  if (rest == 0) return count;
  if (kLittleEndian && hi >= 8) {
    // The zero high bytes are not continuations: only the valid bytes' count is subtracted.
    return count + rest - count_top_bits(continuation_bits(load_tail(s, hi, rest)));
  }
  for (; i < hi; ++i) count += is_continuation(s[i]) ? 0 : 1;
  return count;
}

// The byte (0..7) of set top bit number r (0-based from the lowest byte, r < set bits) in
// `bits` (only top bits set), little-endian, without a loop: byte j of `prefix` counts the set
// bits in bytes 0..j (at most 8), and adding 0x7f - r sets its top bit exactly where that count
// is > r.
TENSORBUF_HOST_DEVICE inline int select_top_bit(std::uint64_t bits, std::int64_t r) {
  const std::uint64_t prefix = byte_prefix_sums(bits >> 7);
  const std::uint64_t reached =
      (prefix + (0x7f - static_cast<std::uint64_t>(r)) * kOnesPerByte) & kTopBits;
  return lowest_set_bit(reached) / 8;
}

// The byte position of start number k (0-based) among the character starts in bytes [lo, hi)
// of s. When there are only m <= k of them, returns hi; *seen is the number of starts seen
// (k + 1 when found, else m).
TENSORBUF_HOST_DEVICE inline std::int64_t start_byte(const std::uint8_t* s, std::int64_t lo,
                                                     std::int64_t hi, std::int64_t k,
                                                     std::int64_t* seen) {
  std::int64_t count = 0;  // starts before byte i
  if (lo < hi && lo == 0) {
    if (k == 0) {
      *seen = 1;
      return 0;
    }
    count = 1;
    lo = 1;
  }
  std::int64_t i = lo;
  // Whole 32-byte blocks while start number k cannot be in them, then words.
  while (hi - i >= 32 && count + 32 <= k) {
    const std::uint64_t sum = (continuation_bits(load_u64(s + i)) >> 7) +
                              (continuation_bits(load_u64(s + i + 8)) >> 7) +
                              (continuation_bits(load_u64(s + i + 16)) >> 7) +
                              (continuation_bits(load_u64(s + i + 24)) >> 7);
    const std::int64_t c = 32 - sum_bytes(sum);
    if (count + c > k) break;  // the start is in this block: go on by words
    count += c;
    i += 32;
  }
  while (i < hi) {
    // One word: 8 bytes from i, or the last 1..7 bytes of [lo, hi).
    const std::int64_t remaining = hi - i;
    if (!kLittleEndian || (remaining < 8 && hi < 8)) break;  // bytewise below
    const int valid = remaining >= 8 ? 8 : static_cast<int>(remaining);
    const std::uint64_t word = valid == 8 ? load_u64(s + i) : load_tail(s, hi, valid);
    const std::uint64_t valid_top = kTopBits >> (8 * (8 - valid));
    const std::uint64_t starts = ~continuation_bits(word) & valid_top;  // top bit of each start
    const std::int64_t c = count_top_bits(starts);
    if (count + c > k) {
      *seen = k + 1;
      return i + select_top_bit(starts, k - count);
    }
    count += c;
    i += valid;
  }
  for (; i < hi; ++i) {
    if (!is_continuation(s[i]) && count++ == k) {
      *seen = k + 1;
      return i;
    }
  }
  *seen = count;
  return hi;
}

// The byte position of start number k (0-based) counted back from the end of s (0: the last
// start), or -1 when s has k or fewer starts. Reads only the bytes from that start to the end:
// 32 bytes per step while a block cannot hold it, then words, then (for the first bytes of s)
// single bytes.
TENSORBUF_HOST_DEVICE inline std::int64_t start_byte_from_end(const std::uint8_t* s,
                                                              std::int64_t size, std::int64_t k) {
  std::int64_t count = 0;  // starts at or after byte hi
  std::int64_t hi = size;
  // Blocks and words that end at hi and do not reach byte 0 (always a start, counted below).
  while (hi - 32 >= 1 && count + 32 <= k) {
    const std::uint64_t sum = (continuation_bits(load_u64(s + hi - 32)) >> 7) +
                              (continuation_bits(load_u64(s + hi - 24)) >> 7) +
                              (continuation_bits(load_u64(s + hi - 16)) >> 7) +
                              (continuation_bits(load_u64(s + hi - 8)) >> 7);
    count += 32 - sum_bytes(sum);
    hi -= 32;
  }
  while (kLittleEndian && hi - 8 >= 1) {
    const std::uint64_t starts = ~continuation_bits(load_u64(s + hi - 8)) & kTopBits;
    const std::int64_t c = count_top_bits(starts);
    if (count + c > k) {  // number k - count from the word's top is this one from its bottom
      return hi - 8 + select_top_bit(starts, c - 1 - (k - count));
    }
    count += c;
    hi -= 8;
  }
  for (std::int64_t i = hi - 1; i >= 0; --i) {
    if ((i == 0 || !is_continuation(s[i])) && count++ == k) return i;
  }
  return -1;
}

}  // namespace tensorbuf::kernels
