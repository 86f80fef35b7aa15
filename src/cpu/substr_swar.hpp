// substr on the CPU, portable (SWAR) path: the slicers of pass 1 for bytes and for UTF-8, the
// branch-free scan of short UTF-8 strings by word loads, and the portable scan of long ones
// (kernels::utf8_range).
#pragma once

#include <array>
#include <cstdint>

#include "cpu/substr_prefetch.hpp"
#include "cpu/substr_slice.hpp"
#include "kernels/bits.hpp"
#include "kernels/substr_rules.hpp"

namespace tensorbuf::cpu::substr_detail {

struct ByteSlicer {
  Slice operator()(const std::uint8_t*, std::int64_t, std::int64_t, std::int64_t size,
                   std::int64_t p, std::int64_t l) const {
    return byte_slice(size, p, l);
  }
};

inline Slice utf8_slice_portable(const std::uint8_t* chars, std::int64_t first, std::int64_t size,
                                 std::int64_t p, std::int64_t l) {
  kernels::ByteRange r;
  if (!kernels::utf8_range(chars + first, size, p, l, &r)) return Slice{0, -1};
  return Slice{r.begin, r.end - r.begin};
}

// Portable bit tricks for the short-string path below (no PDEP/TZCNT/POPCNT needed).
// One bit per byte from the top bits of a word (little-endian: bit j = byte j): the 8 flags
// land in distinct bits of the top byte of the product, without carries.
inline std::uint64_t gather_top_bits(std::uint64_t top_bits) {
  return ((top_bits >> 7) * 0x0102040810204080ull) >> 56;
}

// kSelectInByte[b][r]: the bit of set bit number r (0-based) of byte b; 8 when there is none.
constexpr auto kSelectInByte = [] {
  std::array<std::array<std::uint8_t, 8>, 256> table{};
  for (int b = 0; b < 256; ++b) {
    for (int r = 0; r < 8; ++r) table[b][r] = 8;
    int r = 0;
    for (int bit = 0; bit < 8; ++bit) {
      if ((b >> bit) & 1) table[b][r++] = static_cast<std::uint8_t>(bit);
    }
  }
  return table;
}();

// The bit of set bit number k (0-based, k < 64) of x, given prefix = the byte-wise prefix
// counts of x (byte j: set bits in bytes 0..j, at most 64); meaningless (but defined) when x
// has k or fewer. The byte comes from comparing all prefix counts at once (the select_top_bit
// trick of kernels/substr_scan.hpp), the bit from a table.
inline std::int64_t select_bit(std::uint64_t x, std::uint64_t prefix, std::uint64_t k) {
  const std::uint64_t reached =
      (prefix + (0x80 - (k + 1)) * kernels::kOnesPerByte) & kernels::kTopBits;
  const int byte = reached == 0 ? 7 : __builtin_ctzll(reached) / 8;
  const std::uint64_t before = byte == 0 ? 0 : (prefix >> (8 * byte - 8)) & 0xffu;
  const auto bits = static_cast<std::size_t>((x >> (8 * byte)) & 0xffu);
  return 8 * byte + kSelectInByte[bits][(k - before) & 7];
}

// The character-start flags of the kWords words from s, one bit per byte (bit j: byte j).
template <int kWords>
inline std::uint64_t start_bits(const std::uint8_t* s) {
  std::uint64_t starts = 0;
  for (int w = 0; w < kWords; ++w) {
    const std::uint64_t x = kernels::load_u64(s + 8 * w);
    starts |= gather_top_bits(~kernels::continuation_bits(x) & 0x8080808080808080ull) << (8 * w);
  }
  return starts;
}

// Rule 4 for a string of fewer than 64 bytes whose next 64 bytes all lie in the chars buffer,
// without branches on the data, as utf8_slice_avx512 does with masked loads: word loads (four
// below 32 bytes, else eight; the bytes past the string are masked off, so they never affect
// the result), the character starts as a bitmask plus a sentinel bit at `size`, and the count
// and start number k from its byte-wise prefix counts. Little-endian only (the bit order).
inline Slice utf8_slice_short_swar(const std::uint8_t* s, std::int64_t size, std::int64_t pos,
                                   std::int64_t len) {
  const std::uint64_t bit_size = std::uint64_t{1} << size;  // size < 64
  const std::uint64_t valid = bit_size - 1;
  const std::uint64_t flags = size < 32 ? start_bits<4>(s) : start_bits<8>(s);
  const std::uint64_t marked = (flags & valid) | (valid & 1) | bit_size;  // byte 0 starts one
  const std::uint64_t prefix = kernels::byte_prefix_sums(kernels::byte_popcounts(marked));
  const std::uint64_t chars = (prefix >> 56) - 1;  // all starts, less the sentinel
  const UnitWindow w = unit_window(chars, pos, len);
  // For an out-of-range pos the bit index is masked and the result discarded.
  const std::int64_t b = select_bit(marked, prefix, w.first & 63);
  const std::int64_t e = select_bit(marked, prefix, w.end & 63);
  return window_slice(w, static_cast<std::uint64_t>(b), static_cast<std::uint64_t>(e));
}

struct Utf8Slicer {
  const std::int64_t* offs;
  std::int64_t in_size;
  std::int64_t readable;  // bytes of the chars buffer (reads stay below)
  Slice operator()(const std::uint8_t* chars, std::int64_t in_i, std::int64_t first,
                   std::int64_t size, std::int64_t p, std::int64_t l) const {
    if constexpr (kernels::kLittleEndian) {
      if (size < 64 && first + 64 <= readable) {
        prefetch_at(chars, first + kShortScanAhead);
        return utf8_slice_short_swar(chars + first, size, p, l);
      }
    }
    // Long strings: each element's first bytes are a fresh cache miss; fetch ahead.
    __builtin_prefetch(chars + offs[std::min(in_i + kPrefetchAhead, in_size)]);
    return utf8_slice_portable(chars, first, size, p, l);
  }
};

}  // namespace tensorbuf::cpu::substr_detail
