// The CPU backend of boolean_mask (boolean_mask_into, compress): stream compaction in two
// multithreaded passes over blocks of kBlock mask entries:
//   1. the true count of each block, so that every block knows the output row its first true
//      entry goes to (and n is known before anything is allocated or written); where pass 2
//      takes the AVX-512 compress, the mask is also kept as bit words (1/8 of its bytes to
//      read again);
//   2. each (outer block, mask block) copies its selected rows: rows of 1, 2, 4 or 8 bytes, and
//      of 16, 32 or 64 bytes in blocks where at least a quarter of the rows are selected, with a
//      branch-free select (every row is stored, the output row advances only on true ones);
//      other rows as one copy per run of consecutive true rows, skipping false rows 8 mask
//      bytes at a time. Rows of 4, 8, 16 and 32 bytes, where they would take the
//      select, take the AVX-512 compress instead where the CPU has it
//      (cpu/boolean_mask_avx512.hpp), 64 mask entries at a time, the select for the rest.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

#include "core/boolean_mask_backends.hpp"
#include "core/isa.hpp"
#include "core/parallel.hpp"
#include "cpu/boolean_mask_avx512.hpp"
#include "cpu/boolean_mask_tuning.hpp"
#include "cpu/buckets.hpp"
#include "cpu/cpu_features.hpp"
#include "cpu/streaming_copy.hpp"
#include "kernels/bits.hpp"
#include "kernels/mask_tiles.hpp"

namespace tensorbuf::cpu {
namespace {

constexpr std::int64_t kBlock = std::int64_t{1} << 14;  // mask entries per block
// Costs on one core for the pool's policy (core::min_chunk_for): counting a mask entry, and
// visiting a row plus copying its bytes.
constexpr double kCountNsPerEntry = 0.05;
constexpr double kVisitNsPerRow = 0.4;
constexpr double kCopyNsPerByte = 0.05;

std::atomic<MaskStreaming> g_streaming{MaskStreaming::kAuto};
// Source prefetched ahead of the streamed compress: the hardware prefetcher alone left the
// copy pass short of the source stream (bench/RESULTS.md, "boolean_mask's streamed output").
constexpr std::int64_t kStreamPrefetchBytes = 8192;

std::atomic<std::int64_t> g_prefetch_bytes{kAutoPrefetch};
std::int64_t count_true(const std::uint8_t* mask, std::int64_t begin, std::int64_t end) {
  std::int64_t n = 0;
  std::int64_t m = begin;
  for (; m + 8 <= end; m += 8) {
    std::uint64_t word;
    std::memcpy(&word, mask + m, sizeof word);
    n += kernels::nonzero_bytes(word);
  }
  for (; m < end; ++m) n += mask[m] != 0 ? 1 : 0;
  return n;
}

// Rows of exactly kBytes bytes: every row is stored at the current output row, which advances
// only past true rows, while a true row is still ahead in the block (j < j_end): so each output
// row's last store is its true row's, and nothing past the block's rows is touched.
template <std::int64_t kBytes>
void select_rows(const std::uint8_t* mask, std::int64_t begin, std::int64_t end,
                 const std::uint8_t* source, std::uint8_t* target, std::int64_t j,
                 std::int64_t j_end) {
  for (std::int64_t m = begin; m < end && j < j_end; ++m) {
    std::uint8_t row[kBytes];
    std::memcpy(row, source + m * kBytes, kBytes);
    std::memcpy(target + j * kBytes, row, kBytes);
    j += mask[m] != 0 ? 1 : 0;
  }
}

#if defined(TENSORBUF_ISA_X86_64)
// Rows of 4, 8, 16 or 32 bytes by the AVX-512 compress over the mask's bit words (`bits`: entry 0's
// word), the entries after the last whole word by select_rows; `stream`: whole output lines by
// non-temporal stores.
template <std::int64_t kBytes>
void compress_rows(const std::uint8_t* mask, const std::uint64_t* bits, std::int64_t begin,
                   std::int64_t end, const std::uint8_t* source, std::uint8_t* target,
                   std::int64_t j, std::int64_t j_end, bool stream, std::int64_t prefetch) {
  const std::int64_t whole_end = begin + (end - begin) / 64 * 64;  // begin is a multiple of 64
  constexpr int kRowBytes = static_cast<int>(kBytes);
  const auto compress = stream ? &mask_detail::compress_rows_streaming_avx512<kRowBytes>
                               : &mask_detail::compress_rows_avx512<kRowBytes>;
  j += compress(bits + begin / 64, (whole_end - begin) / 64, source + begin * kBytes,
                target + j * kBytes, j_end - j, prefetch);
  select_rows<kBytes>(mask, whole_end, end, source, target, j, j_end);
}
#endif

std::uint64_t load_word(const std::uint8_t* p) {
  std::uint64_t word;
  std::memcpy(&word, p, sizeof word);
  return word;
}

// Whether some byte of `word` is zero (the classic bit trick: exact for "some", not "which").
bool has_zero_byte(std::uint64_t word) {
  return ((word - kernels::kOnesPerByte) & ~word & (kernels::kOnesPerByte << 7)) != 0;
}

// Any row size: one copy per run of consecutive true rows, clipped at j_end; runs of false and
// of true mask bytes are walked 8 at a time.
void copy_runs(const std::uint8_t* mask, std::int64_t begin, std::int64_t end,
               const std::uint8_t* source, std::uint8_t* target, std::int64_t row_bytes,
               std::int64_t j, std::int64_t j_end) {
  std::int64_t m = begin;
  while (m < end && j < j_end) {
    while (m + 8 <= end && load_word(mask + m) == 0) m += 8;
    while (m < end && mask[m] == 0) ++m;
    const std::int64_t first = m;
    while (m + 8 <= end && !has_zero_byte(load_word(mask + m))) m += 8;
    while (m < end && mask[m] != 0) ++m;
    const std::int64_t rows = std::min(m - first, j_end - j);
    if (rows <= 0) break;
    std::memcpy(target + j * row_bytes, source + first * row_bytes,
                static_cast<std::size_t>(rows * row_bytes));
    j += rows;
  }
}

}  // namespace

void set_boolean_mask_tuning(const BooleanMaskTuning& tuning) {
  g_streaming.store(tuning.streaming, std::memory_order_relaxed);
  g_prefetch_bytes.store(tuning.prefetch_bytes, std::memory_order_relaxed);
}

BooleanMaskTuning boolean_mask_tuning() {
  return {g_streaming.load(std::memory_order_relaxed),
          g_prefetch_bytes.load(std::memory_order_relaxed)};
}

core::BooleanMaskResult boolean_mask(const core::BooleanMaskPlan& plan,
                                     const core::BooleanMaskBuffers& buffers,
                                     const core::AllocateMasked& allocate) {
  const std::int64_t mask_size = plan.mask_size;
  const std::int64_t blocks = (mask_size + kBlock - 1) / kBlock;
  const auto row_bytes = static_cast<std::int64_t>(plan.inner * plan.element_size);
  // Rows of 4, 8, 16 and 32 bytes on AVX-512: the count pass also keeps the mask as bits.
  std::optional<buckets::Scratch> bits_scratch;
  [[maybe_unused]] std::uint64_t* bits = nullptr;
#if defined(TENSORBUF_ISA_X86_64)
  if ((row_bytes == 4 || row_bytes == 8 || row_bytes == 16 || row_bytes == 32) &&
      plan.outer > 0 && mask_size >= 64 &&
      cpu_features().avx512bw) {
    bits_scratch.emplace(static_cast<std::size_t>(mask_size / 64) * sizeof(std::uint64_t));
    bits = static_cast<std::uint64_t*>(bits_scratch->data());
  }
#endif
  const BooleanMaskTuning tuning = boolean_mask_tuning();
  std::vector<std::int64_t> starts(static_cast<std::size_t>(blocks) + 1, 0);
  core::parallel_for(
      blocks, core::min_chunk_for(kCountNsPerEntry * kBlock),
      [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t b = begin; b < end; ++b) {
          const std::int64_t first = b * kBlock;
          const std::int64_t last = std::min(mask_size, first + kBlock);
          std::int64_t whole = first;  // entries before it: counted as bits
          std::int64_t count = 0;
#if defined(TENSORBUF_ISA_X86_64)
          if (bits != nullptr) {
            const std::int64_t words = (last - first) / 64;
            count = mask_detail::pack_mask_avx512(buffers.mask, first, words, bits + first / 64);
            whole += 64 * words;
          }
#endif
          starts[static_cast<std::size_t>(b) + 1] = count + count_true(buffers.mask, whole, last);
        }
      });
  for (std::size_t b = 0; b < static_cast<std::size_t>(blocks); ++b) starts[b + 1] += starts[b];
  const std::int64_t n = starts.back();

  core::BooleanMaskResult result;
  std::int64_t capacity = plan.capacity;
  void* out = buffers.out;
  if (capacity < 0) {
    capacity = n;
    result.count = n;
    out = allocate(n);
  } else {
    *buffers.count = n;
  }
  if (out == nullptr || capacity == 0 || row_bytes == 0 || plan.outer == 0) return result;

  const auto* tensor = static_cast<const std::uint8_t*>(buffers.tensor);
  auto* target = static_cast<std::uint8_t*>(out);
  const bool stream = tuning.streaming == MaskStreaming::kAlways ||
                      (tuning.streaming == MaskStreaming::kAuto &&
                       plan.outer * std::min(capacity, n) * row_bytes >= kStreamOutputBytes);
  // Read by the x86-64 compress only.
  [[maybe_unused]] const std::int64_t prefetch =
      tuning.prefetch_bytes != kAutoPrefetch ? tuning.prefetch_bytes
      : stream                               ? kStreamPrefetchBytes
                                             : 0;
  const double ns_per_item =
      static_cast<double>(kBlock) * (kVisitNsPerRow + kCopyNsPerByte * static_cast<double>(
                                                                           row_bytes));
  core::parallel_for(plan.outer * blocks, core::min_chunk_for(ns_per_item),
                     [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t item = begin; item < end; ++item) {
      const std::int64_t o = item / blocks;
      const std::int64_t b = item - o * blocks;
      const std::int64_t j = starts[static_cast<std::size_t>(b)];
      const std::int64_t j_end = std::min(starts[static_cast<std::size_t>(b) + 1], capacity);
      if (j >= j_end) continue;
      const std::uint8_t* source = tensor + o * plan.axis_size * row_bytes;
      std::uint8_t* block_target = target + o * capacity * row_bytes;
      const std::int64_t first = b * kBlock;
      const std::int64_t last = std::min(mask_size, first + kBlock);
      // Wide rows are selected branch-free only where enough of them are copied anyway.
      const bool dense = 4 * (starts[static_cast<std::size_t>(b) + 1] - j) >= last - first;
      auto select = [&](auto bytes) {
#if defined(TENSORBUF_ISA_X86_64)
        constexpr std::int64_t kBytes = decltype(bytes)::value;
        if constexpr (kBytes == 4 || kBytes == 8 || kBytes == 16 || kBytes == 32) {
          if (bits != nullptr) {
            compress_rows<kBytes>(buffers.mask, bits, first, last, source, block_target, j,
                                  j_end, stream, prefetch);
            return;
          }
        }
#endif
        select_rows<decltype(bytes)::value>(buffers.mask, first, last, source, block_target, j,
                                            j_end);
      };
      using std::integral_constant;
      if (row_bytes == 1) {
        select(integral_constant<std::int64_t, 1>{});
      } else if (row_bytes == 2) {
        select(integral_constant<std::int64_t, 2>{});
      } else if (row_bytes == 4) {
        select(integral_constant<std::int64_t, 4>{});
      } else if (row_bytes == 8) {
        select(integral_constant<std::int64_t, 8>{});
      } else if (dense && row_bytes == 16) {
        select(integral_constant<std::int64_t, 16>{});
      } else if (dense && row_bytes == 32) {
        select(integral_constant<std::int64_t, 32>{});
      } else if (dense && row_bytes == 64) {
        select(integral_constant<std::int64_t, 64>{});
      } else {
        copy_runs(buffers.mask, first, last, source, block_target, row_bytes, j, j_end);
      }
    }
    if (stream) streaming_fence();  // once per chunk: a fence waits for the streamed lines
  });
  return result;
}

}  // namespace tensorbuf::cpu
