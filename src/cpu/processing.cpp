// The fused Processor on the CPU. The elements are cut into blocks of kProcessBlock; a block
// goes through every stage before the next one starts: the first stage reads the input, each
// stage writes its result (rounded to its dtype) into one of two cache-resident scratch blocks
// on the stack, and the last one writes the output (or a scratch block then streamed out with
// non-temporal stores when the output is far beyond the caches). So memory is read once and
// written once, and each stage's loop is a plain vectorisable loop over one block. An 8-bit
// input whose chain is slow element by element is run as a table of the chain's 256 x C
// outputs instead (below).
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/convert.hpp"
#include "core/convert_backends.hpp"
#include "core/isa.hpp"
#include "core/parallel.hpp"
#include "core/process_memos.hpp"
#include "core/processing_backends.hpp"
#include "cpu/cpu_features.hpp"
#include "cpu/normalize_reciprocal.hpp"
#include "cpu/processing_tuning.hpp"
#include "cpu/cache_size.hpp"
#include "cpu/streaming_copy.hpp"
#include "kernels/processing.hpp"
#include "tensorbuf/half.hpp"
#if defined(TENSORBUF_ISA_X86_64)
#include <immintrin.h>
#endif

namespace tensorbuf::cpu {
namespace {

constexpr std::int64_t kBlock = core::kProcessBlock;

// Measured on one thread of the dev VM (uint8 -> normalize -> float32 from memory): ~0.35 ns
// per element, plus ~0.25 ns per element for each further stage.
constexpr double kNsPerElement = 0.35;
constexpr double kNsPerStageElement = 0.25;
// A table lookup per element (8-bit inputs, below): an AVX-512 gather of 16 or a scalar load
// each, ~0.5 ns per element; byte and 2-byte outputs by permutes (64 or 32 a step) ~0.07 ns
// per channel (uint8 -> float16: one channel 0.06 ns with two threads, three 0.11 ns, against
// 0.06 ns for the direct normalize loop to float16).
constexpr double kNsPerTableElement = 0.5;
constexpr double kNsPerPermuteChannel = 0.07;

// y[j] = normalize(float32(x[j])) over one run of means and stddevs; x and y never overlap
// (the stages write the other scratch block, run_into computes aliased outputs apart).
template <class From>
[[gnu::always_inline]] inline void normalize_span(const From* __restrict x, float* __restrict y,
                                                  std::int64_t n, const float* __restrict mean,
                                                  const float* __restrict stddev) {
  for (std::int64_t j = 0; j < n; ++j) {
    y[j] = kernels::normalize_element(static_cast<float>(x[j]), mean[j], stddev[j]);
  }
}

template <class From>
[[gnu::always_inline]] inline void normalize_scalar(const From* __restrict x, float* __restrict y,
                                                    std::int64_t n, float mean, float stddev) {
  for (std::int64_t j = 0; j < n; ++j) {
    y[j] = kernels::normalize_element(static_cast<float>(x[j]), mean, stddev);
  }
}

// The loops above compiled for AVX-512 (16 lanes a division) where the CPU has it: a block's
// arithmetic is then well under its memory time. Same IEEE operations, so the same bits.
#if defined(TENSORBUF_ISA_X86_64)
// (g++ uses 256-bit vectors for AVX-512 unless told; clang has no such target option.)
#if defined(__clang__)
#define TENSORBUF_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl")))
#else
#define TENSORBUF_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512vl,prefer-vector-width=512")))
#endif
template <class From>
TENSORBUF_AVX512 void normalize_span_avx512(const From* x, float* y, std::int64_t n,
                                            const float* mean, const float* stddev) {
  normalize_span(x, y, n, mean, stddev);
}
template <class From>
TENSORBUF_AVX512 void normalize_scalar_avx512(const From* x, float* y, std::int64_t n, float mean,
                                              float stddev) {
  normalize_scalar(x, y, n, mean, stddev);
}
#undef TENSORBUF_AVX512
#endif

#if defined(TENSORBUF_ISA_X86_64)
// normalize_span with each float32 result rounded to float16 (vcvtps2ph: round to nearest even,
// overflow to inf, NaN quieted keeping its payload's top bits, the rule of float16(float) and of
// convert_half.cpp's F16C path, bit for bit) and stored as such: the chain's float16 pipeline
// in one loop.
template <class From>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void normalize_half_avx512(
    const From* x, std::uint16_t* y, std::int64_t n, const float* mean, const float* stddev) {
  // The maskz forms with a full mask: g++ 12 warns that the plain forms' undefined source is
  // uninitialised (as in convert_half.cpp).
  const __mmask16 all = 0xffff;
  std::int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    __m512 v;
    if constexpr (std::is_same_v<From, std::uint8_t>) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + j));
      v = _mm512_maskz_cvtepi32_ps(all, _mm512_maskz_cvtepu8_epi32(all, bytes));
    } else {
      v = _mm512_loadu_ps(x + j);
    }
    v = _mm512_div_ps(_mm512_sub_ps(v, _mm512_loadu_ps(mean + j)), _mm512_loadu_ps(stddev + j));
    _mm256_storeu_si256(
        reinterpret_cast<__m256i*>(y + j),
        _mm512_maskz_cvtps_ph(all, v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  for (; j < n; ++j) {
    y[j] = detail::float_to_half_bits(
        kernels::normalize_element(static_cast<float>(x[j]), mean[j], stddev[j]));
  }
}
#endif

// y[j] = To(normalize(float32(x[j]))), To float32 or float16 (as its bits), for the n elements of
// a block starting at global index `first`.
template <class From, class To>
void normalize_block(const From* x, To* y, std::int64_t n, std::int64_t first,
                     const core::ProcessStage& stage, [[maybe_unused]] bool avx512,
                     [[maybe_unused]] NormalizeForm form) {
#if defined(TENSORBUF_ISA_X86_64)
  if constexpr (std::is_same_v<From, std::uint8_t>) {
    if (form.recip != nullptr) {  // a division-free form (checked for this stage)
      std::int64_t phase = first % stage.channels;
      while (n > 0) {
        const std::int64_t len = std::min(n, stage.period - phase);
        if constexpr (std::is_same_v<To, std::uint16_t>) {
          if (form.product) {
            normalize_u8_by_product(x, y, len, stage.channels, stage.means + phase,
                                    stage.stddevs + phase, form.recip + phase);
          } else {
            normalize_u8_by_reciprocal(x, y, len, stage.channels, stage.means + phase,
                                       stage.stddevs + phase, form.recip + phase);
          }
        } else {
          normalize_u8_by_reciprocal(x, y, len, stage.channels, stage.means + phase,
                                     stage.stddevs + phase, form.recip + phase);
        }
        x += len;
        y += len;
        n -= len;
        phase = 0;
      }
      return;
    }
  }
#endif
  if constexpr (std::is_same_v<To, float>) {
    if (stage.channels == 1) {
#if defined(TENSORBUF_ISA_X86_64)
      if (avx512) return normalize_scalar_avx512(x, y, n, stage.means[0], stage.stddevs[0]);
#endif
      return normalize_scalar(x, y, n, stage.means[0], stage.stddevs[0]);
    }
  }
  // The repeated means start at any channel and cover a whole block (period_for), so one
  // segment does it; channels longer than a block wrap at the end of the period.
  std::int64_t phase = first % stage.channels;
  while (n > 0) {
    const std::int64_t len = std::min(n, stage.period - phase);
    const float* mean = stage.means + phase;
    const float* stddev = stage.stddevs + phase;
    if constexpr (std::is_same_v<To, float>) {
#if defined(TENSORBUF_ISA_X86_64)
      if (avx512) {
        normalize_span_avx512(x, y, len, mean, stddev);
      } else {
        normalize_span(x, y, len, mean, stddev);
      }
#else
      normalize_span(x, y, len, mean, stddev);
#endif
    } else {
#if defined(TENSORBUF_ISA_X86_64)
      if (avx512) {
        normalize_half_avx512(x, y, len, mean, stddev);
      } else
#endif
      {
        alignas(64) float block[kBlock];
        normalize_span(x, block, len, mean, stddev);
        float_to_half_bits(block, y, 0, len);  // convert_elements' float -> float16
      }
    }
    x += len;
    y += len;
    n -= len;
    phase = 0;
  }
}

template <class From>
void normalize_stage(const core::ProcessStage& stage, const From* src, void* dst, std::int64_t n,
                     std::int64_t first, bool avx512, NormalizeForm form) {
  if (stage.to == DataType::kFloat16) {
    normalize_block(src, static_cast<std::uint16_t*>(dst), n, first, stage, avx512, form);
  } else {
    normalize_block(src, static_cast<float*>(dst), n, first, stage, avx512, form);
  }
}

// form: a uint8 normalize stage's division-free form, or none (the division).
void run_stage(const core::ProcessStage& stage, const void* src, void* dst, std::int64_t n,
               std::int64_t first, bool avx512, NormalizeForm form) {
  if (stage.kind == core::ProcessStageKind::kConvert) {
    core::convert_elements(src, stage.from, dst, stage.to, n);
  } else if (stage.from == DataType::kUInt8) {
    normalize_stage(stage, static_cast<const std::uint8_t*>(src), dst, n, first, avx512, form);
  } else {
    normalize_stage(stage, static_cast<const float*>(src), dst, n, first, avx512, {});
  }
}

// --- 8-bit inputs: the chain as a table ---
//
// With a uint8, int8 or bool input every chain is a function of the input byte and the channel
// (i % C, C the normalize steps' channel count, 1 without one): 256 x C outputs. The table is
// the chain itself run over an input holding every byte at every channel (run_blocks below, the
// very code of the direct path), so a lookup gives its bits, NaN payloads and roundings
// included; the pass is then a load, a lookup and a store per element.

// Tables up to this size (L1-resident) are used, and only for inputs of at least
// kTableRepeats times the table's entries (building it runs the chain over them). Measured
// crossovers (uint8, 3 channels, one thread's sizes): normalize -> quantize -> int8 breaks even
// at ~4x the entries (1.5x faster at 8x, 2.6x at 16x); a cast to float16 at ~2x.
constexpr std::size_t kTableBytes = std::size_t{32} << 10;
constexpr std::int64_t kTableRepeats = 8;

std::atomic<ProcessTableUse> g_table_use{ProcessTableUse::kAuto};

bool is_byte_input(DataType t) {
  return t == DataType::kUInt8 || t == DataType::kInt8 || t == DataType::kBool;
}

std::int64_t chain_channels(const core::ProcessPlan& plan) {
  std::int64_t channels = 1;
  for (const core::ProcessStage& stage : plan.stages) {
    if (stage.kind == core::ProcessStageKind::kNormalize) {
      channels = std::max(channels, stage.channels);
    }
  }
  return channels;
}

// Every stage over the blocks [begin, end) of n elements (the direct path, and the table's
// construction, which divides: forms null). forms: each stage's normalize form.
void run_blocks(const core::ProcessPlan& plan, const std::uint8_t* in, std::uint8_t* out,
                std::int64_t n, std::int64_t begin, std::int64_t end, bool avx512, bool stream,
                const NormalizeForm* forms = nullptr) {
  const std::size_t in_size = type_size(plan.in_type);
  const std::size_t out_size = type_size(plan.out_type);
  const auto stages = static_cast<std::int64_t>(plan.stages.size());
  // Two scratch blocks of the widest dtype, line-aligned for the streamed copy.
  alignas(64) std::uint8_t scratch[2][kBlock * 8];
  for (std::int64_t b = begin; b < end; ++b) {
    const std::int64_t first = b * kBlock;
    const std::int64_t len = std::min(kBlock, n - first);
    std::uint8_t* target = out + static_cast<std::size_t>(first) * out_size;
    const void* src = in + static_cast<std::size_t>(first) * in_size;
    if (stages == 0) {  // every step an identity for this dtype: a copy
      if (stream) {
        copy_streaming(target, src, static_cast<std::size_t>(len) * out_size);
      } else {
        std::memcpy(target, src, static_cast<std::size_t>(len) * out_size);
      }
      continue;
    }
    for (std::int64_t s = 0; s < stages; ++s) {
      void* dst = (s == stages - 1 && !stream) ? static_cast<void*>(target)
                                               : static_cast<void*>(scratch[s % 2]);
      run_stage(plan.stages[static_cast<std::size_t>(s)], src, dst, len, first, avx512,
                forms != nullptr ? forms[s] : NormalizeForm{});
      src = dst;
    }
    if (stream) copy_streaming(target, src, static_cast<std::size_t>(len) * out_size);
  }
  if (stream) streaming_fence();
}

// The chain's outputs by channel and byte: entry c * 256 + v, each output's bits zero-extended
// to a 32-bit word (outputs of 1, 2 or 4 bytes) or a 64-bit one (8 bytes).
struct ChainTable {
  std::int64_t channels = 1;
  std::vector<std::uint32_t> narrow;  // outputs of 1, 2 or 4 bytes
  std::vector<std::uint64_t> wide;    // outputs of 8 bytes
  const std::uint32_t* words() const { return narrow.data(); }
  const std::uint64_t* wides() const { return wide.data(); }
};

// An output element's bits as an unsigned integer of its size, widened.
std::uint64_t output_word(const std::uint8_t* p, std::size_t size) {
  auto read = [p](auto word) {
    std::memcpy(&word, p, sizeof word);
    return static_cast<std::uint64_t>(word);
  };
  switch (size) {
    case 1:
      return p[0];
    case 2:
      return read(std::uint16_t{});
    case 4:
      return read(std::uint32_t{});
    default:
      return read(std::uint64_t{});
  }
}

ChainTable build_table(const core::ProcessPlan& plan, std::int64_t channels, bool avx512) {
  const std::int64_t entries = 256 * channels;
  const std::size_t out_size = type_size(plan.out_type);
  // Input element k = v * C + c holds byte v at channel c (k % C), as element k of any input.
  std::vector<std::uint8_t> in(static_cast<std::size_t>(entries));
  for (std::int64_t k = 0; k < entries; ++k)
    in[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(k / channels);
  std::vector<std::uint8_t> out(static_cast<std::size_t>(entries) * out_size);
  run_blocks(plan, in.data(), out.data(), entries, 0, (entries + kBlock - 1) / kBlock, avx512,
             false);
  ChainTable table;
  table.channels = channels;
  auto fill = [&](auto& words) {
    words.assign(static_cast<std::size_t>(entries), 0);
    for (std::int64_t v = 0; v < 256; ++v) {
      for (std::int64_t c = 0; c < channels; ++c) {
        using Word = typename std::decay_t<decltype(words)>::value_type;
        words[static_cast<std::size_t>(c * 256 + v)] = static_cast<Word>(output_word(
            out.data() + static_cast<std::size_t>(v * channels + c) * out_size, out_size));
      }
    }
  };
  if (out_size <= 4) {
    fill(table.narrow);
  } else {
    fill(table.wide);
  }
  return table;
}

// y[j] = table[c * 256 + x[j]] for the n elements from global index `first`.
template <class Out, class Word>
void lookup_portable(const std::uint8_t* x, Out* y, std::int64_t n, std::int64_t first,
                     const Word* table, std::int64_t channels) {
  if (channels == 1) {
    for (std::int64_t j = 0; j < n; ++j) y[j] = static_cast<Out>(table[x[j]]);
    return;
  }
  std::int64_t c = first % channels;
  for (std::int64_t j = 0; j < n; ++j) {
    y[j] = static_cast<Out>(table[c * 256 + x[j]]);
    if (++c == channels) c = 0;
  }
}

#if defined(TENSORBUF_ISA_X86_64)
// The same with AVX-512 gathers, 16 elements a step: each lane's index is its channel's row
// (kept per lane, advanced 16 elements a step) plus its byte.
template <class Out>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void lookup_avx512(const std::uint8_t* x,
                                                                        Out* y, std::int64_t n,
                                                                        std::int64_t first,
                                                                        const ChainTable& table) {
  const std::int64_t channels = table.channels;
  // The masked forms with full masks: g++ 12 warns that the plain forms' undefined source is
  // uninitialised.
  const __mmask16 all = 0xffff;
  const __m512i zero = _mm512_setzero_si512();
  alignas(64) std::int32_t rows[16];
  for (int lane = 0; lane < 16; ++lane) {
    rows[lane] = static_cast<std::int32_t>((first + lane) % channels * 256);
  }
  __m512i row = _mm512_load_si512(rows);
  const __m512i step = _mm512_set1_epi32(static_cast<std::int32_t>(16 % channels * 256));
  const __m512i wrap = _mm512_set1_epi32(static_cast<std::int32_t>(channels * 256));
  std::int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + j));
    const __m512i index = _mm512_add_epi32(row, _mm512_maskz_cvtepu8_epi32(all, bytes));
    if constexpr (sizeof(Out) == 8) {
      alignas(64) std::int32_t halves[16];  // (g++ 12 warns on the 512 -> 256-bit casts)
      _mm512_store_si512(halves, index);
      const __m256i index_lo = _mm256_load_si256(reinterpret_cast<const __m256i*>(halves));
      const __m256i index_hi = _mm256_load_si256(reinterpret_cast<const __m256i*>(halves + 8));
      const __m512i lo = _mm512_mask_i32gather_epi64(zero, 0xff, index_lo, table.wides(), 8);
      const __m512i hi = _mm512_mask_i32gather_epi64(zero, 0xff, index_hi, table.wides(), 8);
      _mm512_storeu_si512(y + j, lo);
      _mm512_storeu_si512(y + j + 8, hi);
    } else {
      const __m512i v = _mm512_mask_i32gather_epi32(zero, all, index, table.words(), 4);
      if constexpr (sizeof(Out) == 4) {
        _mm512_storeu_si512(y + j, v);
      } else if constexpr (sizeof(Out) == 2) {
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + j), _mm512_maskz_cvtepi32_epi16(all, v));
      } else {
        _mm_storeu_si128(reinterpret_cast<__m128i*>(y + j), _mm512_maskz_cvtepi32_epi8(all, v));
      }
    }
    row = _mm512_add_epi32(row, step);
    row = _mm512_mask_sub_epi32(row, _mm512_cmpge_epi32_mask(row, wrap), row, wrap);
  }
  if (j < n) {
    if constexpr (sizeof(Out) == 8) {
      lookup_portable(x + j, y + j, n - j, first + j, table.wides(), channels);
    } else {
      lookup_portable(x + j, y + j, n - j, first + j, table.words(), channels);
    }
  }
}
#endif

// Byte and 2-byte outputs of up to kPermuteChannels channels without gathers: a channel's 256
// bytes are 4 registers, and two 2-register byte permutes (vpermi2b: 128 entries by the index's
// low 7 bits) look 64 bytes up in them, bit 7 choosing between the two; each lane then takes
// its channel's result (lane masks by channel, for each phase of the first lane).
constexpr std::int64_t kPermuteChannels = 8;

struct PermuteTable {
  alignas(64) std::uint8_t bytes[kPermuteChannels][256];         // 1-byte outputs
  alignas(64) std::uint16_t words[kPermuteChannels][256];        // 2-byte outputs
  std::uint64_t lanes[kPermuteChannels][kPermuteChannels];       // [phase][channel]: 64 byte lanes
  std::uint32_t word_lanes[kPermuteChannels][kPermuteChannels];  // the same for 32 word lanes
  std::int64_t channels = 1;
};

[[maybe_unused]] PermuteTable permute_table(const ChainTable& table) {
  PermuteTable t{};
  t.channels = table.channels;
  for (std::int64_t c = 0; c < table.channels; ++c) {
    for (int v = 0; v < 256; ++v) {
      t.bytes[c][v] = static_cast<std::uint8_t>(table.words()[c * 256 + v]);
      t.words[c][v] = static_cast<std::uint16_t>(table.words()[c * 256 + v]);
    }
  }
  for (std::int64_t phase = 0; phase < table.channels; ++phase) {
    for (int lane = 0; lane < 64; ++lane) {
      t.lanes[phase][(phase + lane) % table.channels] |= std::uint64_t{1} << lane;
    }
    for (int lane = 0; lane < 32; ++lane) {
      t.word_lanes[phase][(phase + lane) % table.channels] |= std::uint32_t{1} << lane;
    }
  }
  return t;
}

#if defined(TENSORBUF_ISA_X86_64)
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi"))) void lookup_bytes_vbmi(
    const std::uint8_t* x, std::uint8_t* y, std::int64_t n, std::int64_t first,
    const PermuteTable& t) {
  const std::int64_t channels = t.channels;
  std::int64_t phase = first % channels;
  std::int64_t j = 0;
  for (; j + 64 <= n; j += 64) {
    const __m512i v = _mm512_loadu_si512(x + j);
    const __mmask64 high = _mm512_movepi8_mask(v);
    __m512i out = _mm512_setzero_si512();
    for (std::int64_t c = 0; c < channels; ++c) {
      const std::uint8_t* row = t.bytes[c];
      const __m512i lo =
          _mm512_permutex2var_epi8(_mm512_load_si512(row), v, _mm512_load_si512(row + 64));
      const __m512i hi =
          _mm512_permutex2var_epi8(_mm512_load_si512(row + 128), v, _mm512_load_si512(row + 192));
      const __mmask64 lanes = channels == 1 ? ~__mmask64{0} : t.lanes[phase][c];
      out = _mm512_mask_mov_epi8(out, lanes & ~high, lo);
      out = _mm512_mask_mov_epi8(out, lanes & high, hi);
    }
    _mm512_storeu_si512(y + j, out);
    phase = (phase + 64) % channels;
  }
  for (std::int64_t c = (first + j) % channels; j < n; ++j) {
    y[j] = t.bytes[c][x[j]];
    if (++c == channels) c = 0;
  }
}

// 2-byte outputs the same way with word permutes (vpermi2w: 64 entries by the index's low 6
// bits), four per channel for 32 elements, bits 6 and 7 choosing among them.
__attribute__((target("avx512f,avx512bw,avx512vl"))) void lookup_words_avx512(
    const std::uint8_t* x, std::uint16_t* y, std::int64_t n, std::int64_t first,
    const PermuteTable& t) {
  const std::int64_t channels = t.channels;
  const std::int64_t step = 32 % channels;
  std::int64_t phase = first % channels;
  const __m512i bit6 = _mm512_set1_epi16(64);
  const __m512i bit7 = _mm512_set1_epi16(128);
  std::int64_t j = 0;
  for (; j + 32 <= n; j += 32) {
    const __m512i v = _mm512_maskz_cvtepu8_epi16(
        0xffffffffu, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + j)));
    const __mmask32 b6 = _mm512_test_epi16_mask(v, bit6);
    const __mmask32 b7 = _mm512_test_epi16_mask(v, bit7);
    __m512i out = _mm512_setzero_si512();
    for (std::int64_t c = 0; c < channels; ++c) {
      const std::uint16_t* row = t.words[c];
      // (no lambda: it would not inherit the function's target)
      const __m512i q0 =
          _mm512_permutex2var_epi16(_mm512_load_si512(row), v, _mm512_load_si512(row + 32));
      const __m512i q1 =
          _mm512_permutex2var_epi16(_mm512_load_si512(row + 64), v, _mm512_load_si512(row + 96));
      const __m512i q2 =
          _mm512_permutex2var_epi16(_mm512_load_si512(row + 128), v, _mm512_load_si512(row + 160));
      const __m512i q3 =
          _mm512_permutex2var_epi16(_mm512_load_si512(row + 192), v, _mm512_load_si512(row + 224));
      const __m512i lo = _mm512_mask_blend_epi16(b6, q0, q1);
      const __m512i hi = _mm512_mask_blend_epi16(b6, q2, q3);
      const __mmask32 lanes = channels == 1 ? ~__mmask32{0} : t.word_lanes[phase][c];
      out = _mm512_mask_mov_epi16(out, lanes, _mm512_mask_blend_epi16(b7, lo, hi));
    }
    _mm512_storeu_si512(y + j, out);
    phase += step;
    if (phase >= channels) phase -= channels;
  }
  for (std::int64_t c = (first + j) % channels; j < n; ++j) {
    y[j] = t.words[c][x[j]];
    if (++c == channels) c = 0;
  }
}
#endif

template <class Out>
void lookup(const std::uint8_t* x, Out* y, std::int64_t n, std::int64_t first,
            const ChainTable& table, [[maybe_unused]] bool avx512) {
#if defined(TENSORBUF_ISA_X86_64)
  if (avx512) return lookup_avx512(x, y, n, first, table);
#endif
  if constexpr (sizeof(Out) == 8) {
    lookup_portable(x, y, n, first, table.wides(), table.channels);
  } else {
    lookup_portable(x, y, n, first, table.words(), table.channels);
  }
}

void lookup_any(const std::uint8_t* x, void* y, std::size_t out_size, std::int64_t n,
                std::int64_t first, const ChainTable& table,
                [[maybe_unused]] const PermuteTable* permutes, bool avx512) {
#if defined(TENSORBUF_ISA_X86_64)
  if (permutes != nullptr && out_size == 1) {
    return lookup_bytes_vbmi(x, static_cast<std::uint8_t*>(y), n, first, *permutes);
  }
  if (permutes != nullptr) {
    return lookup_words_avx512(x, static_cast<std::uint16_t*>(y), n, first, *permutes);
  }
#endif
  switch (out_size) {
    case 1:
      return lookup(x, static_cast<std::uint8_t*>(y), n, first, table, avx512);
    case 2:
      return lookup(x, static_cast<std::uint16_t*>(y), n, first, table, avx512);
    case 4:
      return lookup(x, static_cast<std::uint32_t*>(y), n, first, table, avx512);
    default:
      return lookup(x, static_cast<std::uint64_t*>(y), n, first, table, avx512);
  }
}

// A direct stage's cost per element, roughly (the dev VM, one thread, data in the caches): the
// normalize loops and the vectorised conversions ~0.05-0.1 ns (AVX-512) or a few times that
// portably; the other conversions go element by element through convert_element, ~1-3 ns.
bool fast_convert(DataType from, DataType to) {
  const bool narrow_float32 =
      from == DataType::kFloat32 &&
      (to == DataType::kUInt8 || to == DataType::kFloat16 || to == DataType::kBFloat16);
  const bool widen_to_float = (to == DataType::kFloat32 || to == DataType::kFloat64) &&
                              from != DataType::kBool && from != DataType::kFloat16 &&
                              from != DataType::kBFloat16 && from != DataType::kFloat64;
  return narrow_float32 || widen_to_float;
}

double direct_ns_per_element(const core::ProcessPlan& plan, bool avx512) {
  const double fast = avx512 ? 0.05 : 0.3;
  double ns = 0;
  for (const core::ProcessStage& stage : plan.stages) {
    const bool quick =
        stage.kind == core::ProcessStageKind::kNormalize || fast_convert(stage.from, stage.to);
    ns += quick ? fast : 1.5;
  }
  return ns;
}

// Byte and 2-byte outputs of few channels go through the permutes (where the CPU has them).
bool permute_lookup(std::size_t out_size, std::int64_t channels) {
#if defined(TENSORBUF_ISA_X86_64)
  const CpuFeatures features = cpu_features();
  return channels <= kPermuteChannels &&
         ((out_size == 1 && features.avx512vbmi) || (out_size == 2 && features.avx512bw));
#else
  (void)out_size;
  (void)channels;
  return false;
#endif
}

double table_ns_per_element(std::size_t out_size, std::int64_t channels) {
  return permute_lookup(out_size, channels) ? kNsPerPermuteChannel * static_cast<double>(channels)
                                            : kNsPerTableElement;
}

// Whether the table serves this run: an 8-bit input and a chain (not a copy); under kAuto also
// a small table, an input worth building it for, and a direct path estimated slower than the
// lookup (a gather or a scalar load ~0.5 ns per element, so quick stages stay direct and the
// table pays off for the element-by-element conversions; permutes far less).
bool use_table(const core::ProcessPlan& plan, std::int64_t channels, bool avx512) {
  const ProcessTableUse use = g_table_use.load(std::memory_order_relaxed);
  if (use == ProcessTableUse::kNever || !is_byte_input(plan.in_type) || plan.stages.empty()) {
    return false;
  }
  if (use == ProcessTableUse::kAlways) return true;
  const std::int64_t entries = 256 * channels;
  const std::size_t bytes =
      static_cast<std::size_t>(entries) * (type_size(plan.out_type) <= 4 ? 4 : 8);
  if (bytes > kTableBytes || plan.elements < kTableRepeats * entries) return false;
  return direct_ns_per_element(plan, avx512) >
         table_ns_per_element(type_size(plan.out_type), channels);
}

// A chain's table for one input dtype, with its permute form where one fits (used where the
// CPU has the permutes): a Processor keeps it (core/process_memos.hpp).
struct TableMemo final : core::ProcessMemo {
  ChainTable table;
  std::unique_ptr<PermuteTable> permutes;
};

std::unique_ptr<TableMemo> make_table(const core::ProcessPlan& plan, std::int64_t channels,
                                      bool avx512) {
  auto memo = std::make_unique<TableMemo>();
  memo->table = build_table(plan, channels, avx512);
  const std::size_t out_size = type_size(plan.out_type);
  if (channels <= kPermuteChannels && out_size <= 2) {
    memo->permutes = std::make_unique<PermuteTable>(permute_table(memo->table));
  }
  return memo;
}

void run_table(const core::ProcessPlan& plan, const std::uint8_t* in, std::uint8_t* out,
               std::int64_t channels, bool avx512, bool stream) {
  std::unique_ptr<TableMemo> own;
  const TableMemo* memo = nullptr;
  if (plan.memos != nullptr) {
    memo = &plan.memos->get<TableMemo>(plan.in_type, core::ProcessMemoKind::kTable,
                                       [&] { return make_table(plan, channels, avx512); });
  } else {
    own = make_table(plan, channels, avx512);
    memo = own.get();
  }
  const ChainTable& table = memo->table;
  const std::int64_t n = plan.elements;
  const std::size_t out_size = type_size(plan.out_type);
  const PermuteTable* permutes =
      permute_lookup(out_size, channels) ? memo->permutes.get() : nullptr;
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  core::parallel_for_chunks(
      blocks,
      core::min_chunk_for(static_cast<double>(kBlock) * table_ns_per_element(out_size, channels)),
      [&](int, std::int64_t begin, std::int64_t end) {
        alignas(64) std::uint8_t scratch[kBlock * 8];
        for (std::int64_t b = begin; b < end; ++b) {
          const std::int64_t first = b * kBlock;
          const std::int64_t len = std::min(kBlock, n - first);
          std::uint8_t* target = out + static_cast<std::size_t>(first) * out_size;
          lookup_any(in + first, stream ? scratch : target, out_size, len, first, table, permutes,
                     avx512);
          if (stream) copy_streaming(target, scratch, static_cast<std::size_t>(len) * out_size);
        }
        if (stream) streaming_fence();
      });
}

// The division-free forms of a plan's stages, checked once for a Processor (AVX-512 only).
struct ReciprocalsMemo final : core::ProcessMemo {
  std::vector<NormalizeReciprocals> stages;
};

std::unique_ptr<ReciprocalsMemo> check_stages(const core::ProcessPlan& plan) {
  auto memo = std::make_unique<ReciprocalsMemo>();
  for (const core::ProcessStage& stage : plan.stages) {
    memo->stages.push_back(check_normalize_reciprocals(stage, true));
  }
  return memo;
}

bool has_byte_normalize(const core::ProcessPlan& plan) {
  return std::any_of(plan.stages.begin(), plan.stages.end(), [](const core::ProcessStage& s) {
    return s.kind == core::ProcessStageKind::kNormalize && s.from == DataType::kUInt8;
  });
}

}  // namespace

void set_process_table_use(ProcessTableUse use) {
  g_table_use.store(use, std::memory_order_relaxed);
}

std::int64_t process_stream_output_bytes() {
  return std::max(kStreamOutputBytes, last_level_cache_bytes());
}

void process(const core::ProcessPlan& plan, const core::ProcessBuffers& buffers) {
  const std::int64_t n = plan.elements;
  if (n <= 0) return;
  const std::size_t out_size = type_size(plan.out_type);
  const auto* in = static_cast<const std::uint8_t*>(buffers.in);
  auto* out = static_cast<std::uint8_t*>(buffers.out);
  const bool avx512 = cpu_features().avx512bw;
  const bool stream = static_cast<std::int64_t>(out_size) * n >= process_stream_output_bytes();
  const std::int64_t channels = chain_channels(plan);
  if (use_table(plan, channels, avx512)) return run_table(plan, in, out, channels, avx512, stream);
  // Each stage's division-free form: from the Processor's memo, else checked here.
  std::vector<NormalizeForm> forms(plan.stages.size());
  if (avx512 && has_byte_normalize(plan)) {
    std::unique_ptr<ReciprocalsMemo> own;
    const ReciprocalsMemo* memo = nullptr;
    if (plan.memos != nullptr) {
      memo = &plan.memos->get<ReciprocalsMemo>(plan.in_type, core::ProcessMemoKind::kReciprocals,
                                               [&] { return check_stages(plan); });
    } else if (normalize_check_pays(n, channels)) {
      own = check_stages(plan);
      memo = own.get();
    }
    for (std::size_t s = 0; memo != nullptr && s < forms.size(); ++s) {
      forms[s] = normalize_form_to_use(memo->stages[s]);
    }
  }
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  const auto stages = static_cast<std::int64_t>(plan.stages.size());
  const double ns_per_block =
      static_cast<double>(kBlock) *
      (kNsPerElement +
       kNsPerStageElement * static_cast<double>(std::max<std::int64_t>(0, stages - 1)));
  core::parallel_for_chunks(
      blocks, core::min_chunk_for(ns_per_block), [&](int, std::int64_t begin, std::int64_t end) {
        run_blocks(plan, in, out, n, begin, end, avx512, stream, forms.data());
      });
}

}  // namespace tensorbuf::cpu
