// substr on the CPU: two passes over contiguous chunks of the output (ranges and chunk sums,
// then chunk bases, one output allocation and the copy), on core::parallel_for.
#include <algorithm>
#include <array>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/isa.hpp"
#if defined(TENSORBUF_ISA_X86_64)
#include <immintrin.h>
#endif

#include "core/dtype_dispatch.hpp"
#include "core/parallel.hpp"
#include "core/substr_backends.hpp"
#include "cpu/cpu_features.hpp"
#include "cpu/prefetch.hpp"
#include "cpu/streaming_copy.hpp"
#include "kernels/substr.hpp"

namespace tensorbuf::cpu {
namespace {

using core::SubstrMap;
using kernels::ByteRange;

constexpr std::int64_t kMinChunk = 1 << 14;
constexpr std::int64_t kPrefetchAhead = 8;
constexpr std::int64_t kShortScanAhead = 1024;  // bytes: short strings' prefetch distance

// Packed element records (pass 1 -> pass 2) when the input has fewer than 2^31 bytes: the
// absolute start in the input chars in the high 32 bits, the byte count in the low 32.
constexpr std::int64_t kPackLimit = std::int64_t{1} << 31;

inline std::int64_t pack(std::int64_t start, std::int64_t n) {
  return static_cast<std::int64_t>((static_cast<std::uint64_t>(start) << 32) |
                                   static_cast<std::uint64_t>(n));
}

// Rule 3 without branches on the data: (begin, n) of the substring; false when pos is out of
// range (begin/n are then meaningless). Unsigned arithmetic: wraps instead of overflowing for
// any pos/len (pos = INT64_MIN included), and a negative len, as unsigned, is above any
// remaining count ("to the end").
inline std::uint64_t pick(bool c, std::uint64_t a, std::uint64_t b) {
  const std::uint64_t m = std::uint64_t{0} - static_cast<std::uint64_t>(c);
  return (a & m) | (b & ~m);
}

// One element's substring: bytes [begin, begin + n) of its string; n = -1 when pos is out of
// range (begin is then meaningless). Two words: returned in registers.
struct Slice {
  std::int64_t begin;
  std::int64_t n;
};

inline Slice byte_slice(std::int64_t size, std::int64_t pos, std::int64_t len) {
  const auto usize = static_cast<std::uint64_t>(size);
  const auto ulen = static_cast<std::uint64_t>(len);
  const std::uint64_t p =
      static_cast<std::uint64_t>(pos) + (usize & static_cast<std::uint64_t>(pos >> 63));
  const std::uint64_t rem = usize - p;
  return Slice{static_cast<std::int64_t>(p),
               static_cast<std::int64_t>(pick(p <= usize, pick(ulen < rem, ulen, rem), ~0ull))};
}

#if defined(TENSORBUF_ISA_X86_64)
#define TENSORBUF_SUBSTR_SIMD_ATTRS target("avx512f,avx512bw,bmi,bmi2,popcnt")
#define TENSORBUF_SUBSTR_SIMD_TARGET __attribute__((TENSORBUF_SUBSTR_SIMD_ATTRS, always_inline))

// Rule 4 for a string of fewer than 64 bytes: one masked load of exactly its bytes (masked-out
// bytes are never accessed, so nothing outside the string is read), the character starts as a
// bitmask plus a sentinel bit at `size`, so that start number c (0 <= c <= chars) is at
// TZCNT(PDEP(1 << c, starts)) (the sentinel for c == chars); no branch on the data. Unsigned
// arithmetic as in byte_slice; for an out-of-range pos the shift count is masked and the
// result discarded.
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
  const auto ulen = static_cast<std::uint64_t>(len);
  const std::uint64_t p =
      static_cast<std::uint64_t>(pos) + (chars & static_cast<std::uint64_t>(pos >> 63));
  const std::uint64_t rem = chars - p;
  const std::uint64_t q = p + pick(ulen < rem, ulen, rem);
  const std::uint64_t b = _tzcnt_u64(_pdep_u64(std::uint64_t{1} << (p & 63), marked));
  const std::uint64_t e = _tzcnt_u64(_pdep_u64(std::uint64_t{1} << (q & 63), marked));
  return Slice{static_cast<std::int64_t>(b),
               static_cast<std::int64_t>(pick(p <= chars, e - b, ~0ull))};
}
#endif

// Walks output elements in row-major order from `flat`, tracking the input and pos indices
// without a division per element.
class MapCursor {
 public:
  MapCursor(const SubstrMap& map, std::int64_t flat) : map_(map) {
    kernels::map_element(map, flat, &input_, &pos_);
    for (int d = map.rank - 1; d >= 0; --d) {
      digits_[d] = flat % map.dims[d];
      flat /= map.dims[d];
    }
  }
  std::int64_t input() const { return input_; }
  std::int64_t pos() const { return pos_; }
  void next() {
    for (int d = map_.rank - 1; d >= 0; --d) {
      input_ += map_.input_strides[d];
      pos_ += map_.pos_strides[d];
      if (++digits_[d] < map_.dims[d]) return;
      input_ -= map_.input_strides[d] * map_.dims[d];
      pos_ -= map_.pos_strides[d] * map_.dims[d];
      digits_[d] = 0;
    }
  }

 private:
  const SubstrMap& map_;
  std::int64_t input_ = 0;
  std::int64_t pos_ = 0;
  std::int64_t digits_[core::kSubstrMaxRank] = {};
};

// Calls body(i, input index, pos index) for i in [b, e) in order, returning early when body
// returns false. Rank 0 and 1 maps (same shapes, scalar pos or input) use two local strides.
template <class Body>
inline void for_each_element(const SubstrMap& map, std::int64_t b, std::int64_t e, Body&& body) {
  if (map.rank <= 1) {
    const std::int64_t in_stride = map.rank == 1 ? map.input_strides[0] : 0;
    const std::int64_t pos_stride = map.rank == 1 ? map.pos_strides[0] : 0;
    for (std::int64_t i = b; i < e; ++i) {
      if (!body(i, i * in_stride, i * pos_stride)) return;
    }
    return;
  }
  MapCursor cursor(map, b);
  for (std::int64_t i = b; i < e; ++i, cursor.next()) {
    if (!body(i, cursor.input(), cursor.pos())) return;
  }
}

// Short copies without a call: two overlapping loads cover 4..16 bytes.
inline void copy_bytes(std::uint8_t* dst, const std::uint8_t* src, std::int64_t n) {
  if (n <= 16) {
    if (n >= 8) {
      std::uint64_t a;
      std::uint64_t b;
      std::memcpy(&a, src, 8);
      std::memcpy(&b, src + n - 8, 8);
      std::memcpy(dst, &a, 8);
      std::memcpy(dst + n - 8, &b, 8);
    } else if (n >= 4) {
      std::uint32_t a;
      std::uint32_t b;
      std::memcpy(&a, src, 4);
      std::memcpy(&b, src + n - 4, 4);
      std::memcpy(dst, &a, 4);
      std::memcpy(dst + n - 4, &b, 4);
    } else {
      for (std::int64_t j = 0; j < n; ++j) dst[j] = src[j];
    }
    return;
  }
  std::memcpy(dst, src, static_cast<std::size_t>(n));
}

struct ChunkState {
  std::int64_t total = 0;
  std::int64_t first_bad = -1;
};

// From pass 1's chunk states: each chunk's output base (base[chunks] = the total, in
// result.total_bytes) or, under kError, the first bad element in row-major order (then false:
// nothing may be written).
template <bool kError>
bool chunk_bases(const std::vector<ChunkState>& state, std::vector<std::int64_t>& base,
                 core::SubstrResult& result) {
  base.assign(state.size() + 1, 0);
  for (std::size_t c = 0; c < state.size(); ++c) {
    if (kError && state[c].first_bad >= 0) {
      result.first_bad_index = state[c].first_bad;
      return false;
    }
    base[c] = result.total_bytes;
    result.total_bytes += state[c].total;
  }
  base[state.size()] = result.total_bytes;
  return true;
}

template <class Index, bool kUtf8, bool kError>
core::SubstrResult run(const core::SubstrPlan& plan, const core::SubstrBuffers& args,
                       const core::AllocateChars& allocate_chars) {
  const std::int64_t n = plan.out_size;
  const std::int64_t* in_offsets = args.in_offsets;
  const std::uint8_t* in_chars = args.in_chars;
  const auto* pos = static_cast<const Index*>(args.pos);
  const auto* len = static_cast<const Index*>(args.len);
  std::int64_t* out_offsets = args.out_offsets;
  out_offsets[0] = 0;
  const int chunks = core::chunk_count(n, kMinChunk);
  std::vector<ChunkState> state(static_cast<std::size_t>(chunks));

  // Pass 1: each element's range. Its start (absolute in the input chars; -1 when dropped) is
  // parked in out_offsets[i + 1], which no one else reads before pass 2 overwrites it, so the
  // op needs no scratch; the chunk sums the sizes.
  core::parallel_for_chunks(n, kMinChunk, [&](int c, std::int64_t b, std::int64_t e) {
    // Locals, not captures: the byte stores below may alias anything reached by reference.
    const std::int64_t* const offs = in_offsets;
    const std::uint8_t* const chars = in_chars;
    const Index* const ps = pos;
    const Index* const ls = len;
    std::int64_t* const out = out_offsets;
    const std::int64_t in_size = plan.in_size;
    std::int64_t total = 0;
    std::int64_t first_bad = -1;
    for_each_element(plan.map, b, e, [&](std::int64_t i, std::int64_t in_i, std::int64_t pos_i) {
      const std::int64_t first = offs[in_i];
      const std::int64_t size = offs[in_i + 1] - first;
      const auto p = static_cast<std::int64_t>(ps[pos_i]);
      const auto l = static_cast<std::int64_t>(ls[pos_i]);
      ByteRange r;
      bool ok;
      if constexpr (kUtf8) {
        // Long strings: each element's first bytes are a fresh cache miss; fetch ahead.
        __builtin_prefetch(chars + offs[std::min(in_i + kPrefetchAhead, in_size)]);
        ok = kernels::utf8_range(chars + first, size, p, l, &r);
      } else {
        ok = kernels::byte_range(size, p, l, &r);
      }
      if (!ok) {
        if constexpr (kError) {
          first_bad = i;  // the first in this chunk; chunks are in row-major order
          return false;
        }
        out[i + 1] = -1;
        return true;
      }
      out[i + 1] = first + r.begin;
      total += r.end - r.begin;
      return true;
    });
    state[static_cast<std::size_t>(c)] = ChunkState{total, first_bad};
  });

  core::SubstrResult result;
  std::vector<std::int64_t> base;
  if (!chunk_bases<kError>(state, base, result)) return result;
  std::uint8_t* out_chars = allocate_chars(result.total_bytes);

  // Pass 2: each element's end again from its start (UTF-8: a scan over its len characters
  // only), the copy, and the global offsets. A chunk touches only out_offsets(b, e].
  core::parallel_for_chunks(n, kMinChunk, [&](int c, std::int64_t b, std::int64_t e) {
    const std::int64_t* const offs = in_offsets;
    const std::uint8_t* const chars = in_chars;
    const Index* const ls = len;
    std::int64_t* const out = out_offsets;
    std::uint8_t* const dst = out_chars;
    std::int64_t at = base[static_cast<std::size_t>(c)];
    for_each_element(plan.map, b, e, [&](std::int64_t i, std::int64_t in_i, std::int64_t pos_i) {
      const std::int64_t start = out[i + 1];
      if (start >= 0) {
        const std::int64_t first = offs[in_i];
        const std::int64_t size = offs[in_i + 1] - first;
        const std::int64_t begin = start - first;
        const auto l = static_cast<std::int64_t>(ls[pos_i]);
        std::int64_t end;
        if constexpr (kUtf8) {
          end = kernels::is_short_ascii(chars + first, size)
                    ? ((l < 0 || l >= size - begin) ? size : begin + l)
                    : kernels::utf8_advance(chars + first, size, begin, l);
        } else {
          end = (l < 0 || l >= size - begin) ? size : begin + l;
        }
        copy_bytes(dst + at, chars + start, end - begin);
        at += end - begin;
      }
      out[i + 1] = at;
      return true;
    });
  });
  return result;
}

// ---------------------------------------------------------------------------------------------
// The packed form (inputs below 2^31 bytes): pass 1 leaves pack(start, n) in out_offsets[i + 1]
// (0 for a dropped element: no bytes), so pass 2 reads neither pos/len nor the input offsets
// nor, for UTF-8, the string's characters a second time.

struct ByteSlicer {
  Slice operator()(const std::uint8_t*, std::int64_t, std::int64_t, std::int64_t size,
                   std::int64_t p, std::int64_t l) const {
    return byte_slice(size, p, l);
  }
};

inline Slice utf8_slice_portable(const std::uint8_t* chars, std::int64_t first, std::int64_t size,
                                 std::int64_t p, std::int64_t l) {
  ByteRange r;
  if (!kernels::utf8_range(chars + first, size, p, l, &r)) return Slice{0, -1};
  return Slice{r.begin, r.end - r.begin};
}

// Portable bit tricks for the short-string path below (no PDEP/TZCNT/POPCNT needed).
// One bit per byte from the top bits of a word (little-endian: bit j = byte j): the 8 flags
// land in distinct bits of the top byte of the product, without carries.
inline std::uint64_t gather_top_bits(std::uint64_t top_bits) {
  return ((top_bits >> 7) * 0x0102040810204080ull) >> 56;
}

// The set-bit count of each byte of x, in that byte.
inline std::uint64_t byte_counts(std::uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  return (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
}

// kSelectInByte[b][r]: the bit of the r-th (0-based) set bit of byte b; 8 when there is none.
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

// The bit of the k-th (0-based, k < 64) set bit of x, given prefix = the byte-wise prefix
// counts of x (byte j: set bits in bytes 0..j, at most 64); meaningless (but defined) when x
// has k or fewer. The byte comes from comparing all prefix counts at once (the select_top_bit
// trick of kernels/substr.hpp), the bit from a table.
inline std::int64_t select_bit(std::uint64_t x, std::uint64_t prefix, std::uint64_t k) {
  const std::uint64_t reached =
      (prefix + (0x80 - (k + 1)) * 0x0101010101010101ull) & 0x8080808080808080ull;
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
// and the k-th start from its byte-wise prefix counts. Little-endian only (the bit order).
inline Slice utf8_slice_short_swar(const std::uint8_t* s, std::int64_t size, std::int64_t pos,
                                   std::int64_t len) {
  const std::uint64_t bit_size = std::uint64_t{1} << size;  // size < 64
  const std::uint64_t valid = bit_size - 1;
  const std::uint64_t flags = size < 32 ? start_bits<4>(s) : start_bits<8>(s);
  const std::uint64_t marked = (flags & valid) | (valid & 1) | bit_size;  // byte 0 starts one
  const std::uint64_t prefix = byte_counts(marked) * 0x0101010101010101ull;
  const std::uint64_t chars = (prefix >> 56) - 1;  // all starts, less the sentinel
  const auto ulen = static_cast<std::uint64_t>(len);
  const std::uint64_t p =
      static_cast<std::uint64_t>(pos) + (chars & static_cast<std::uint64_t>(pos >> 63));
  const std::uint64_t rem = chars - p;
  const std::uint64_t q = p + pick(ulen < rem, ulen, rem);
  const std::int64_t b = select_bit(marked, prefix, p & 63);
  const std::int64_t e = select_bit(marked, prefix, q & 63);
  return Slice{
      b, static_cast<std::int64_t>(pick(p <= chars, static_cast<std::uint64_t>(e - b), ~0ull))};
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

// Pass 1's prefetch for a contiguous chunk of long strings, kScanStreamAhead bytes ahead of
// the element it scans. Each scan is a short stream (from the front, or back from the end)
// that the hardware prefetcher does not follow. By default one software stream runs over all
// of the chunk's bytes, each line fetched once, although about a third of them are read by no
// scan in the per-element bench case: it went from ~125 to ~97 ns per string in an interleaved
// A/B (2026-12-01), where fetching each element's own range a few elements ahead (even with a
// margin) stayed at ~120. When pos and len are scalars whose scan window (a character is at
// most 4 bytes) spans at most a quarter of the chunk's average string, only each string's
// window is fetched: the bench's scalar case (pos 16) went from ~3.5 to ~2.8 ms that way.
constexpr std::int64_t kScanStreamAhead = 4096;

class ScanPrefetch {
 public:
  ScanPrefetch(const std::int64_t* offs, const std::uint8_t* chars, std::int64_t b, std::int64_t e,
               std::int64_t pos_stride, std::int64_t pos, std::int64_t len)
      : offs_(offs),
        chars_(chars),
        e_(e),
        end_(offs[e]),
        fetched_(offs[b] & ~std::int64_t{63}),
        next_(b) {
    if (pos_stride != 0) return;
    // Characters the scan may cover: pos (+ len) from the front, or -pos from the end.
    const std::int64_t max_reach = (end_ - offs[b]) / (e - b) / 16;  // window <= average / 4
    if (pos >= 0) {
      if (pos > max_reach || (len > 0 && len > max_reach - pos)) return;
      window_ = 4 * (pos + std::max<std::int64_t>(len, 0)) + 64;
    } else {
      if (pos < -max_reach) return;
      window_ = 4 * -pos + 64;
      from_end_ = true;
    }
  }
  // Called with the byte offset of the element about to be scanned.
  void advance(std::int64_t first) {
    const std::int64_t target = std::min(first + kScanStreamAhead, end_);
    if (window_ == 0) {
      for (; fetched_ < target; fetched_ += 64) __builtin_prefetch(chars_ + fetched_);
      return;
    }
    for (; next_ < e_ && offs_[next_] < target; ++next_) {
      const std::int64_t lo = offs_[next_];
      const std::int64_t hi = offs_[next_ + 1];
      const std::int64_t a = from_end_ ? std::max(lo, hi - window_) : lo;
      const std::int64_t z = from_end_ ? hi : std::min(hi, lo + window_);
      for (std::int64_t at = a & ~std::int64_t{63}; at < z; at += 64) {
        __builtin_prefetch(chars_ + at);
      }
    }
  }

 private:
  const std::int64_t* offs_;
  const std::uint8_t* chars_;
  std::int64_t e_;
  std::int64_t end_;
  std::int64_t fetched_;     // stream: the lines before it are fetched
  std::int64_t next_;        // window: the next element to fetch
  std::int64_t window_ = 0;  // 0: stream; else bytes from the string's front (or end)
  bool from_end_ = false;
};

// The stand-in where pass 1 does not prefetch (constructs and advances as nothing).
struct NoScanPrefetch {
  NoScanPrefetch(const std::int64_t*, const std::uint8_t*, std::int64_t, std::int64_t, std::int64_t,
                 std::int64_t, std::int64_t) {}
  void advance(std::int64_t) {}
};

#if defined(TENSORBUF_ISA_X86_64)
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

// Start number k (0-based) among the starts in [from, size), 64 bytes per step; when there are
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

// Start number k (k >= 1) counted back from the end of s (1: the last start), scanning 64 bytes
// per step from the end; -1 when s has fewer than k starts.
TENSORBUF_SUBSTR_SIMD_TARGET inline std::int64_t kth_start_from_end(const std::uint8_t* s,
                                                                    std::int64_t size,
                                                                    std::uint64_t k) {
  for (std::int64_t hi = size; hi > 0;) {
    const std::int64_t lo = std::max<std::int64_t>(hi - 64, 0);
    const std::uint64_t starts = block_starts(s, lo, hi);
    const auto c = static_cast<std::uint64_t>(_mm_popcnt_u64(starts));
    if (k <= c) {
      return lo +
             static_cast<std::int64_t>(_tzcnt_u64(_pdep_u64(std::uint64_t{1} << (c - k), starts)));
    }
    k -= c;
    hi = lo;
  }
  return -1;
}

// Rule 4 for strings of 64+ bytes, out of line (keeps the short-string loop small): 64 bytes
// per step where the portable scan takes 8, and a negative pos counted back from the end, so
// only the bytes from the substring's start to the end are read (not the whole string twice).
// Same results as kernels::utf8_range.
__attribute__((noinline, TENSORBUF_SUBSTR_SIMD_ATTRS)) Slice utf8_slice_long(
    const std::uint8_t* chars, std::int64_t first, std::int64_t size, std::int64_t pos,
    std::int64_t len) {
  const std::uint8_t* s = chars + first;
  std::uint64_t missing = 0;
  std::int64_t begin;
  if (pos < 0) {
    // Character count + pos = the (-pos)-th start from the end (-pos as unsigned: no overflow
    // for INT64_MIN).
    begin = kth_start_from_end(s, size, std::uint64_t{0} - static_cast<std::uint64_t>(pos));
    if (begin < 0) return Slice{0, -1};
  } else {
    begin = kth_start(s, size, 0, static_cast<std::uint64_t>(pos), &missing);
    if (missing != 0) return Slice{0, -1};  // pos beyond the character count
  }
  if (len < 0) return Slice{begin, size - begin};
  const std::int64_t end = kth_start(s, size, begin, static_cast<std::uint64_t>(len), &missing);
  return Slice{begin, end - begin};
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
      // did): fetch 1 KiB ahead. 4M short strings: 29-30 -> 23-25 ms in an interleaved A/B.
      prefetch_at(chars, first + kShortScanAhead);
      return utf8_slice_avx512(chars + first, size, p, l);
    }
    // The head of the string kPrefetchAhead elements on. Next to ScanPrefetch (contiguous
    // chunks) it reaches further ahead than the window does; dropping it there measured no
    // gain (scalar case 2.7-3.3 -> 3.4-3.8 ms in one A/B round, even in the next).
    __builtin_prefetch(chars + offs[std::min(in_i + kPrefetchAhead, in_size)]);
    return utf8_slice_long(chars, first, size, p, l);
  }
};
#endif

struct PackedArgs {
  const std::int64_t* offs;
  const std::uint8_t* chars;
  const void* pos;
  const void* len;
  std::int64_t* out;
};

// kScanPrefetch (contiguous maps; Utf8SimdSlicer): ScanPrefetch ahead of the scans.
template <class Index, bool kError, bool kContiguous, class Slicer, bool kScanPrefetch = false>
__attribute__((always_inline)) inline ChunkState pass1_packed(const SubstrMap& map, std::int64_t b,
                                                              std::int64_t e, const PackedArgs& a,
                                                              Slicer slicer) {
  // Locals, not members: the stores below may alias anything reached by reference.
  const std::int64_t* const offs = a.offs;
  const std::uint8_t* const chars = a.chars;
  const auto* const ps = static_cast<const Index*>(a.pos);
  const auto* const ls = static_cast<const Index*>(a.len);
  std::int64_t* const out = a.out;
  std::int64_t total = 0;
  std::int64_t first_bad = -1;
  // One element; false to stop (kError, out of range).
  const auto element = [&](std::int64_t i, std::int64_t in_i, std::int64_t first, std::int64_t size,
                           std::int64_t pos_i) {
    const auto p = static_cast<std::int64_t>(ps[pos_i]);
    const auto l = static_cast<std::int64_t>(ls[pos_i]);
    const Slice r = slicer(chars, in_i, first, size, p, l);
    const bool ok = r.n >= 0;
    if constexpr (kError) {
      if (!ok) [[unlikely]] {
        first_bad = i;  // the first in this chunk; chunks are in row-major order
        return false;
      }
      out[i + 1] = pack(first + r.begin, r.n);
      total += r.n;
    } else {
      out[i + 1] = ok ? pack(first + r.begin, r.n) : 0;
      total += ok ? r.n : 0;
    }
    return true;
  };
  if constexpr (kContiguous) {
    // Consecutive strings (rank 1, input stride 1): each end offset is the next start.
    const std::int64_t pos_stride = map.pos_strides[0];
    std::int64_t first = offs[b];
    std::conditional_t<kScanPrefetch, ScanPrefetch, NoScanPrefetch> prefetch(
        offs, chars, b, e, pos_stride, static_cast<std::int64_t>(ps[0]),
        static_cast<std::int64_t>(ls[0]));
    for (std::int64_t i = b; i < e; ++i) {
      prefetch.advance(first);
      const std::int64_t next = offs[i + 1];
      if (!element(i, i, first, next - first, i * pos_stride)) break;
      first = next;
    }
    return ChunkState{total, first_bad};
  } else {
    for_each_element(map, b, e, [&](std::int64_t i, std::int64_t in_i, std::int64_t pos_i) {
      const std::int64_t first = offs[in_i];
      return element(i, in_i, first, offs[in_i + 1] - first, pos_i);
    });
    return ChunkState{total, first_bad};
  }
}

inline bool contiguous(const SubstrMap& map) { return map.rank == 1 && map.input_strides[0] == 1; }

// Whether pass 1 of a contiguous chunk prefetches ahead of its scans: UTF-8 chunks of long
// strings (64+ bytes on average).
inline bool long_scan_chunk(const PackedArgs& a, std::int64_t b, std::int64_t e) {
  return a.offs[e] - a.offs[b] >= 64 * (e - b);
}

template <class Index, bool kError, class Slicer>
ChunkState pass1_portable(const SubstrMap& map, std::int64_t b, std::int64_t e, const PackedArgs& a,
                          Slicer slicer) {
  if (!contiguous(map)) return pass1_packed<Index, kError, false>(map, b, e, a, slicer);
  if constexpr (std::is_same_v<Slicer, Utf8Slicer>) {
    if (long_scan_chunk(a, b, e)) {
      return pass1_packed<Index, kError, true, Slicer, true>(map, b, e, a, slicer);
    }
  }
  return pass1_packed<Index, kError, true>(map, b, e, a, slicer);
}

#if defined(TENSORBUF_ISA_X86_64)
template <class Index, bool kError, bool kContiguous, bool kScanPrefetch = false>
__attribute__((TENSORBUF_SUBSTR_SIMD_ATTRS, flatten)) ChunkState pass1_simd_loop(
    const SubstrMap& map, std::int64_t b, std::int64_t e, const PackedArgs& a,
    Utf8SimdSlicer slicer) {
  return pass1_packed<Index, kError, kContiguous, Utf8SimdSlicer, kScanPrefetch>(map, b, e, a,
                                                                                 slicer);
}

template <class Index, bool kError>
ChunkState pass1_simd(const SubstrMap& map, std::int64_t b, std::int64_t e, const PackedArgs& a,
                      Utf8SimdSlicer slicer) {
  if (!contiguous(map)) return pass1_simd_loop<Index, kError, false>(map, b, e, a, slicer);
  if (long_scan_chunk(a, b, e)) {
    return pass1_simd_loop<Index, kError, true, true>(map, b, e, a, slicer);
  }
  return pass1_simd_loop<Index, kError, true>(map, b, e, a, slicer);
}
#endif

constexpr std::int64_t kCopyAhead = 4;  // pass 2 prefetch distance

// Pass 2 of one chunk: copies from the packed records, writing out_offsets(b, e]. Substrings of
// up to 16 (32) bytes move as one (two) unaligned 16-byte copies when 16 (32) bytes from the
// source start lie inside the input chars and 16 (32) bytes from the destination lie inside this
// chunk's own output bytes: the bytes written past the substring are rewritten by the chunk's
// next elements before anyone reads them. kLong (chunks averaging 64+ bytes per element):
// prefetch the sources a few elements ahead, stream the long copies when kStream.
template <bool kLong, bool kStream>
void pass2_packed(std::int64_t b, std::int64_t e, std::int64_t* out, const std::uint8_t* chars,
                  std::int64_t in_total, std::uint8_t* dst, std::int64_t at,
                  std::int64_t chunk_end) {
  for (std::int64_t i = b; i < e; ++i) {
    const auto v = static_cast<std::uint64_t>(out[i + 1]);
    const auto start = static_cast<std::int64_t>(v >> 32);
    const auto n = static_cast<std::int64_t>(v & 0xffffffffu);
    if constexpr (kLong) {
      // out[j + 1] for j > i still holds j's packed record.
      const std::int64_t j = std::min(i + kCopyAhead, e - 1);
      const auto ahead = static_cast<std::int64_t>(static_cast<std::uint64_t>(out[j + 1]) >> 32);
      for (std::int64_t k = 0; k < 256; k += 64) {
        __builtin_prefetch(chars + std::min(ahead + k, in_total));
      }
    }
    if (n <= 16 && start + 16 <= in_total && at + 16 <= chunk_end) {
      std::uint8_t tmp[16];
      std::memcpy(tmp, chars + start, 16);
      std::memcpy(dst + at, tmp, 16);
    } else if (n <= 32 && start + 32 <= in_total && at + 32 <= chunk_end) {
      std::uint8_t tmp[32];
      std::memcpy(tmp, chars + start, 32);
      std::memcpy(dst + at, tmp, 32);
    } else if (kStream && n >= kStreamCopyBytes) {
      copy_streaming(dst + at, chars + start, static_cast<std::size_t>(n));
    } else {
      copy_bytes(dst + at, chars + start, n);
    }
    at += n;
    out[i + 1] = at;
  }
  if constexpr (kStream) streaming_fence();  // the streamed bytes are visible before the join
}

template <class Index, bool kUtf8, bool kError>
core::SubstrResult run_packed(const core::SubstrPlan& plan, const core::SubstrBuffers& args,
                              const core::AllocateChars& allocate_chars, std::int64_t in_total) {
  const std::int64_t n = plan.out_size;
  std::int64_t* const out_offsets = args.out_offsets;
  out_offsets[0] = 0;
  const int chunks = core::chunk_count(n, kMinChunk);
  std::vector<ChunkState> state(static_cast<std::size_t>(chunks));
  const PackedArgs a{args.in_offsets, args.in_chars, args.pos, args.len, out_offsets};
  const CpuFeatures features = cpu_features();
  const bool simd = kUtf8 && features.avx512bw && features.bmi2;

  core::parallel_for_chunks(n, kMinChunk, [&](int c, std::int64_t b, std::int64_t e) {
    ChunkState st;
    if constexpr (kUtf8) {
#if defined(TENSORBUF_ISA_X86_64)
      if (simd) {
        st = pass1_simd<Index, kError>(plan.map, b, e, a,
                                       Utf8SimdSlicer{args.in_offsets, plan.in_size});
      } else
#endif
      {
        st = pass1_portable<Index, kError>(plan.map, b, e, a,
                                           Utf8Slicer{args.in_offsets, plan.in_size, in_total});
      }
    } else {
      st = pass1_portable<Index, kError>(plan.map, b, e, a, ByteSlicer{});
    }
    state[static_cast<std::size_t>(c)] = st;
  });
  (void)simd;

  core::SubstrResult result;
  std::vector<std::int64_t> base;
  if (!chunk_bases<kError>(state, base, result)) return result;
  std::uint8_t* out_chars = allocate_chars(result.total_bytes);

  const bool stream = result.total_bytes >= kStreamOutputBytes;
  core::parallel_for_chunks(n, kMinChunk, [&](int c, std::int64_t b, std::int64_t e) {
    const std::int64_t at = base[static_cast<std::size_t>(c)];
    const std::int64_t end = base[static_cast<std::size_t>(c) + 1];
    const std::uint8_t* const chars = args.in_chars;
    if (end - at < 64 * (e - b)) {
      pass2_packed<false, false>(b, e, out_offsets, chars, in_total, out_chars, at, end);
    } else if (stream && end - at >= 512 * (e - b)) {
      pass2_packed<true, true>(b, e, out_offsets, chars, in_total, out_chars, at, end);
    } else {
      pass2_packed<true, false>(b, e, out_offsets, chars, in_total, out_chars, at, end);
    }
  });
  return result;
}

// Names the bad element's input string and pos for the message (error path only).
template <class Index>
void name_bad_element(const core::SubstrPlan& plan, const core::SubstrBuffers& buffers,
                      core::SubstrResult& result) {
  std::int64_t pos_i = 0;
  kernels::map_element(plan.map, result.first_bad_index, &result.bad_input_index, &pos_i);
  result.bad_pos = static_cast<std::int64_t>(static_cast<const Index*>(buffers.pos)[pos_i]);
}

}  // namespace

core::SubstrResult substr(const core::SubstrPlan& plan, const core::SubstrBuffers& args,
                          const core::AllocateChars& allocate_chars) {
  if (plan.out_size == 0) {
    args.out_offsets[0] = 0;
    allocate_chars(0);
    return {};
  }
  const bool utf8 = plan.unit == SubstrUnit::kUtf8Char;
  const bool error = plan.policy == OutOfBoundsPolicy::kError;
  // The bytes that may be read: the whole input chars buffer, and no more.
  const std::int64_t in_total = std::min(plan.in_chars, args.in_offsets[plan.in_size]);
  const bool packed = args.in_offsets[plan.in_size] < kPackLimit;
  return core::dispatch_index_type(plan.index_type, [&](auto tag) {
    using Index = typename decltype(tag)::type;
    const auto& a = allocate_chars;
    core::SubstrResult result;
    if (packed) {
      if (utf8) {
        result = error ? run_packed<Index, true, true>(plan, args, a, in_total)
                       : run_packed<Index, true, false>(plan, args, a, in_total);
      } else {
        result = error ? run_packed<Index, false, true>(plan, args, a, in_total)
                       : run_packed<Index, false, false>(plan, args, a, in_total);
      }
    } else if (utf8) {
      result =
          error ? run<Index, true, true>(plan, args, a) : run<Index, true, false>(plan, args, a);
    } else {
      result =
          error ? run<Index, false, true>(plan, args, a) : run<Index, false, false>(plan, args, a);
    }
    if (result.first_bad_index >= 0) name_bad_element<Index>(plan, args, result);
    result.dropped_count = -1;  // kDrop's empty strings are not counted
    return result;
  });
}

}  // namespace tensorbuf::cpu
