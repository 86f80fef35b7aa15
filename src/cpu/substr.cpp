// substr on the CPU: two passes over contiguous chunks of the output (ranges and chunk sums,
// then chunk bases, one output allocation and the copy), on core::parallel_for.
#include <algorithm>
#include <atomic>
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
#include "cpu/substr_tuning.hpp"
#include "kernels/substr.hpp"

namespace tensorbuf::cpu {
namespace {

using core::SubstrMap;

using namespace substr_detail;  // NOLINT(google-build-using-namespace): this op's own parts

// Costs per string on one core for the pool's policy (core::min_chunk_for; short strings,
// measured on the 2-vCPU dev VM by `tensorbuf bench --sweep` with one thread).
constexpr double kByteNsPerString = 4.0;
constexpr double kUtf8NsPerString = 12.0;

// Element records, pass 1 -> pass 2: each element's start (absolute in the input chars) and
// byte count, parked in the output offsets (out[i + 1], which no one reads before pass 2
// overwrites it), so pass 2 reads neither pos/len nor the input offsets nor, for UTF-8, the
// string's characters a second time. A dropped element is (0, 0).
// Packed, when the input has fewer than 2^31 bytes: the start in the high 32 bits, the count in
// the low 32; the op needs no scratch.
constexpr std::int64_t kPackLimit = std::int64_t{1} << 31;

struct PackedRecords {
  std::int64_t* out;
  void put(std::int64_t i, std::int64_t start, std::int64_t n) const {
    out[i + 1] = static_cast<std::int64_t>((static_cast<std::uint64_t>(start) << 32) |
                                           static_cast<std::uint64_t>(n));
  }
  void get(std::int64_t i, std::int64_t* start, std::int64_t* n) const {
    const auto v = static_cast<std::uint64_t>(out[i + 1]);
    *start = static_cast<std::int64_t>(v >> 32);
    *n = static_cast<std::int64_t>(v & 0xffffffffu);
  }
  std::int64_t start(std::int64_t i) const {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(out[i + 1]) >> 32);
  }
};

// Wide, from 2^31 input bytes: the start in the output offsets, the count in a scratch array
// (8 bytes per element).
struct WideRecords {
  std::int64_t* out;
  std::int64_t* counts;
  void put(std::int64_t i, std::int64_t start, std::int64_t n) const {
    out[i + 1] = start;
    counts[i] = n;
  }
  void get(std::int64_t i, std::int64_t* start, std::int64_t* n) const {
    *start = out[i + 1];
    *n = counts[i];
  }
  std::int64_t start(std::int64_t i) const { return out[i + 1]; }
};

std::atomic<bool> g_force_wide_records{false};

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

template <class Records>
struct PassArgs {
  const std::int64_t* offs;
  const std::uint8_t* chars;
  const void* pos;
  const void* len;
  Records records;
};

// kScanPrefetch (contiguous maps; Utf8SimdSlicer): ScanPrefetch ahead of the scans.
template <class Index, bool kError, bool kContiguous, class Slicer, bool kScanPrefetch = false,
          class Records>
__attribute__((always_inline)) inline ChunkState pass1_packed(const SubstrMap& map, std::int64_t b,
                                                              std::int64_t e,
                                                              const PassArgs<Records>& a,
                                                              Slicer slicer) {
  // Locals, not members: the stores below may alias anything reached by reference.
  const std::int64_t* const offs = a.offs;
  const std::uint8_t* const chars = a.chars;
  const auto* const ps = static_cast<const Index*>(a.pos);
  const auto* const ls = static_cast<const Index*>(a.len);
  const Records records = a.records;
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
      records.put(i, first + r.begin, r.n);
      total += r.n;
    } else {
      records.put(i, ok ? first + r.begin : 0, ok ? r.n : 0);
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
template <class Records>
inline bool long_scan_chunk(const PassArgs<Records>& a, std::int64_t b, std::int64_t e) {
  return a.offs[e] - a.offs[b] >= 64 * (e - b);
}

template <class Index, bool kError, class Slicer, class Records>
ChunkState pass1_portable(const SubstrMap& map, std::int64_t b, std::int64_t e,
                          const PassArgs<Records>& a, Slicer slicer) {
  if (!contiguous(map)) return pass1_packed<Index, kError, false>(map, b, e, a, slicer);
  if constexpr (std::is_same_v<Slicer, Utf8Slicer>) {
    if (long_scan_chunk(a, b, e)) {
      return pass1_packed<Index, kError, true, Slicer, true>(map, b, e, a, slicer);
    }
  }
  return pass1_packed<Index, kError, true>(map, b, e, a, slicer);
}

#if defined(TENSORBUF_ISA_X86_64)
template <class Index, bool kError, bool kContiguous, bool kScanPrefetch = false, class Records>
__attribute__((TENSORBUF_SUBSTR_SIMD_ATTRS, flatten)) ChunkState pass1_simd_loop(
    const SubstrMap& map, std::int64_t b, std::int64_t e, const PassArgs<Records>& a,
    Utf8SimdSlicer slicer) {
  return pass1_packed<Index, kError, kContiguous, Utf8SimdSlicer, kScanPrefetch>(map, b, e, a,
                                                                                 slicer);
}

template <class Index, bool kError, class Records>
ChunkState pass1_simd(const SubstrMap& map, std::int64_t b, std::int64_t e,
                      const PassArgs<Records>& a, Utf8SimdSlicer slicer) {
  if (!contiguous(map)) return pass1_simd_loop<Index, kError, false>(map, b, e, a, slicer);
  if (long_scan_chunk(a, b, e)) {
    return pass1_simd_loop<Index, kError, true, true>(map, b, e, a, slicer);
  }
  return pass1_simd_loop<Index, kError, true>(map, b, e, a, slicer);
}
#endif

constexpr std::int64_t kCopyAhead = 4;  // pass 2 prefetch distance

// Pass 2 of one chunk: copies from the records, writing out_offsets(b, e]. Substrings of
// up to 16 (32) bytes move as one (two) unaligned 16-byte copies when 16 (32) bytes from the
// source start lie inside the input chars and 16 (32) bytes from the destination lie inside this
// chunk's own output bytes: the bytes written past the substring are rewritten by the chunk's
// next elements before anyone reads them. kLong (chunks averaging 64+ bytes per element):
// prefetch the sources a few elements ahead, stream the long copies when kStream.
template <bool kLong, bool kStream, class Records>
void pass2(std::int64_t b, std::int64_t e, const Records records, std::int64_t* out,
           const std::uint8_t* chars, std::int64_t in_total, std::uint8_t* dst, std::int64_t at,
           std::int64_t chunk_end) {
  for (std::int64_t i = b; i < e; ++i) {
    std::int64_t start = 0;
    std::int64_t n = 0;
    records.get(i, &start, &n);
    if constexpr (kLong) {
      // Records j > i are still there (out[j + 1] is overwritten after j's copy).
      const std::int64_t ahead = records.start(std::min(i + kCopyAhead, e - 1));
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

// The whole op over one kind of element records: pass 1 (records and chunk sums), the chunk
// bases (or kError's first bad element), one output allocation, pass 2 (copies).
template <class Index, bool kUtf8, bool kError, class Records>
core::SubstrResult run(const core::SubstrPlan& plan, const core::SubstrBuffers& args,
                       const core::AllocateChars& allocate_chars, std::int64_t in_total,
                       const Records records) {
  const std::int64_t n = plan.out_size;
  std::int64_t* const out_offsets = args.out_offsets;
  out_offsets[0] = 0;
  const std::int64_t min_chunk = core::min_chunk_for(kUtf8 ? kUtf8NsPerString : kByteNsPerString);
  const int chunks = core::chunk_count(n, min_chunk);
  std::vector<ChunkState> state(static_cast<std::size_t>(chunks));
  const PassArgs<Records> a{args.in_offsets, args.in_chars, args.pos, args.len, records};
  const bool simd = kUtf8 && cpu_features().code_paths().substr_avx512;

  core::parallel_for_chunks(n, min_chunk, [&](int c, std::int64_t b, std::int64_t e) {
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
  core::parallel_for_chunks(n, min_chunk, [&](int c, std::int64_t b, std::int64_t e) {
    const std::int64_t at = base[static_cast<std::size_t>(c)];
    const std::int64_t end = base[static_cast<std::size_t>(c) + 1];
    const std::uint8_t* const chars = args.in_chars;
    if (end - at < 64 * (e - b)) {
      pass2<false, false>(b, e, records, out_offsets, chars, in_total, out_chars, at, end);
    } else if (stream && end - at >= 512 * (e - b)) {
      pass2<true, true>(b, e, records, out_offsets, chars, in_total, out_chars, at, end);
    } else {
      pass2<true, false>(b, e, records, out_offsets, chars, in_total, out_chars, at, end);
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

void set_substr_wide_records(bool wide) {
  g_force_wide_records.store(wide, std::memory_order_relaxed);
}

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
  const bool packed = args.in_offsets[plan.in_size] < kPackLimit &&
                      !g_force_wide_records.load(std::memory_order_relaxed);
  std::vector<std::int64_t> wide_counts;
  if (!packed) wide_counts.resize(static_cast<std::size_t>(plan.out_size));
  return core::dispatch_index_type(plan.index_type, [&](auto tag) {
    using Index = typename decltype(tag)::type;
    auto go = [&](auto records) {
      const auto& a = allocate_chars;
      if (utf8) {
        return error ? run<Index, true, true>(plan, args, a, in_total, records)
                     : run<Index, true, false>(plan, args, a, in_total, records);
      }
      return error ? run<Index, false, true>(plan, args, a, in_total, records)
                   : run<Index, false, false>(plan, args, a, in_total, records);
    };
    core::SubstrResult result = packed ? go(PackedRecords{args.out_offsets})
                                       : go(WideRecords{args.out_offsets, wide_counts.data()});
    if (result.first_bad_index >= 0) name_bad_element<Index>(plan, args, result);
    return result;
  });
}

}  // namespace tensorbuf::cpu
