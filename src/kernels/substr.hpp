// substr's per-element logic (both units, spec/substr.md rules 3-5) and the CUDA backend's
// multi-pass driver (sizes -> exclusive scan of the output offsets -> copy), written over an
// executor (executor.hpp) so that tests run it on the CPU through HostExecutor.
//
// Every function here reads only bytes [0, size) of the string it is given, whatever the
// bytes are (UTF-8 is never decoded, only character starts are counted), except the device's
// aligned word loads of the lane form (load_chars_word), which stay inside the allocation.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/config.hpp"
#include "kernels/substr_map.hpp"

namespace tensorbuf::kernels {

// ---------------------------------------------------------------------------------------------
// Per element

// A substring as byte offsets [begin, end) into its string.
struct ByteRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};

// The number of bytes of `bits` whose top bit is set, when only top bits can be set (a
// continuation_bits() value). One multiply on the host, which needs no POPCNT instruction.
TENSORBUF_HD inline int count_top_bits(std::uint64_t bits) {
#if defined(__CUDA_ARCH__)
  return __popcll(bits);
#else
  return static_cast<int>(((bits >> 7) * 0x0101010101010101ull) >> 56);
#endif
}

TENSORBUF_HD inline std::uint64_t load_u64(const std::uint8_t* p) {
  std::uint64_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

// The top bit of every byte that is a UTF-8 continuation byte (0x80..0xBF: top bits 10). Byte
// order does not matter: only the count of set bits is used.
TENSORBUF_HD inline std::uint64_t continuation_bits(std::uint64_t x) {
  return x & ~(x << 1) & 0x8080808080808080ull;
}

TENSORBUF_HD inline bool is_continuation(std::uint8_t b) { return (b & 0xC0u) == 0x80u; }

TENSORBUF_HD inline int lowest_set_bit(std::uint64_t x) {  // x != 0
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
TENSORBUF_HD inline std::uint64_t load_tail(const std::uint8_t* s, std::int64_t hi, int valid) {
  return load_u64(s + hi - 8) >> (8 * (8 - valid));
}

// Character starts among bytes [lo, hi) of s: byte 0, and every byte outside 0x80..0xBF.
// Eight bytes at a time (SWAR), 32 per step on long runs, and the last 1..7 bytes in one
// word too when the string has 8 bytes before hi; nothing outside [0, hi) is ever read.
TENSORBUF_HD inline std::int64_t count_starts(const std::uint8_t* s, std::int64_t lo,
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
    continuations += static_cast<std::int64_t>((sum * 0x0101010101010101ull) >> 56);
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

// The byte (0..7) of the r-th (1 <= r <= set bits) top bit set in `bits` (only top bits set),
// little-endian, without a loop: byte j of `prefix` counts the set bits in bytes 0..j (at most
// 8), and adding 0x80 - r sets its top bit exactly where that count >= r.
TENSORBUF_HD inline int select_top_bit(std::uint64_t bits, std::int64_t r) {
  const std::uint64_t prefix = (bits >> 7) * 0x0101010101010101ull;
  const std::uint64_t reached =
      (prefix + (0x80 - static_cast<std::uint64_t>(r)) * 0x0101010101010101ull) & kTopBits;
  return lowest_set_bit(reached) / 8;
}

// The byte position of the k-th (k >= 1) character start among bytes [lo, hi) of s. When
// there are fewer, returns hi; *found is the number of starts seen (k when found).
TENSORBUF_HD inline std::int64_t nth_start(const std::uint8_t* s, std::int64_t lo, std::int64_t hi,
                                           std::int64_t k, std::int64_t* found) {
  std::int64_t count = 0;
  if (lo < hi && lo == 0) {
    count = 1;
    if (k == 1) {
      *found = 1;
      return 0;
    }
    lo = 1;
  }
  std::int64_t i = lo;
  // Whole 32-byte blocks while the k-th start cannot be in them, then words.
  while (hi - i >= 32 && count + 32 < k) {
    const std::uint64_t sum = (continuation_bits(load_u64(s + i)) >> 7) +
                              (continuation_bits(load_u64(s + i + 8)) >> 7) +
                              (continuation_bits(load_u64(s + i + 16)) >> 7) +
                              (continuation_bits(load_u64(s + i + 24)) >> 7);
    const std::int64_t c = 32 - static_cast<std::int64_t>((sum * 0x0101010101010101ull) >> 56);
    if (count + c >= k) break;  // the start is in this block: go on by words
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
    if (count + c >= k) {
      *found = k;
      return i + select_top_bit(starts, k - count);
    }
    count += c;
    i += valid;
  }
  for (; i < hi; ++i) {
    if (!is_continuation(s[i]) && ++count == k) {
      *found = k;
      return i;
    }
  }
  *found = count;
  return hi;
}

// The byte position of the k-th (k >= 1) character start counted back from the end of s (1:
// the last start), or -1 when s has fewer than k. Reads only the bytes from that start to the
// end: 32 bytes per step while a block cannot hold it, then words, then (for the first bytes
// of s) single bytes.
TENSORBUF_HD inline std::int64_t nth_start_from_end(const std::uint8_t* s, std::int64_t size,
                                                    std::int64_t k) {
  std::int64_t count = 0;
  std::int64_t hi = size;
  // Blocks and words that end at hi and do not reach byte 0 (always a start, counted below).
  while (hi - 32 >= 1 && count + 32 < k) {
    const std::uint64_t sum = (continuation_bits(load_u64(s + hi - 32)) >> 7) +
                              (continuation_bits(load_u64(s + hi - 24)) >> 7) +
                              (continuation_bits(load_u64(s + hi - 16)) >> 7) +
                              (continuation_bits(load_u64(s + hi - 8)) >> 7);
    count += 32 - static_cast<std::int64_t>((sum * 0x0101010101010101ull) >> 56);
    hi -= 32;
  }
  while (kLittleEndian && hi - 8 >= 1) {
    const std::uint64_t starts = ~continuation_bits(load_u64(s + hi - 8)) & kTopBits;
    const std::int64_t c = count_top_bits(starts);
    if (count + c >= k) {  // the (k - count)-th from the word's top = this one from its bottom
      return hi - 8 + select_top_bit(starts, c - (k - count) + 1);
    }
    count += c;
    hi -= 8;
  }
  for (std::int64_t i = hi - 1; i >= 0; --i) {
    if ((i == 0 || !is_continuation(s[i])) && ++count == k) return i;
  }
  return -1;
}

// Rule 3 (BYTE). False when pos is out of range.
TENSORBUF_HD inline bool byte_range(std::int64_t size, std::int64_t pos, std::int64_t len,
                                    ByteRange* out) {
  const std::int64_t p = pos < 0 ? size + pos : pos;  // size >= 0: no overflow
  if (p < 0 || p > size) return false;
  out->begin = p;
  out->end = (len < 0 || len >= size - p) ? size : p + len;
  return true;
}

// The byte offset of character c (0-based) of s, or size when c is the character count.
// False when c is beyond the count. c >= 0.
TENSORBUF_HD inline bool utf8_char_offset(const std::uint8_t* s, std::int64_t size, std::int64_t c,
                                          std::int64_t* out) {
  if (c > size) return false;  // never more characters than bytes; keeps c + 1 finite
  std::int64_t found = 0;
  const std::int64_t at = nth_start(s, 0, size, c + 1, &found);
  if (found == c + 1) {
    *out = at;
    return true;
  }
  if (found == c) {
    *out = size;
    return true;
  }
  return false;
}

// The end of `len` characters from `begin` (a character start or size), saturating at size.
TENSORBUF_HD inline std::int64_t utf8_advance(const std::uint8_t* s, std::int64_t size,
                                              std::int64_t begin, std::int64_t len) {
  if (len < 0 || len >= size - begin) return size;  // never more characters than bytes
  if (len == 0) return begin;
  std::int64_t found = 0;
  // Starts after `begin` are bytes outside 0x80..0xBF (begin + 1 >= 1: no byte-0 rule).
  const std::int64_t at = nth_start(s, begin + 1, size, len, &found);
  return found == len ? at : size;
}

// Whether a string of at most kShortAscii bytes is all ASCII (then characters are bytes):
// a few word loads, all inside the string.
inline constexpr std::int64_t kShortAscii = 32;
TENSORBUF_HD inline bool is_short_ascii(const std::uint8_t* s, std::int64_t size) {
  if (size > kShortAscii) return false;
  if (size < 8) {
    std::uint8_t any = 0;
    for (std::int64_t i = 0; i < size; ++i) any |= s[i];
    return (any & 0x80u) == 0;
  }
  std::uint64_t any = load_u64(s + size - 8);
  for (std::int64_t i = 0; i + 8 <= size; i += 8) any |= load_u64(s + i);
  return (any & kTopBits) == 0;
}

// Rule 4 (UTF8_CHAR), one thread scanning the string. False when pos is out of range.
TENSORBUF_HD inline bool utf8_range(const std::uint8_t* s, std::int64_t size, std::int64_t pos,
                                    std::int64_t len, ByteRange* out) {
  if (is_short_ascii(s, size)) return byte_range(size, pos, len, out);
  std::int64_t begin = 0;
  if (pos < 0) {
    // The (-pos)-th start from the end (-pos as unsigned: no overflow for INT64_MIN; never
    // more characters than bytes), read back from the end rather than counted from the front.
    const std::uint64_t back = std::uint64_t{0} - static_cast<std::uint64_t>(pos);
    if (back > static_cast<std::uint64_t>(size)) return false;
    begin = nth_start_from_end(s, size, static_cast<std::int64_t>(back));
    if (begin < 0) return false;
  } else if (!utf8_char_offset(s, size, pos, &begin)) {
    return false;
  }
  out->begin = begin;
  out->end = utf8_advance(s, size, begin, len);
  return true;
}

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
TENSORBUF_HD inline std::uint64_t load_chars_word(const std::uint8_t* chars, std::int64_t w,
                                                  std::int64_t lo, std::int64_t hi) {
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
TENSORBUF_HD inline std::uint64_t starts_in_word(const std::uint8_t* chars, std::int64_t w,
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
TENSORBUF_HD inline void lane_words(std::int64_t first, std::int64_t end, int lane,
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
TENSORBUF_HD inline std::int64_t lane_count_starts(const std::uint8_t* chars, std::int64_t first,
                                                   std::int64_t end, int lane) {
  std::int64_t w_lo = 0;
  std::int64_t w_hi = 0;
  lane_words(first, end, lane, &w_lo, &w_hi);
  std::int64_t count = 0;
  for (std::int64_t w = w_lo; w < w_hi; ++w) {
    count += count_top_bits(starts_in_word(chars, w, first, end));
  }
  return count;
}

// The byte (in chars) of the k-th (1 <= k <= lane_count_starts) character start in lane
// `lane`'s run of the string at [first, end).
TENSORBUF_HD inline std::int64_t lane_nth_start(const std::uint8_t* chars, std::int64_t first,
                                                std::int64_t end, int lane, std::int64_t k) {
  std::int64_t w_lo = 0;
  std::int64_t w_hi = 0;
  lane_words(first, end, lane, &w_lo, &w_hi);
  for (std::int64_t w = w_lo; w < w_hi; ++w) {
    const std::uint64_t starts = starts_in_word(chars, w, first, end);
    const std::int64_t c = count_top_bits(starts);
    if (k <= c) return 8 * w + select_top_bit(starts, k);
    k -= c;
  }
  return end;  // not reached for a valid k
}

// ---------------------------------------------------------------------------------------------
// Functors of the driver (plain views only)

template <class Index>
struct SubstrView {
  const std::int64_t* in_offsets = nullptr;
  const std::uint8_t* in_chars = nullptr;
  const Index* pos = nullptr;
  const Index* len = nullptr;
  core::SubstrMap map;
};

// Per input string and lane (kLanes consecutive threads per string): the character starts in
// that lane's run.
template <class Index>
struct LaneCountFunctor {
  SubstrView<Index> view;
  std::int64_t* counts;  // in_size * kLanes
  TENSORBUF_HD void operator()(std::int64_t t) const {
    const std::int64_t string = t / kLanes;
    const int lane = static_cast<int>(t - string * kLanes);
    counts[t] = lane_count_starts(view.in_chars, view.in_offsets[string],
                                  view.in_offsets[string + 1], lane);
  }
};

// Per output element: its byte range -> begins[i] (absolute in the input chars) and sizes[i];
// sizes[n] = 0 so that an exclusive scan over n + 1 leaves the total there. An out-of-range
// element gets size 0 (kDrop's "") and, when kReport, lowers *first_bad to its index.
template <class Index, bool kUtf8, bool kReport>
struct SizesFunctor {
  SubstrView<Index> view;
  std::int64_t* begins;
  std::int64_t* sizes;
  std::int64_t* first_bad;
  std::int64_t n;
  TENSORBUF_HD void operator()(std::int64_t i) const {
    if (i == n) {
      sizes[n] = 0;
      return;
    }
    std::int64_t in_i = 0;
    std::int64_t pos_i = 0;
    map_element(view.map, i, &in_i, &pos_i);
    const std::int64_t first = view.in_offsets[in_i];
    const std::int64_t size = view.in_offsets[in_i + 1] - first;
    const auto pos = static_cast<std::int64_t>(view.pos[pos_i]);
    const auto len = static_cast<std::int64_t>(view.len[pos_i]);
    ByteRange r;
    bool ok = false;
    if constexpr (kUtf8) {
      ok = utf8_range(view.in_chars + first, size, pos, len, &r);
    } else {
      ok = byte_range(size, pos, len, &r);
    }
    if (!ok) {
      if constexpr (kReport) atomic_min_i64(first_bad, i);
      begins[i] = 0;
      sizes[i] = 0;
      return;
    }
    begins[i] = first + r.begin;
    sizes[i] = r.end - r.begin;
  }
};

// Rule 4 per output element and lane (kLanes consecutive threads per element), from the lane
// counts of the element's string (LaneCountFunctor): every lane reads the kLanes counts (the
// character count and its run's first character); the lane whose run holds the substring's
// first character writes begins[i] and adds -begin to sizes[i], the one holding its end adds
// end, so sizes must be 0 beforehand (sizes[n] too). The string's end (character count)
// belongs to the last lane. An out-of-range element is lane 0's: begins[i] = 0, and the report.
template <class Index, bool kReport>
struct LaneSizesFunctor {
  SubstrView<Index> view;
  const std::int64_t* counts;  // in_size * kLanes
  std::int64_t* begins;
  std::int64_t* sizes;
  std::int64_t* first_bad;
  TENSORBUF_HD void operator()(std::int64_t t) const {
    const std::int64_t i = t / kLanes;
    const int lane = static_cast<int>(t - i * kLanes);
    std::int64_t in_i = 0;
    std::int64_t pos_i = 0;
    map_element(view.map, i, &in_i, &pos_i);
    const std::int64_t* lane_counts = counts + in_i * kLanes;
    std::int64_t before = 0;  // characters in the runs of lanes 0..lane-1
    std::int64_t nchars = 0;
    for (int l = 0; l < kLanes; ++l) {
      if (l == lane) before = nchars;
      nchars += lane_counts[l];
    }
    const auto pos = static_cast<std::int64_t>(view.pos[pos_i]);
    const auto len = static_cast<std::int64_t>(view.len[pos_i]);
    const std::int64_t p = pos < 0 ? nchars + pos : pos;  // nchars >= 0: no overflow
    if (p < 0 || p > nchars) {
      if (lane == 0) {
        if constexpr (kReport) atomic_min_i64(first_bad, i);
        begins[i] = 0;
      }
      return;
    }
    const std::int64_t q = (len < 0 || len >= nchars - p) ? nchars : p + len;
    const std::int64_t first = view.in_offsets[in_i];
    const std::int64_t end = view.in_offsets[in_i + 1];
    const std::int64_t mine = lane_counts[lane];
    const bool last = lane == kLanes - 1;
    // The byte of character c when this lane's run holds it; -1 otherwise.
    auto byte_of = [&](std::int64_t c) -> std::int64_t {
      if (c >= before && c < before + mine) {
        return lane_nth_start(view.in_chars, first, end, lane, c - before + 1);
      }
      return (c == nchars && last) ? end : -1;
    };
    const std::int64_t b = byte_of(p);
    if (b >= 0) {
      begins[i] = b;
      atomic_add_i64(sizes + i, -b);
    }
    const std::int64_t e = byte_of(q);
    if (e >= 0) atomic_add_i64(sizes + i, e);
  }
};

// Copies the total and the first bad index next to each other, for one read.
struct TailFunctor {
  const std::int64_t* total;
  std::int64_t* tail;  // [total, first_bad]
  TENSORBUF_HD void operator()(std::int64_t) const { tail[0] = *total; }
};

// One thread copies one substring.
struct CopyFunctor {
  const std::uint8_t* in_chars;
  const std::int64_t* begins;
  const std::int64_t* out_offsets;
  std::uint8_t* out_chars;
  TENSORBUF_HD void operator()(std::int64_t i) const {
    const std::int64_t start = out_offsets[i];
    const std::int64_t count = out_offsets[i + 1] - start;
    const std::uint8_t* src = in_chars + begins[i];
    std::uint8_t* dst = out_chars + start;
    for (std::int64_t j = 0; j < count; ++j) dst[j] = src[j];
  }
};

// 16 bytes from any address `src` to a 16-byte aligned `dst`. On the device: the aligned words
// holding src[0..15] (never beyond them; device allocations are padded to whole words), joined
// by funnel shifts, and one 16-byte store. On the host: a plain copy.
TENSORBUF_HD inline void copy16_to_aligned(std::uint8_t* dst, const std::uint8_t* src) {
#if defined(__CUDA_ARCH__)
  const auto address = reinterpret_cast<std::uintptr_t>(src);
  const auto* base = reinterpret_cast<const std::uint32_t*>(address & ~std::uintptr_t{3});
  const unsigned int shift = static_cast<unsigned int>(address & 3u) * 8u;
  uint4 out;
  if (shift == 0) {
    out = make_uint4(base[0], base[1], base[2], base[3]);
  } else {
    const std::uint32_t w0 = base[0], w1 = base[1], w2 = base[2], w3 = base[3], w4 = base[4];
    out = make_uint4(__funnelshift_r(w0, w1, shift), __funnelshift_r(w1, w2, shift),
                     __funnelshift_r(w2, w3, shift), __funnelshift_r(w3, w4, shift));
  }
  *reinterpret_cast<uint4*>(dst) = out;
#else
  std::memcpy(dst, src, 16);
#endif
}

// kLanes consecutive threads (a warp under the CUDA executor's launch) copy one substring: the
// bytes before the output's first 16-byte boundary and after its last one byte by byte, the
// 16-byte chunks between one per lane per step (lane l the chunks l, l + kLanes, ...), so a
// warp writes 512 consecutive bytes per step. Little-endian, as every CUDA device.
struct LaneCopyFunctor {
  const std::uint8_t* in_chars;
  const std::int64_t* begins;
  const std::int64_t* out_offsets;
  std::uint8_t* out_chars;
  TENSORBUF_HD void operator()(std::int64_t t) const {
    const std::int64_t i = t / kLanes;
    const std::int64_t lane = t - i * kLanes;
    const std::int64_t start = out_offsets[i];
    const std::int64_t count = out_offsets[i + 1] - start;
    const std::uint8_t* src = in_chars + begins[i];
    std::uint8_t* dst = out_chars + start;
    const auto misalignment =
        static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(dst) & 15u);
    std::int64_t head = (16 - misalignment) & 15;
    if (head > count) head = count;
    const std::int64_t chunks = (count - head) / 16;
    const std::int64_t body_end = head + 16 * chunks;
    if (lane < head) dst[lane] = src[lane];
    for (std::int64_t c = lane; c < chunks; c += kLanes) {
      copy16_to_aligned(dst + head + 16 * c, src + head + 16 * c);
    }
    if (body_end + lane < count) dst[body_end + lane] = src[body_end + lane];
  }
};

// ---------------------------------------------------------------------------------------------
// The driver

struct SubstrDriverConfig {
  // Average string length (bytes) from which kLanes threads work on one string (cuDF's
  // warp-per-string switch): the UTF-8 sizes pass (input average) and the copy (output
  // average).
  std::int64_t lane_threshold = 64;
};

struct TotalAndBad {
  std::int64_t total;
  std::int64_t first_bad;
};

inline constexpr std::int64_t kNoBadIndex = INT64_MAX;

// Runs substr over n output elements: sizes into out_offsets[0..n], exclusive scan in place,
// one read of the total (and, when `report`, of the first bad index: then nothing is written
// to the output chars and a second read fetches that element's pos), allocate_chars(total),
// copy. Without a bad element the executor's only host read is the first.
template <class Index, class Executor, class AllocateChars>
core::SubstrResult run_substr(Executor& ex, const core::SubstrPlan& plan,
                              const core::SubstrBuffers& buffers, AllocateChars&& allocate_chars,
                              const SubstrDriverConfig& config = {}) {
  SubstrView<Index> view;
  view.in_offsets = buffers.in_offsets;
  view.in_chars = buffers.in_chars;
  view.pos = static_cast<const Index*>(buffers.pos);
  view.len = static_cast<const Index*>(buffers.len);
  view.map = plan.map;
  const std::int64_t n = plan.out_size;
  const std::int64_t in_size = plan.in_size;
  const std::int64_t in_chars_total = plan.in_chars;
  const bool utf8 = plan.unit == SubstrUnit::kUtf8Char;
  const bool report = plan.policy == OutOfBoundsPolicy::kError;
  std::int64_t* const out_offsets = buffers.out_offsets;
  std::int64_t* begins = ex.template scratch<std::int64_t>(n);
  std::int64_t* tail = ex.template scratch<std::int64_t>(2);
  if (report) ex.fill(tail + 1, kNoBadIndex, 1);

  const bool lanes = utf8 && in_size > 0 && in_size <= INT64_MAX / kLanes &&
                     n <= INT64_MAX / kLanes && in_chars_total / in_size >= config.lane_threshold;
  auto with_report = [&](auto pass) {
    if (report) {
      pass(std::true_type{});
    } else {
      pass(std::false_type{});
    }
  };
  if (lanes) {
    std::int64_t* counts = ex.template scratch<std::int64_t>(in_size * kLanes);
    ex.for_each_index(in_size * kLanes, LaneCountFunctor<Index>{view, counts});
    ex.fill(out_offsets, std::int64_t{0}, n + 1);
    with_report([&](auto report_tag) {
      ex.for_each_index(n * kLanes, LaneSizesFunctor<Index, decltype(report_tag)::value>{
                                        view, counts, begins, out_offsets, tail + 1});
    });
  } else {
    with_report([&](auto report_tag) {
      constexpr bool kReport = decltype(report_tag)::value;
      if (utf8) {
        ex.for_each_index(
            n + 1, SizesFunctor<Index, true, kReport>{view, begins, out_offsets, tail + 1, n});
      } else {
        ex.for_each_index(
            n + 1, SizesFunctor<Index, false, kReport>{view, begins, out_offsets, tail + 1, n});
      }
    });
  }
  ex.exclusive_scan(out_offsets, out_offsets, n + 1);

  core::SubstrResult result;
  result.dropped_count = -1;  // kDrop's empty strings are not counted
  if (report) {
    ex.for_each_index(1, TailFunctor{out_offsets + n, tail});
    const TotalAndBad both = ex.read_value(reinterpret_cast<const TotalAndBad*>(tail));
    result.total_bytes = both.total;
    if (both.first_bad != kNoBadIndex) {
      // Validate first, write second: the output is discarded. The message names the element's
      // string and pos: read that one pos back (error path only).
      result.first_bad_index = both.first_bad;
      std::int64_t pos_i = 0;
      map_element(view.map, both.first_bad, &result.bad_input_index, &pos_i);
      result.bad_pos = static_cast<std::int64_t>(ex.read_value(view.pos + pos_i));
      return result;
    }
  } else {
    result.total_bytes = ex.read_value(out_offsets + n);
  }

  std::uint8_t* out_chars = allocate_chars(result.total_bytes);
  if (result.total_bytes == 0) return result;
  if (n <= INT64_MAX / kLanes && result.total_bytes / n >= config.lane_threshold) {
    ex.for_each_index(n * kLanes, LaneCopyFunctor{view.in_chars, begins, out_offsets, out_chars});
  } else {
    ex.for_each_index(n, CopyFunctor{view.in_chars, begins, out_offsets, out_chars});
  }
  return result;
}

}  // namespace tensorbuf::kernels
