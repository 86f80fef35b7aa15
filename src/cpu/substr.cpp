// substr on the CPU: two passes over contiguous chunks of the output (ranges and chunk sums,
// then chunk bases, one output allocation and the copy), on core::parallel_for.
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/dtype_dispatch.hpp"
#include "core/isa.hpp"
#include "core/parallel.hpp"
#include "core/substr_backends.hpp"
#include "cpu/cpu_features.hpp"
#include "cpu/prefetch.hpp"
#include "cpu/streaming_copy.hpp"
#include "cpu/substr_avx512.hpp"
#include "cpu/substr_prefetch.hpp"
#include "cpu/substr_slice.hpp"
#include "cpu/substr_swar.hpp"
#include "kernels/substr.hpp"

namespace tensorbuf::cpu {
namespace {

using core::SubstrMap;
using kernels::ByteRange;

using namespace substr_detail;  // NOLINT(google-build-using-namespace): this op's own parts

constexpr std::int64_t kMinChunk = 1 << 14;

// Packed element records (pass 1 -> pass 2) when the input has fewer than 2^31 bytes: the
// absolute start in the input chars in the high 32 bits, the byte count in the low 32.
constexpr std::int64_t kPackLimit = std::int64_t{1} << 31;

inline std::int64_t pack(std::int64_t start, std::int64_t n) {
  return static_cast<std::int64_t>((static_cast<std::uint64_t>(start) << 32) |
                                   static_cast<std::uint64_t>(n));
}

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
                    ? kernels::byte_end(size, begin, l)
                    : kernels::char_end(kernels::ScanStarts{chars + first, size}, size, begin, l);
        } else {
          end = kernels::byte_end(size, begin, l);
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
