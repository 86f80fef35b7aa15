// substr on the CPU, AVX-512BW + BMI2 path (x86 builds without TENSORBUF_PORTABLE, CPUs that
// have it: cpu/cpu_features.hpp): rule 4 for short strings by one masked load, and 64-byte scans
// for long ones.
#pragma once

#include "core/isa.hpp"
#if defined(TENSORBUF_ISA_X86_64)
#include <immintrin.h>

#include <algorithm>
#include <cstdint>

#include "cpu/substr_prefetch.hpp"
#include "cpu/substr_slice.hpp"

namespace tensorbuf::cpu::substr_detail {

#define TENSORBUF_SUBSTR_SIMD_ATTRS target("avx512f,avx512bw,bmi,bmi2,popcnt")
#define TENSORBUF_SUBSTR_SIMD_TARGET __attribute__((TENSORBUF_SUBSTR_SIMD_ATTRS, always_inline))

// Rule 4 for a string of fewer than 64 bytes: one masked load of exactly its bytes (masked-out
// bytes are never accessed, so nothing outside the string is read), the character starts as a
// bitmask plus a sentinel bit at `size`, so that start number c (0 <= c <= chars) is at
// TZCNT(PDEP(1 << c, starts)) (the sentinel for c == chars); no branch on the data. The window
// is kernels::unit_window's; for an out-of-range pos the shift count is masked and the result
// discarded.
TENSORBUF_SUBSTR_SIMD_TARGET inline Slice utf8_slice_avx512(const std::uint8_t* s,
                                                            std::int64_t size, std::int64_t pos,
                                                            std::int64_t len) {
  const std::uint64_t valid = _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(size));
  const __m512i v = _mm512_maskz_loadu_epi8(valid, s);
  // Continuation bytes 0x80..0xBF are exactly the signed bytes below -64 (0xC0).
  const std::uint64_t cont = _mm512_cmplt_epi8_mask(v, _mm512_set1_epi8(-64));
  const std::uint64_t starts = (~cont & valid) | (valid & 1);  // byte 0 always starts one
  const auto chars = static_cast<std::uint64_t>(_mm_popcnt_u64(starts));
  const std::uint64_t marked = starts | (valid + 1);  // size < 64: bit `size`
  const UnitWindow w = unit_window(chars, pos, len);
  const std::uint64_t b = _tzcnt_u64(_pdep_u64(std::uint64_t{1} << (w.first & 63), marked));
  const std::uint64_t e = _tzcnt_u64(_pdep_u64(std::uint64_t{1} << (w.end & 63), marked));
  return window_slice(w, b, e);
}

// The character starts among bytes [lo, hi) of s (hi - lo <= 64) as a bitmask (bit j: byte
// lo + j): a plain load for a whole block, else a masked load that reads nothing at or past
// hi. Byte 0 of the string is always a start.
TENSORBUF_SUBSTR_SIMD_TARGET inline std::uint64_t block_starts(const std::uint8_t* s,
                                                               std::int64_t lo, std::int64_t hi) {
  const bool whole = hi - lo == 64;
  const std::uint64_t valid =
      whole ? ~std::uint64_t{0} : _bzhi_u64(~std::uint64_t{0}, static_cast<unsigned>(hi - lo));
  const __m512i v = whole ? _mm512_loadu_si512(s + lo) : _mm512_maskz_loadu_epi8(valid, s + lo);
  const std::uint64_t starts = ~_mm512_cmplt_epi8_mask(v, _mm512_set1_epi8(-64)) & valid;
  return lo == 0 ? starts | 1 : starts;
}

// Start number k among the starts in [from, size), 64 bytes per step; when there are
// only m <= k of them, size, with *missing = k - m (0: k is the count, "one past the last").
TENSORBUF_SUBSTR_SIMD_TARGET inline std::int64_t kth_start(const std::uint8_t* s, std::int64_t size,
                                                           std::int64_t from, std::uint64_t k,
                                                           std::uint64_t* missing) {
  for (std::int64_t at = from; at < size; at += 64) {
    const std::uint64_t starts = block_starts(s, at, std::min(at + 64, size));
    const auto c = static_cast<std::uint64_t>(_mm_popcnt_u64(starts));
    if (k < c) {
      return at + static_cast<std::int64_t>(_tzcnt_u64(_pdep_u64(std::uint64_t{1} << k, starts)));
    }
    k -= c;
  }
  *missing = k;
  return size;
}

// Start number k counted back from the end of s (0: the last start), scanning 64 bytes per
// step from the end; -1 when s has k or fewer starts.
TENSORBUF_SUBSTR_SIMD_TARGET inline std::int64_t kth_start_from_end(const std::uint8_t* s,
                                                                    std::int64_t size,
                                                                    std::uint64_t k) {
  for (std::int64_t hi = size; hi > 0;) {
    const std::int64_t lo = std::max<std::int64_t>(hi - 64, 0);
    const std::uint64_t starts = block_starts(s, lo, hi);
    const auto c = static_cast<std::uint64_t>(_mm_popcnt_u64(starts));
    if (k < c) {  // number k from the block's top is number c - 1 - k from its bottom
      return lo + static_cast<std::int64_t>(
                      _tzcnt_u64(_pdep_u64(std::uint64_t{1} << (c - 1 - k), starts)));
    }
    k -= c;
    hi = lo;
  }
  return -1;
}

// The starts locator of kernels::char_window on the 64-byte scans above. Not always_inline:
// char_window's own instantiation has the default target. utf8_slice_long is `flatten`, so that
// char_window, these and the scans all end up inlined in it (plain calls measured slower).
struct Avx512Starts {
  const std::uint8_t* s;
  std::int64_t size;
  __attribute__((TENSORBUF_SUBSTR_SIMD_ATTRS)) std::int64_t from_front(
      std::int64_t from, std::uint64_t k, std::uint64_t* missing) const {
    return kth_start(s, size, from, k, missing);
  }
  __attribute__((TENSORBUF_SUBSTR_SIMD_ATTRS)) std::int64_t from_back(std::int64_t k) const {
    return kth_start_from_end(s, size, static_cast<std::uint64_t>(k));
  }
};

// Rule 4 for strings of 64+ bytes, out of line (keeps the short-string loop small): 64 bytes
// per step where the portable scan takes 8; the rule is kernels::char_window's, as in
// kernels::utf8_range (a negative pos counted back from the end, so only the bytes from the
// substring's start to the end are read, not the whole string twice).
__attribute__((noinline, flatten, TENSORBUF_SUBSTR_SIMD_ATTRS)) inline Slice utf8_slice_long(
    const std::uint8_t* chars, std::int64_t first, std::int64_t size, std::int64_t pos,
    std::int64_t len) {
  kernels::ByteRange r;
  if (!kernels::char_window(Avx512Starts{chars + first, size}, size, pos, len, &r)) {
    return Slice{0, -1};
  }
  return Slice{r.begin, r.end - r.begin};
}

struct Utf8SimdSlicer {
  const std::int64_t* offs;
  std::int64_t in_size;
  // Not always_inline: the portable instantiation of pass1_packed calls it (never at run
  // time); pass1_simd (flatten, same target) inlines it.
  __attribute__((TENSORBUF_SUBSTR_SIMD_ATTRS)) Slice operator()(const std::uint8_t* chars,
                                                                std::int64_t in_i,
                                                                std::int64_t first,
                                                                std::int64_t size, std::int64_t p,
                                                                std::int64_t l) const {
    if (size < 64) {
      // With masked loads alone the loop waits on memory (as the mask update's expand-load
      // did): fetch kShortScanAhead bytes ahead (docs/substr.md has the A/B).
      prefetch_at(chars, first + kShortScanAhead);
      return utf8_slice_avx512(chars + first, size, p, l);
    }
    // The head of the string kPrefetchAhead elements on. Next to ScanPrefetch (contiguous
    // chunks) it reaches further ahead than the window does; removing it there was slower.
    __builtin_prefetch(chars + offs[std::min(in_i + kPrefetchAhead, in_size)]);
    return utf8_slice_long(chars, first, size, p, l);
  }
};

}  // namespace tensorbuf::cpu::substr_detail

#endif  // TENSORBUF_ISA_X86_64
