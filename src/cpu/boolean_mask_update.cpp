// The CPU backend of boolean_mask_update. Two passes over the mask at most:
//   1. count the true entries of each block of kCountBlock mask entries (multithreaded), so
//      every thread knows the update row j its first row starts at, and n is known before
//      anything is written;
//   2. each thread walks its rows of the tensor viewed as [outer, M, inner] 64 mask entries at a
//      time (one 64-bit word of flags): runs of unmasked rows become one memcpy from the tensor
//      (out of place; in place they are skipped), runs of masked rows one memcpy from
//      consecutive update rows where the layout allows, and short mixed runs of small rows a
//      branch-free per-row select. Elements are moved as bytes (bool included).
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/isa.hpp"

#include "core/boolean_mask_update_backends.hpp"
#include "core/parallel.hpp"
#include "cpu/boolean_mask_update_avx512.hpp"
#include "cpu/cpu_features.hpp"
#include "cpu/prefetch.hpp"
#include "cpu/streaming_copy.hpp"
#include "kernels/bits.hpp"
#include "kernels/boolean_mask_update.hpp"

namespace tensorbuf::cpu {
namespace {

using core::MaskUpdateLayout;
#if defined(TENSORBUF_ISA_X86_64)
using namespace mask_update_detail;  // NOLINT(google-build-using-namespace): this op's own parts
#endif

constexpr std::int64_t kCountBlock = std::int64_t{1} << 14;  // mask entries per count block
// Costs on one core for the pool's policy (core::min_chunk_for; measured on the 2-vCPU dev VM by
// `tensorbuf bench --sweep` with one thread): counting a mask entry, and writing a row: per row
// and per output byte.
constexpr double kCountNsPerEntry = 0.05;
constexpr double kWriteNsPerRow = 0.3;
constexpr double kWriteNsPerByte = 0.05;
constexpr std::int64_t kSelectMaxRowBytes = 64;  // rows this small use the per-row select

// Bit k of the result: byte k of p is nonzero (k < 64).
inline std::uint64_t mask_word(const std::uint8_t* p) {
  if constexpr (std::endian::native == std::endian::little) {
    std::uint64_t bits = 0;
    for (int w = 0; w < 8; ++w) {
      std::uint64_t x;
      std::memcpy(&x, p + 8 * w, 8);
      // Fold each byte onto its lowest bit, then gather the 8 lowest bits into one byte.
      x |= x >> 4;
      x |= x >> 2;
      x |= x >> 1;
      x &= kernels::kOnesPerByte;
      bits |= ((x * 0x0102040810204080ull) >> 56) << (8 * w);
    }
    return bits;
  } else {
    std::uint64_t bits = 0;
    for (int k = 0; k < 64; ++k) bits |= static_cast<std::uint64_t>(p[k] != 0) << k;
    return bits;
  }
}

// Same for the first `count` (< 64) bytes.
inline std::uint64_t mask_word_partial(const std::uint8_t* p, std::int64_t count) {
  std::uint64_t bits = 0;
  for (std::int64_t k = 0; k < count; ++k) bits |= static_cast<std::uint64_t>(p[k] != 0) << k;
  return bits;
}

std::int64_t count_true(const std::uint8_t* p, std::int64_t count) {
  std::int64_t n = 0;
  std::int64_t k = 0;
  for (; k + 64 <= count; k += 64) n += kernels::popcount64(mask_word(p + k));
  if (k < count) n += kernels::popcount64(mask_word_partial(p + k, count - k));
  return n;
}

// Fills `count` elements of `size` bytes at dst with the element at src.
template <class Carrier>
void fill_typed(std::byte* dst, const std::byte* src, std::int64_t count) {
  Carrier value;
  std::memcpy(&value, src, sizeof(Carrier));
  for (std::int64_t i = 0; i < count; ++i)
    std::memcpy(dst + i * sizeof(Carrier), &value, sizeof(Carrier));
}

void fill_elements(std::byte* dst, const std::byte* src, std::int64_t count, std::size_t size) {
  switch (size) {
    case 1:
      std::memset(dst, static_cast<int>(*src), static_cast<std::size_t>(count));
      return;
    case 2:
      fill_typed<std::uint16_t>(dst, src, count);
      return;
    case 4:
      fill_typed<std::uint32_t>(dst, src, count);
      return;
    case 8:
      fill_typed<std::uint64_t>(dst, src, count);
      return;
    default:
      for (std::int64_t i = 0; i < count; ++i) std::memcpy(dst + i * size, src, size);
  }
}

// Per-row select of a mixed block: row k of `rows` rows gets update row j (then j advances) if
// its bit is set, else tensor row k. Branch-free: the source pointer is selected. RowBytes is
// the row size when known at compile time (0: `row_bytes`).
template <std::size_t RowBytes>
std::int64_t select_rows(std::uint64_t bits, std::int64_t rows, const std::byte* tensor_rows,
                         const std::byte* update_rows, std::int64_t update_pitch,
                         std::byte* out_rows, std::size_t row_bytes, std::int64_t j) {
  const std::size_t bytes = RowBytes != 0 ? RowBytes : row_bytes;
  for (std::int64_t k = 0; k < rows; ++k) {
    const std::uint64_t bit = (bits >> k) & 1u;
    const std::byte* from_tensor = tensor_rows + k * static_cast<std::int64_t>(bytes);
    const std::byte* from_updates = update_rows + j * update_pitch;
    // Selected with a mask, not `bit ? a : b`: compilers turn that into a branch, and a random
    // mask mispredicts half of them.
    const auto a = reinterpret_cast<std::uintptr_t>(from_tensor);
    const auto b = reinterpret_cast<std::uintptr_t>(from_updates);
    const auto* src = reinterpret_cast<const std::byte*>(a ^ ((a ^ b) & (std::uintptr_t{0} - bit)));
    if constexpr (RowBytes != 0) {
      std::memcpy(out_rows + k * static_cast<std::int64_t>(RowBytes), src, RowBytes);
    } else {
      std::memcpy(out_rows + k * static_cast<std::int64_t>(bytes), src, bytes);
    }
    j += static_cast<std::int64_t>(bit);
  }
  return j;
}

bool use_avx512() { return cpu_features().code_paths().mask_update_avx512; }

// In place, mixed block: row k gets update row j (then j advances) for every set bit k, in
// order; unmasked rows are not touched.
template <std::size_t RowBytes>
std::int64_t scatter_rows(std::uint64_t bits, const std::byte* update_rows,
                          std::int64_t update_pitch, std::byte* out_rows, std::size_t row_bytes,
                          std::int64_t j) {
  const std::size_t bytes = RowBytes != 0 ? RowBytes : row_bytes;
  for (; bits != 0; bits &= bits - 1) {
    const int k = std::countr_zero(bits);
    std::byte* dst = out_rows + static_cast<std::int64_t>(k) * static_cast<std::int64_t>(bytes);
    if constexpr (RowBytes != 0) {
      std::memcpy(dst, update_rows + j * update_pitch, RowBytes);
    } else {
      std::memcpy(dst, update_rows + j * update_pitch, bytes);
    }
    ++j;
  }
  return j;
}

class Runner {
 public:
  Runner(const core::BooleanMaskUpdatePlan& plan, const core::BooleanMaskUpdateBuffers& buffers)
      : layout_(plan.layout),
        element_size_(plan.element_size),
        row_bytes_(static_cast<std::size_t>(plan.layout.inner) * plan.element_size),
        mask_(buffers.mask),
        tensor_(static_cast<const std::byte*>(buffers.tensor)),
        updates_(static_cast<const std::byte*>(buffers.updates)),
        out_(static_cast<std::byte*>(buffers.out)),
        in_place_(buffers.out == buffers.tensor),
        rows_contiguous_(plan.layout.trail_contiguous &&
                         plan.layout.row_stride == plan.layout.inner),
        update_pitch_(plan.layout.row_stride * static_cast<std::int64_t>(plan.element_size)),
        stream_(!in_place_ &&
                plan.layout.outer * plan.layout.mask_size * static_cast<std::int64_t>(row_bytes_) >=
                    kStreamOutputBytes),
        simd_(use_avx512()) {}

  // Pass 1: per-block prefix counts of the mask; returns n.
  std::int64_t count() {
    const std::int64_t m_size = layout_.mask_size;
    const std::int64_t blocks = (m_size + kCountBlock - 1) / kCountBlock;
    block_prefix_.assign(static_cast<std::size_t>(blocks + 1), 0);
    const std::int64_t min_blocks = core::min_chunk_for(kCountNsPerEntry * kCountBlock);
    core::parallel_for(blocks, min_blocks, [&](std::int64_t begin, std::int64_t end) {
      for (std::int64_t b = begin; b < end; ++b) {
        const std::int64_t first = b * kCountBlock;
        block_prefix_[static_cast<std::size_t>(b + 1)] =
            count_mask(mask_ + first, std::min(kCountBlock, m_size - first));
      }
    });
    for (std::int64_t b = 0; b < blocks; ++b) {
      block_prefix_[static_cast<std::size_t>(b + 1)] += block_prefix_[static_cast<std::size_t>(b)];
    }
    return block_prefix_.back();
  }

  // Pass 2: the write, over rows (o, m) of the tensor.
  void write() {
    const std::int64_t rows = layout_.outer * layout_.mask_size;
    if (rows == 0 || row_bytes_ == 0) return;
    const std::int64_t min_rows = std::max<std::int64_t>(
        64,
        core::min_chunk_for(kWriteNsPerRow + kWriteNsPerByte * static_cast<double>(row_bytes_)));
    core::parallel_for(rows, min_rows, [&](std::int64_t begin, std::int64_t end) {
      std::int64_t o = begin / layout_.mask_size;
      std::int64_t m = begin - o * layout_.mask_size;
      std::int64_t left = end - begin;
      while (left > 0) {
        const std::int64_t span = std::min(left, layout_.mask_size - m);
        write_segment(o, m, m + span, count_before(m));
        left -= span;
        ++o;
        m = 0;
      }
      if (stream_) streaming_fence();  // the streamed rows are visible before the join
    });
  }

 private:
  // Number of true entries in mask[0, m).
  std::int64_t count_before(std::int64_t m) const {
    const std::int64_t block = m / kCountBlock;
    return block_prefix_[static_cast<std::size_t>(block)] +
           count_mask(mask_ + block * kCountBlock, m - block * kCountBlock);
  }

  std::int64_t count_mask(const std::uint8_t* p, std::int64_t count) const {
#if defined(TENSORBUF_ISA_X86_64)
    if (simd_) return count_true_avx512(p, count);
#endif
    return count_true(p, count);
  }

  // Bits of the 64 mask entries at p (bit k: entry k is true).
  std::uint64_t mask_bits(const std::uint8_t* p) const {
#if defined(TENSORBUF_ISA_X86_64)
    if (simd_) return mask_word_avx512(p);
#endif
    return mask_word(p);
  }

  const std::byte* tensor_row(std::int64_t o, std::int64_t m) const {
    return tensor_ + (o * layout_.mask_size + m) * static_cast<std::int64_t>(row_bytes_);
  }
  std::byte* out_row(std::int64_t o, std::int64_t m) const {
    return out_ + (o * layout_.mask_size + m) * static_cast<std::int64_t>(row_bytes_);
  }

  // A run of output bytes from one source: streamed when the output is large and the run long.
  void copy_out(std::byte* dst, const std::byte* src, std::size_t bytes) const {
    if (stream_ && bytes >= static_cast<std::size_t>(kStreamCopyBytes)) {
      copy_streaming(dst, src, bytes);
    } else {
      std::memcpy(dst, src, bytes);
    }
  }

  // Writes the update row starting at element `row_offset` of updates into dst.
  void write_update_row(std::byte* dst, std::int64_t row_offset) const {
    const std::byte* src = updates_ + row_offset * static_cast<std::int64_t>(element_size_);
    if (layout_.trail_contiguous) {
      std::memcpy(dst, src, row_bytes_);
    } else if (layout_.trail_broadcast) {
      fill_elements(dst, src, layout_.inner, element_size_);
    } else {
      for (std::int64_t t = 0; t < layout_.inner; ++t) {
        std::memcpy(dst + t * static_cast<std::int64_t>(element_size_),
                    src + kernels::mask_update_trail_offset(layout_, t) *
                              static_cast<std::int64_t>(element_size_),
                    element_size_);
      }
    }
  }

  // Writes update rows j .. j+count-1 of leading index o into consecutive rows at dst.
  void write_update_rows(std::byte* dst, std::int64_t lead, std::int64_t j,
                         std::int64_t count) const {
    if (rows_contiguous_) {
      copy_out(dst,
               updates_ + (lead + j * layout_.inner) * static_cast<std::int64_t>(element_size_),
               static_cast<std::size_t>(count) * row_bytes_);
    } else if (layout_.row_stride == 0 && layout_.trail_broadcast) {
      fill_elements(dst, updates_ + lead * static_cast<std::int64_t>(element_size_),
                    count * layout_.inner, element_size_);
    } else {
      for (std::int64_t r = 0; r < count; ++r) {
        write_update_row(dst + r * static_cast<std::int64_t>(row_bytes_),
                         lead + (j + r) * layout_.row_stride);
      }
    }
  }

  // Copies tensor rows [from, to) of o to the output (out of place only).
  void copy_tensor_rows(std::int64_t o, std::int64_t from, std::int64_t to) const {
    if (in_place_ || to <= from) return;
    copy_out(out_row(o, from), tensor_row(o, from),
             static_cast<std::size_t>(to - from) * row_bytes_);
  }

  // Mixed block of small rows with contiguous trailing elements, in place.
  std::int64_t scatter_block(std::uint64_t bits, std::int64_t o, std::int64_t m, std::int64_t lead,
                             std::int64_t j) const {
    const std::byte* update_rows = updates_ + lead * static_cast<std::int64_t>(element_size_);
    std::byte* d = out_row(o, m);
    switch (row_bytes_) {
      case 1:
        return scatter_rows<1>(bits, update_rows, update_pitch_, d, 1, j);
      case 2:
        return scatter_rows<2>(bits, update_rows, update_pitch_, d, 2, j);
      case 4:
        return scatter_rows<4>(bits, update_rows, update_pitch_, d, 4, j);
      case 8:
        return scatter_rows<8>(bits, update_rows, update_pitch_, d, 8, j);
      case 16:
        return scatter_rows<16>(bits, update_rows, update_pitch_, d, 16, j);
      case 32:
        return scatter_rows<32>(bits, update_rows, update_pitch_, d, 32, j);
      default:
        return scatter_rows<0>(bits, update_rows, update_pitch_, d, row_bytes_, j);
    }
  }

  // Mixed block of small rows with contiguous trailing elements, out of place.
  std::int64_t select_block(std::uint64_t bits, std::int64_t rows, std::int64_t o, std::int64_t m,
                            std::int64_t lead, std::int64_t j) const {
    std::byte* d = out_row(o, m);
    const std::byte* update_rows = updates_ + lead * static_cast<std::int64_t>(element_size_);
    const std::byte* t = tensor_row(o, m);
#if defined(TENSORBUF_ISA_X86_64)
    if (rows == 64 && rows_contiguous_ && simd_) {
      // A streamed output takes the block's whole lines with non-temporal stores.
      const bool aligned = (reinterpret_cast<std::uintptr_t>(d) & 63) == 0;
      if (stream_ && aligned) {
        if (row_bytes_ == 4) return expand64_b4<true>(bits, t, update_rows, d, j);
        if (row_bytes_ == 8) return expand64_b8<true>(bits, t, update_rows, d, j);
      }
      if (row_bytes_ == 4) return expand64_b4<false>(bits, t, update_rows, d, j);
      if (row_bytes_ == 8) return expand64_b8<false>(bits, t, update_rows, d, j);
    }
#endif
    switch (row_bytes_) {
      case 1:
        return select_rows<1>(bits, rows, t, update_rows, update_pitch_, d, 1, j);
      case 2:
        return select_rows<2>(bits, rows, t, update_rows, update_pitch_, d, 2, j);
      case 4:
        return select_rows<4>(bits, rows, t, update_rows, update_pitch_, d, 4, j);
      case 8:
        return select_rows<8>(bits, rows, t, update_rows, update_pitch_, d, 8, j);
      case 16:
        return select_rows<16>(bits, rows, t, update_rows, update_pitch_, d, 16, j);
      case 32:
        return select_rows<32>(bits, rows, t, update_rows, update_pitch_, d, 32, j);
      default:
        return select_rows<0>(bits, rows, t, update_rows, update_pitch_, d, row_bytes_, j);
    }
  }

  // Rows (o, m) for m in [begin, end), the first masked one taking update row j.
  void write_segment(std::int64_t o, std::int64_t begin, std::int64_t end, std::int64_t j) const {
    const std::int64_t lead = kernels::mask_update_row_offset(layout_, o, 0);
    const bool small_rows =
        layout_.trail_contiguous && row_bytes_ <= static_cast<std::size_t>(kSelectMaxRowBytes);
    std::int64_t pending = begin;  // first unmasked row not yet copied (out of place)
    for (std::int64_t m = begin; m < end; m += 64) {
      const std::int64_t rows = std::min<std::int64_t>(64, end - m);
      const std::uint64_t full = rows == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << rows) - 1;
      const std::uint64_t bits =
          rows == 64 ? mask_bits(mask_ + m) : mask_word_partial(mask_ + m, rows);
      if (bits == 0) continue;  // the whole block joins the pending tensor run
      if (bits == full) {
        copy_tensor_rows(o, pending, m);
        write_update_rows(out_row(o, m), lead, j, rows);
        j += rows;
        pending = m + rows;
        continue;
      }
      // Mixed block. Many short runs of small rows: per-row select; else run by run.
      if (small_rows && kernels::popcount64(bits ^ (bits >> 1)) > 8) {
        if (in_place_) {
          j = scatter_block(bits, o, m, lead, j);
        } else {
          copy_tensor_rows(o, pending, m);
          j = select_block(bits, rows, o, m, lead, j);
          pending = m + rows;
        }
        continue;
      }
      std::int64_t k = 0;
      while (k < rows) {
        const std::uint64_t rest = bits >> k;
        if ((rest & 1u) == 0) {
          k += std::min<std::int64_t>(std::countr_zero(rest), rows - k);  // joins pending
          continue;
        }
        const std::int64_t run = std::min<std::int64_t>(std::countr_one(rest), rows - k);
        copy_tensor_rows(o, pending, m + k);
        write_update_rows(out_row(o, m + k), lead, j, run);
        j += run;
        k += run;
        pending = m + k;
      }
    }
    copy_tensor_rows(o, pending, end);
  }

  const MaskUpdateLayout& layout_;
  std::size_t element_size_;
  std::size_t row_bytes_;
  const std::uint8_t* mask_;
  const std::byte* tensor_;
  const std::byte* updates_;
  std::byte* out_;
  bool in_place_;
  bool rows_contiguous_;
  std::int64_t update_pitch_;  // bytes between update rows j and j+1
  bool stream_;                // out of place into a large output: long runs stream
  bool simd_;                  // AVX-512 paths (the CPU has them and tests did not turn them off)
  std::vector<std::int64_t> block_prefix_;
};

}  // namespace

core::BooleanMaskUpdateResult boolean_mask_update(const core::BooleanMaskUpdatePlan& plan,
                                                  const core::BooleanMaskUpdateBuffers& buffers) {
  Runner runner(plan, buffers);
  const core::BooleanMaskUpdateResult result =
      core::counted_mask_result(runner.count(), plan.required_count);
  if (!result.applied()) return result;
  // Fresh outputs come from the caching host allocator (huge pages, reused blocks).
  if (buffers.out == buffers.tensor && result.count == 0) return result;  // nothing to write
  runner.write();
  return result;
}

}  // namespace tensorbuf::cpu
