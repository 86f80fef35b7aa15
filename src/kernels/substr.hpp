// substr's CUDA backend logic: the per-element functors (rule 5's reporting on top of the rules
// of kernels/substr_rules.hpp) and the multi-pass driver run_substr (sizes -> exclusive scan of
// the output offsets -> copy), written over an executor (executor.hpp) so that tests run it on
// the CPU through HostExecutor.
//
// Every function reads only bytes [0, size) of the string it is given, whatever the bytes are
// (UTF-8 is never decoded, only character starts are counted), except the device's aligned
// word loads of the lane form (load_chars_word), which stay inside the allocation.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/config.hpp"
#include "kernels/substr_byte_scan.hpp"
#include "kernels/substr_lanes.hpp"
#include "kernels/substr_map.hpp"
#include "kernels/substr_rules.hpp"
#include "kernels/substr_scan.hpp"
#include "kernels/substr_variants.hpp"

namespace tensorbuf::kernels {

// ---------------------------------------------------------------------------------------------
// Functors of the driver (plain views only)

// Per input string and lane (kLanes consecutive threads per string): the character starts in
// that lane's run. Thread `end` (run only for the lane-scan variant) writes the 0 that lets an
// exclusive scan over end + 1 entries leave the total last.
template <class Index>
struct LaneCountFunctor {
  SubstrView<Index> view;
  std::int64_t* counts;  // in_size * kLanes (+ 1)
  std::int64_t end = -1;  // in_size * kLanes
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t t) const {
    if (t == end) {
      counts[t] = 0;
      return;
    }
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
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t i) const {
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
// With `scanned` (the lane-scan variant, SubstrDriverConfig::lane_scan) the counts were turned
// into one exclusive scan over all lanes of all strings: a lane then reads four entries (its
// own, the next, its string's first and the next string's first) instead of kLanes.
template <class Index, bool kReport>
struct LaneSizesFunctor {
  SubstrView<Index> view;
  const std::int64_t* counts;  // in_size * kLanes (+ 1 when scanned)
  std::int64_t* begins;
  std::int64_t* sizes;
  std::int64_t* first_bad;
  bool scanned = false;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t t) const {
    const std::int64_t i = t / kLanes;
    const int lane = static_cast<int>(t - i * kLanes);
    std::int64_t in_i = 0;
    std::int64_t pos_i = 0;
    map_element(view.map, i, &in_i, &pos_i);
    const std::int64_t* lane_counts = counts + in_i * kLanes;
    std::int64_t before = 0;  // characters in the runs of lanes 0..lane-1
    std::int64_t nchars = 0;
    std::int64_t mine = 0;
    if (scanned) {
      const std::int64_t base = lane_counts[0];
      before = lane_counts[lane] - base;
      mine = lane_counts[lane + 1] - lane_counts[lane];
      nchars = lane_counts[kLanes] - base;
    } else {
      for (int l = 0; l < kLanes; ++l) {
        if (l == lane) before = nchars;
        nchars += lane_counts[l];
      }
      mine = lane_counts[lane];
    }
    const auto pos = static_cast<std::int64_t>(view.pos[pos_i]);
    const auto len = static_cast<std::int64_t>(view.len[pos_i]);
    const UnitWindow w = unit_window(static_cast<std::uint64_t>(nchars), pos, len);
    if (!w.valid) {
      if (lane == 0) {
        if constexpr (kReport) atomic_min_i64(first_bad, i);
        begins[i] = 0;
      }
      return;
    }
    const auto p = static_cast<std::int64_t>(w.first);
    const auto q = static_cast<std::int64_t>(w.end);
    const std::int64_t first = view.in_offsets[in_i];
    const std::int64_t end = view.in_offsets[in_i + 1];
    const bool last = lane == kLanes - 1;
    // The byte of character c when this lane's run holds it; -1 otherwise.
    auto byte_of = [&](std::int64_t c) -> std::int64_t {
      if (c >= before && c < before + mine) {
        return lane_start_byte(view.in_chars, first, end, lane, c - before);
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
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t) const { tail[0] = *total; }
};

// One thread copies one substring.
struct CopyFunctor {
  const std::uint8_t* in_chars;
  const std::int64_t* begins;
  const std::int64_t* out_offsets;
  std::uint8_t* out_chars;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t i) const {
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
TENSORBUF_HOST_DEVICE inline void copy16_to_aligned(std::uint8_t* dst, const std::uint8_t* src) {
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

// The 16 bytes from byte `shift` (0..15) of the 32 held by 8 little-endian 32-bit words, as 4
// such words: the funnel shifts of copy16_from_vectors, in portable code (shared by host and
// device, so the host tests check the device's arithmetic).
TENSORBUF_HOST_DEVICE inline void join16(const std::uint32_t (&w)[8], unsigned int shift,
                                         std::uint32_t (&out)[4]) {
  const unsigned int q = shift / 4;
  const unsigned int r = (shift % 4) * 8;
  std::uint32_t x[5];
  for (unsigned int k = 0; k < 5; ++k) {  // selects, not a dynamic index: registers stay
    x[k] = q == 0 ? w[k] : q == 1 ? w[k + 1] : q == 2 ? w[k + 2] : w[k + 3];
  }
  for (unsigned int k = 0; k < 4; ++k) {
    out[k] = r == 0 ? x[k] : (x[k] >> r) | (x[k + 1] << (32 - r));
  }
}

// 16 bytes from `src` to a 16-byte aligned `dst` through the two aligned 16-byte words from
// the last 16-byte boundary at or before src (one word on the device when src is on it): the
// caller guarantees those 32 bytes are readable (LaneCopyFunctor: they start inside a 16-byte
// aligned chars buffer and end at most at src + 31, inside the substring).
TENSORBUF_HOST_DEVICE inline void copy16_from_vectors(std::uint8_t* dst, const std::uint8_t* src) {
  const auto shift = static_cast<unsigned int>(reinterpret_cast<std::uintptr_t>(src) & 15u);
  const std::uint8_t* base = src - shift;
  std::uint32_t w[8];
  std::uint32_t out[4];
#if defined(__CUDA_ARCH__)
  const uint4 lo = reinterpret_cast<const uint4*>(base)[0];
  if (shift == 0) {
    *reinterpret_cast<uint4*>(dst) = lo;
    return;
  }
  const uint4 hi = reinterpret_cast<const uint4*>(base)[1];
  w[0] = lo.x;
  w[1] = lo.y;
  w[2] = lo.z;
  w[3] = lo.w;
  w[4] = hi.x;
  w[5] = hi.y;
  w[6] = hi.z;
  w[7] = hi.w;
  join16(w, shift, out);
  *reinterpret_cast<uint4*>(dst) = make_uint4(out[0], out[1], out[2], out[3]);
#else
  std::memcpy(w, base, sizeof w);
  join16(w, shift, out);
  std::memcpy(dst, out, sizeof out);
#endif
}

// kLanes consecutive threads (a warp under the CUDA executor's launch) copy one substring: the
// bytes before the output's first 16-byte boundary and after its last one byte by byte, the
// 16-byte chunks between one per lane per step (lane l the chunks l, l + kLanes, ...), so a
// warp writes 512 consecutive bytes per step. Little-endian, as every CUDA device. With
// `vectors` (SubstrLaneCopy::kVectors) and a 16-byte aligned chars buffer, a chunk followed by
// 16 more bytes of the substring is read as the two aligned 16-byte words holding it
// (copy16_from_vectors); the last chunks, as before, through 4-byte words.
struct LaneCopyFunctor {
  const std::uint8_t* in_chars;
  const std::int64_t* begins;
  const std::int64_t* out_offsets;
  std::uint8_t* out_chars;
  bool vectors = false;
  TENSORBUF_HOST_DEVICE void operator()(std::int64_t t) const {
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
    const bool aligned_chars = (reinterpret_cast<std::uintptr_t>(in_chars) & 15u) == 0;
    // Bytes [at, at + 32) of the substring hold the two words of chunk `at` (its boundary is
    // at most 15 bytes before it).
    const std::int64_t vector_end = vectors && aligned_chars ? count - 32 : -1;
    for (std::int64_t c = lane; c < chunks; c += kLanes) {
      const std::int64_t at = head + 16 * c;
      if (at <= vector_end) {
        copy16_from_vectors(dst + at, src + at);
      } else {
        copy16_to_aligned(dst + at, src + at);
      }
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
  // >= 0 (kDrop only): the output chars are allocated at this many bytes, an upper bound known
  // on the host (core::substr_chars_bound), before any pass, and the total is never read back:
  // the form a CUDA graph can capture. result.total_bytes is then -1; the total is
  // out_offsets[n], on the executor's side.
  std::int64_t capacity = -1;
  // The lane-scan variant of the lane form: the lane counts scanned once over all strings, so
  // each lane of the sizes pass reads 4 counts instead of kLanes (LaneSizesFunctor).
  bool lane_scan = false;
  // How the lane form copies (substr_variants.hpp); the device's loads only, same bytes.
  SubstrLaneCopy lane_copy = SubstrLaneCopy::kWords;
  // How byte units get their output offsets (substr_variants.hpp; substr_byte_scan.hpp).
  SubstrByteOffsets byte_offsets = SubstrByteOffsets::kSizesThenScan;
};

struct TotalAndBad {
  std::int64_t total;
  std::int64_t first_bad;
};

// Runs substr over n output elements: sizes into out_offsets[0..n], exclusive scan in place,
// one read of the total (and, when `report`, of the first bad index: then nothing is written
// to the output chars and a second read fetches that element's pos), allocate_chars(total),
// copy. Without a bad element the executor's only host read is the first. With
// config.capacity (kDrop): allocate_chars(capacity) first and no read at all. With
// config.byte_offsets = kScanOfSizes (byte units) the sizes, the scan and the tail are one
// scan (substr_byte_scan.hpp).
template <class Index, class Executor, class AllocateChars>
core::SubstrResult run_substr(Executor& ex, const core::SubstrPlan& plan,
                              const core::SubstrBuffers& buffers, AllocateChars&& allocate_chars,
                              const SubstrDriverConfig& config = {}) {
  SubstrView<Index> view;
  view.in_offsets = buffers.in_offsets;
  view.in_chars = buffers.in_chars;
  view.pos = static_cast<const Index*>(buffers.pos);
  view.len = static_cast<const Index*>(buffers.len);
  view.map = substr_map_view(ex, plan.map);
  const std::int64_t n = plan.out_size;
  const std::int64_t in_size = plan.in_size;
  const std::int64_t in_chars_total = plan.in_chars;
  const bool utf8 = plan.unit == SubstrUnit::kUtf8Char;
  const bool report = plan.policy == OutOfBoundsPolicy::kError;
  const bool bounded = !report && config.capacity >= 0;
  std::int64_t* const out_offsets = buffers.out_offsets;
  // Bounded: the chars first, so no pass waits on the host.
  std::uint8_t* const bounded_chars = bounded ? allocate_chars(config.capacity) : nullptr;
  std::int64_t* begins = ex.template scratch<std::int64_t>(n);
  std::int64_t* tail = ex.template scratch<std::int64_t>(2);
  // Byte units in one scan: it leaves the tail filled as well.
  const bool one_scan = !utf8 && config.byte_offsets == SubstrByteOffsets::kScanOfSizes;
  if (report && !one_scan) ex.fill(tail + 1, kNoBadIndex, 1);

  const bool lanes = utf8 && in_size > 0 && in_size <= INT64_MAX / kLanes &&
                     n <= INT64_MAX / kLanes && in_chars_total / in_size >= config.lane_threshold;
  auto with_report = [&](auto pass) {
    if (report) {
      pass(std::true_type{});
    } else {
      pass(std::false_type{});
    }
  };
  if (one_scan) {
    ex.exclusive_scan_by(ByteSizeOf<Index>{view, n, report}, SizeAndBad{0, kNoBadIndex},
                         AddSizesMinBad{},
                         ByteOffsetsStore<Index>{view, n, out_offsets, begins, tail}, n + 1);
  } else if (lanes) {
    const std::int64_t lane_total = in_size * kLanes;
    const bool scan = config.lane_scan && lane_total < INT64_MAX;
    std::int64_t* counts = ex.template scratch<std::int64_t>(lane_total + (scan ? 1 : 0));
    ex.for_each_index(lane_total + (scan ? 1 : 0),
                      LaneCountFunctor<Index>{view, counts, scan ? lane_total : -1});
    if (scan) ex.exclusive_scan(counts, counts, lane_total + 1);
    ex.fill(out_offsets, std::int64_t{0}, n + 1);
    with_report([&](auto report_tag) {
      ex.for_each_index(n * kLanes, LaneSizesFunctor<Index, decltype(report_tag)::value>{
                                        view, counts, begins, out_offsets, tail + 1, scan});
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
  if (!one_scan) ex.exclusive_scan(out_offsets, out_offsets, n + 1);

  core::SubstrResult result;
  if (report) {
    if (!one_scan) ex.for_each_index(1, TailFunctor{out_offsets + n, tail});
    const TotalAndBad both = ex.read_value(reinterpret_cast<const TotalAndBad*>(tail));
    result.total_bytes = both.total;
    if (both.first_bad != kNoBadIndex) {
      // Validate first, write second: the output is discarded. The message names the element's
      // string and pos: read that one pos back (error path only).
      result.first_bad_index = both.first_bad;
      std::int64_t pos_i = 0;
      map_element(plan.map, both.first_bad, &result.bad_input_index, &pos_i);
      result.bad_pos = static_cast<std::int64_t>(ex.read_value(view.pos + pos_i));
      return result;
    }
  } else if (!bounded) {
    result.total_bytes = ex.read_value(out_offsets + n);
  }

  if (bounded) {
    result.total_bytes = -1;
    if (n == 0) return result;
  }
  std::uint8_t* out_chars = bounded ? bounded_chars : allocate_chars(result.total_bytes);
  if (result.total_bytes == 0) return result;
  // The output's average length: the input's when the total stays on the device (every output
  // string is a substring of its input string).
  const std::int64_t out_average =
      bounded ? (in_size > 0 ? in_chars_total / in_size : 0) : result.total_bytes / n;
  if (n <= INT64_MAX / kLanes && out_average >= config.lane_threshold) {
    ex.for_each_index(n * kLanes,
                      LaneCopyFunctor{view.in_chars, begins, out_offsets, out_chars,
                                      config.lane_copy == SubstrLaneCopy::kVectors});
  } else {
    ex.for_each_index(n, CopyFunctor{view.in_chars, begins, out_offsets, out_chars});
  }
  return result;
}

}  // namespace tensorbuf::kernels
