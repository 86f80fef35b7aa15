// substr cases on the CPU and CUDA:
//  short: 4M strings of 7..21 characters (about 16 bytes on average),
//  long:  64K strings of 800..1020 characters (about 1 KiB on average);
// characters are ASCII letters, one in eight the 2-byte "é" (so byte and UTF-8 units differ).
//  scalar:      pos and len scalars (short: 2, 8; long: 16, -1 "to the end"),
//  elementwise: int32 pos and len per string (short: pos -6..6, len -1..12;
//               long: pos -700..700, len -1..799).
// Units byte and utf8. Strings/s are counted as "strings_per_second" (and per thread). Bytes:
// what the op must move: input offsets, pos/len, the input bytes it must read, the substrings
// written, the output offsets written; the limit is the same-run memcpy (bench_support.hpp).
// The input bytes it must read: the substring itself in byte units; in UTF-8 units, where
// bytes do not say where characters are, every byte before the substring's end when pos >= 0
// (characters counted from the front) and every byte from its start to the string's end when
// pos < 0 (counted from the back) -- utf8_bytes_read below, written apart from the op.
// Peers: bench/peers_cases/substr.py (same names, sizes and data: Python slicing, NumPy).
#include <numeric>
#include <string_view>
#include <vector>

#include "bench_support.hpp"
#include "cuda/cuda_tuning.hpp"

namespace tensorbuf::bench {
namespace {

struct StringCase {
  std::int64_t strings;
  std::int64_t min_chars;
  std::int64_t max_chars;  // inclusive
};

constexpr StringCase kShort{4 * kMiB, 7, 21};
constexpr StringCase kLong{64 * 1024, 800, 1020};
constexpr std::uint64_t kLengthSeed = 31;
constexpr std::uint64_t kCharSeed = 32;
constexpr std::uint64_t kPosSeed = 33;
constexpr std::uint64_t kLenSeed = 34;

// Character c of the whole tensor: bits % 8 == 0 -> "é" (0xC3 0xA9), else 'a' + bits % 26.
StringTensor make_strings(const StringCase& c) {
  const std::vector<std::int64_t> chars =
      random_ints(c.strings, c.min_chars, c.max_chars + 1, kLengthSeed);
  // Character offsets, then byte offsets.
  std::vector<std::int64_t> first_char(static_cast<std::size_t>(c.strings) + 1, 0);
  std::inclusive_scan(chars.begin(), chars.end(), first_char.begin() + 1);
  auto char_bytes = [](std::int64_t global) {
    return random_bits(kCharSeed, global) % 8 == 0 ? 2 : 1;
  };
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(c.strings));
  core::parallel_for(c.strings, 1 << 14, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) {
      std::int64_t bytes = 0;
      for (std::int64_t g = first_char[i]; g < first_char[i + 1]; ++g) bytes += char_bytes(g);
      sizes[static_cast<std::size_t>(i)] = bytes;
    }
  });
  TensorBuffer offsets = TensorBuffer::create_uninitialized(Shape{c.strings + 1}, DataType::kInt64);
  auto* off = offsets.overwrite_host<std::int64_t>();
  off[0] = 0;
  std::inclusive_scan(sizes.begin(), sizes.end(), off + 1);
  const std::int64_t total = off[c.strings];
  TensorBuffer bytes = TensorBuffer::create_uninitialized(Shape{total}, DataType::kUInt8);
  auto* out = bytes.overwrite_host<std::uint8_t>();
  core::parallel_for(c.strings, 1 << 14, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) {
      std::uint8_t* at = out + off[i];
      for (std::int64_t g = first_char[i]; g < first_char[i + 1]; ++g) {
        const std::uint64_t bits = random_bits(kCharSeed, g);
        if (bits % 8 == 0) {
          *at++ = 0xC3;
          *at++ = 0xA9;
        } else {
          *at++ = static_cast<std::uint8_t>('a' + bits % 26);
        }
      }
    }
  });
  return StringTensor::from_buffers(std::move(offsets), std::move(bytes), Shape{c.strings});
}

struct PosLen {
  TensorBuffer pos;
  TensorBuffer len;
};

// The input bytes a UTF-8 substr must read (see the top of the file), for in-range elements.
double utf8_bytes_read(const StringTensor& in, const PosLen& pl, bool elementwise) {
  const auto* pos = pl.pos.host<std::int32_t>();
  const auto* len = pl.len.host<std::int32_t>();
  double total = 0;
  std::vector<std::int64_t> starts;  // byte of each character, then the size
  for (std::int64_t i = 0; i < in.size(); ++i) {
    const std::string_view s = in.at(i);
    starts.clear();
    for (std::size_t b = 0; b < s.size(); ++b) {
      if (b == 0 || (static_cast<unsigned char>(s[b]) & 0xC0) != 0x80) {
        starts.push_back(static_cast<std::int64_t>(b));
      }
    }
    const auto nchars = static_cast<std::int64_t>(starts.size());
    starts.push_back(static_cast<std::int64_t>(s.size()));
    const std::int64_t p = pos[elementwise ? i : 0];
    const std::int64_t l = len[elementwise ? i : 0];
    const std::int64_t c = p < 0 ? nchars + p : p;
    if (c < 0 || c > nchars) continue;
    const std::int64_t end_char = (l < 0 || l >= nchars - c) ? nchars : c + l;
    total += static_cast<double>(p >= 0 ? starts[static_cast<std::size_t>(end_char)]
                                        : starts.back() - starts[static_cast<std::size_t>(c)]);
  }
  return total;
}

PosLen make_pos_len(const StringCase& c, bool elementwise) {
  const bool is_long = c.min_chars > 100;
  if (!elementwise) {
    return PosLen{make_index_buffer({is_long ? 16 : 2}, Shape{}, DataType::kInt32),
                  make_index_buffer({is_long ? -1 : 8}, Shape{}, DataType::kInt32)};
  }
  const std::int64_t reach = is_long ? 700 : 6;
  const std::int64_t max_len = is_long ? 800 : 13;
  return PosLen{make_index_buffer(random_ints(c.strings, -reach, reach + 1, kPosSeed),
                                  Shape{c.strings}, DataType::kInt32),
                make_index_buffer(random_ints(c.strings, -1, max_len, kLenSeed), Shape{c.strings},
                                  DataType::kInt32)};
}

void substr_case(benchmark::State& state, const StringCase& c, bool elementwise, SubstrUnit unit,
                 bool cuda) {
  if (cuda && skip_without_cuda(state)) return;
  const StringTensor in = make_strings(c);
  const PosLen pl = make_pos_len(c, elementwise);
  const Device device = cuda ? Device::cuda(0) : Device::cpu();
  const SubstrOptions options{
      .device = device, .unit = unit, .out_of_bounds = OutOfBoundsPolicy::kError};
  if (cuda) {
    in.sync_to(device);
    pl.pos.sync_to(device);
    pl.len.sync_to(device);
  }
  std::int64_t out_chars = 0;
  {  // warm-up: thread pool, caching allocators; the output size for the byte count
    StringTensor warm = substr(in, pl.pos, pl.len, options);
    out_chars = warm.num_chars();
    if (cuda) cuda_synchronize();
  }
  for (auto _ : state) {
    StringTensor out = substr(in, pl.pos, pl.len, options);
    benchmark::DoNotOptimize(&out);
    if (cuda) cuda_synchronize();
    benchmark::ClobberMemory();
  }
  const double n = static_cast<double>(c.strings);
  const double read = unit == SubstrUnit::kUtf8Char ? utf8_bytes_read(in, pl, elementwise)
                                                    : static_cast<double>(out_chars);
  const double bytes =
      8.0 * (n + 1) * 2 + (elementwise ? 8.0 * n : 8.0) + read + static_cast<double>(out_chars);
  state.counters["strings_per_second"] =
      benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["strings_per_second_per_thread"] = benchmark::Counter(
      n / (cuda ? 1 : core::cpu_thread_count()), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["out_bytes"] = benchmark::Counter(static_cast<double>(out_chars));
  report(state, bytes, cuda ? cuda_d2d_limit_gbps(bytes) : cpu_memcpy_limit_gbps(bytes));
}

#define TENSORBUF_SUBSTR_CASES(size_name, size_case)                        \
  void BM_substr_##size_name##_byte_scalar_cpu(benchmark::State& s) {       \
    substr_case(s, size_case, false, SubstrUnit::kByte, false);             \
  }                                                                         \
  void BM_substr_##size_name##_byte_scalar_cuda(benchmark::State& s) {      \
    substr_case(s, size_case, false, SubstrUnit::kByte, true);              \
  }                                                                         \
  void BM_substr_##size_name##_byte_elementwise_cpu(benchmark::State& s) {  \
    substr_case(s, size_case, true, SubstrUnit::kByte, false);              \
  }                                                                         \
  void BM_substr_##size_name##_byte_elementwise_cuda(benchmark::State& s) { \
    substr_case(s, size_case, true, SubstrUnit::kByte, true);               \
  }                                                                         \
  void BM_substr_##size_name##_utf8_scalar_cpu(benchmark::State& s) {       \
    substr_case(s, size_case, false, SubstrUnit::kUtf8Char, false);         \
  }                                                                         \
  void BM_substr_##size_name##_utf8_scalar_cuda(benchmark::State& s) {      \
    substr_case(s, size_case, false, SubstrUnit::kUtf8Char, true);          \
  }                                                                         \
  void BM_substr_##size_name##_utf8_elementwise_cpu(benchmark::State& s) {  \
    substr_case(s, size_case, true, SubstrUnit::kUtf8Char, false);          \
  }                                                                         \
  void BM_substr_##size_name##_utf8_elementwise_cuda(benchmark::State& s) { \
    substr_case(s, size_case, true, SubstrUnit::kUtf8Char, true);           \
  }                                                                         \
  TENSORBUF_BENCHMARK(BM_substr_##size_name##_byte_scalar_cpu,              \
                      "substr_" #size_name "_byte_scalar", "cpu");          \
  TENSORBUF_BENCHMARK(BM_substr_##size_name##_byte_scalar_cuda,             \
                      "substr_" #size_name "_byte_scalar", "cuda");         \
  TENSORBUF_BENCHMARK(BM_substr_##size_name##_byte_elementwise_cpu,         \
                      "substr_" #size_name "_byte_elementwise", "cpu");     \
  TENSORBUF_BENCHMARK(BM_substr_##size_name##_byte_elementwise_cuda,        \
                      "substr_" #size_name "_byte_elementwise", "cuda");    \
  TENSORBUF_BENCHMARK(BM_substr_##size_name##_utf8_scalar_cpu,              \
                      "substr_" #size_name "_utf8_scalar", "cpu");          \
  TENSORBUF_BENCHMARK(BM_substr_##size_name##_utf8_scalar_cuda,             \
                      "substr_" #size_name "_utf8_scalar", "cuda");         \
  TENSORBUF_BENCHMARK(BM_substr_##size_name##_utf8_elementwise_cpu,         \
                      "substr_" #size_name "_utf8_elementwise", "cpu");     \
  TENSORBUF_BENCHMARK(BM_substr_##size_name##_utf8_elementwise_cuda,        \
                      "substr_" #size_name "_utf8_elementwise", "cuda")

TENSORBUF_SUBSTR_CASES(short, kShort);
TENSORBUF_SUBSTR_CASES(long, kLong);

// The CUDA variants (cuda/cuda_tuning.hpp), one case each beside the default's case of the same
// work (bench/RESULTS.md, "Pending H200 run"); the switch is restored after the case.
void variant_case(benchmark::State& state, const StringCase& c, bool elementwise, SubstrUnit unit,
                  const cuda::CudaTuning& tuning) {
  const cuda::CudaTuning saved = cuda::cuda_tuning();
  cuda::set_cuda_tuning(tuning);
  substr_case(state, c, elementwise, unit, true);
  cuda::set_cuda_tuning(saved);
}

cuda::CudaTuning lane_scan() {
  cuda::CudaTuning t;
  t.substr_lane_scan = true;
  return t;
}

cuda::CudaTuning lane_vectors() {
  cuda::CudaTuning t;
  t.substr_lane_copy = kernels::SubstrLaneCopy::kVectors;
  return t;
}

cuda::CudaTuning byte_one_scan(bool vectors) {
  cuda::CudaTuning t = vectors ? lane_vectors() : cuda::CudaTuning{};
  t.substr_byte_offsets = kernels::SubstrByteOffsets::kScanOfSizes;
  return t;
}

#define TENSORBUF_SUBSTR_VARIANT(name, size_case, elementwise, unit, tuning)    \
  void BM_##name(benchmark::State& s) {                                        \
    variant_case(s, size_case, elementwise, SubstrUnit::unit, tuning);         \
  }                                                                            \
  TENSORBUF_BENCHMARK(BM_##name, #name, "cuda");

// UTF-8 lane form with the lanes' counts scanned once (4 reads per lane instead of 32).
TENSORBUF_SUBSTR_VARIANT(substr_long_utf8_elementwise_lane_scan, kLong, true, kUtf8Char,
                         lane_scan())
TENSORBUF_SUBSTR_VARIANT(substr_long_utf8_scalar_lane_scan, kLong, false, kUtf8Char, lane_scan())
// The lane copy from two aligned 16-byte words per chunk (SubstrLaneCopy::kVectors).
TENSORBUF_SUBSTR_VARIANT(substr_long_byte_scalar_vectors, kLong, false, kByte, lane_vectors())
TENSORBUF_SUBSTR_VARIANT(substr_long_byte_elementwise_vectors, kLong, true, kByte, lane_vectors())
TENSORBUF_SUBSTR_VARIANT(substr_long_utf8_scalar_vectors, kLong, false, kUtf8Char, lane_vectors())
// Byte units' offsets in one scan (SubstrByteOffsets::kScanOfSizes): short strings too, which
// it must not slow down; then with the vector copy as well.
TENSORBUF_SUBSTR_VARIANT(substr_long_byte_scalar_one_scan, kLong, false, kByte,
                         byte_one_scan(false))
TENSORBUF_SUBSTR_VARIANT(substr_long_byte_elementwise_one_scan, kLong, true, kByte,
                         byte_one_scan(false))
TENSORBUF_SUBSTR_VARIANT(substr_short_byte_scalar_one_scan, kShort, false, kByte,
                         byte_one_scan(false))
TENSORBUF_SUBSTR_VARIANT(substr_short_byte_elementwise_one_scan, kShort, true, kByte,
                         byte_one_scan(false))
TENSORBUF_SUBSTR_VARIANT(substr_long_byte_scalar_one_scan_vectors, kLong, false, kByte,
                         byte_one_scan(true))
TENSORBUF_SUBSTR_VARIANT(substr_long_byte_elementwise_one_scan_vectors, kLong, true, kByte,
                         byte_one_scan(true))
#undef TENSORBUF_SUBSTR_VARIANT

}  // namespace
}  // namespace tensorbuf::bench
