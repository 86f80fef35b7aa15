// The CPU backends' multithreaded paths: every op on inputs large enough to be cut into several
// chunks, so that chunk borders (substr's surplus copy bytes, the mask's count blocks and row
// runs, scatter's row chunks and blocks) and kError's "first bad element across chunks" are
// exercised, checked against serial references written here. ctest runs this file with the
// machine's thread count and again with TENSORBUF_NUM_THREADS=5 (more chunks than cores, uneven
// borders), the latter under ThreadSanitizer too (label `concurrency`).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "substr/both_policies.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

namespace mask_update = testing::mask_update;
using testing::index_buffer;
using testing::reference_substr;

// ---- substr -----------------------------------------------------------------------------------

// Strings of `min_len`..`max_len` bytes: ASCII letters, 2- and 3-byte characters, and now and
// then a stray continuation byte (invalid UTF-8, which the rules count as part of a character).
std::vector<std::string> random_strings(std::size_t count, int min_len, int max_len,
                                        std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> length(min_len, max_len);
  std::uniform_int_distribution<int> kind(0, 15);
  std::vector<std::string> out(count);
  for (std::string& s : out) {
    const int n = length(rng);
    while (static_cast<int>(s.size()) < n) {
      const int k = kind(rng);
      if (k == 0) {
        s += "\xc3\xa9";  // é
      } else if (k == 1) {
        s += "\xe2\x82\xac";  // €
      } else if (k == 2 && rng() % 8 == 0) {
        s += static_cast<char>(0x80 + rng() % 64);  // stray continuation byte
      } else {
        s += static_cast<char>('a' + rng() % 26);
      }
    }
  }
  return out;
}

// `count` values drawn uniformly from [lo, hi].
std::vector<std::int64_t> random_values(std::size_t count, std::int64_t lo, std::int64_t hi,
                                        std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> pick(lo, hi);
  std::vector<std::int64_t> out(count);
  for (auto& v : out) v = pick(rng);
  return out;
}

// substr of `in` with pos/len of `pos_shape` (values per element, or one value for a scalar
// shape) against the reference, both units, both policies. Output element i uses string
// i % strings.size() (the broadcast forms here repeat the input along a leading dim) and
// pos/len element i (or the scalar).
void expect_substr(const std::vector<std::string>& strings, const StringTensor& in,
                   const std::vector<std::int64_t>& pos, const std::vector<std::int64_t>& len,
                   const Shape& pos_shape, DataType type, const Shape& out_shape,
                   std::size_t out_count) {
  const TensorBuffer pos_buffer = index_buffer(pos, pos_shape, type);
  const TensorBuffer len_buffer = index_buffer(len, pos_shape, type);
  for (bool utf8 : {false, true}) {
    SCOPED_TRACE(utf8 ? "utf8" : "byte");
    std::vector<std::string> values(out_count);
    std::int64_t first_bad = -1;
    for (std::size_t i = 0; i < out_count; ++i) {
      const std::size_t k = pos.size() == 1 ? 0 : i;
      const std::optional<std::string> r =
          reference_substr(strings[i % strings.size()], pos[k], len[k], utf8);
      if (r) {
        values[i] = *r;
      } else if (first_bad < 0) {
        first_bad = static_cast<std::int64_t>(i);
      }
    }
    ASSERT_NO_FATAL_FAILURE(testing::expect_substr_both_policies(
        in, pos_buffer, len_buffer, Device::cpu(), utf8, out_shape, values, first_bad));
  }
}

// 80K strings: five chunks of the CPU backend's 16K-element minimum.
constexpr std::int64_t kManyStrings = 80000;

TEST(ParallelOps, SubstrShortStringsPerElementAcrossChunks) {
  const std::vector<std::string> strings = random_strings(kManyStrings, 0, 40, 1);
  const StringTensor in = StringTensor::from_strings(strings, {kManyStrings});
  expect_substr(strings, in, random_values(kManyStrings, -45, 45, 2),
                random_values(kManyStrings, -45, 45, 3), {kManyStrings}, DataType::kInt64,
                {kManyStrings}, kManyStrings);
}

TEST(ParallelOps, SubstrFirstBadElementInALaterChunk) {
  const std::vector<std::string> strings = random_strings(kManyStrings, 1, 20, 3);
  const StringTensor in = StringTensor::from_strings(strings, {kManyStrings});
  std::vector<std::int64_t> pos(kManyStrings, 0);
  const std::vector<std::int64_t> len(kManyStrings, 3);
  pos[70001] = 1000;                 // out of range in the last chunks...
  pos[50003] = -1000;                // ...and, first in row order, in a middle one
  for (bool utf8 : {false, true}) {  // the only bad elements, so the first is 50003
    for (std::int64_t i = 0; i < kManyStrings; ++i) {
      const auto at = static_cast<std::size_t>(i);
      ASSERT_EQ(reference_substr(strings[at], pos[at], len[at], utf8).has_value(),
                i != 50003 && i != 70001);
    }
  }
  expect_substr(strings, in, pos, len, {kManyStrings}, DataType::kInt32, {kManyStrings},
                kManyStrings);
}

TEST(ParallelOps, SubstrLongStringsScalarAndPerElement) {
  // 36K strings of ~550 bytes, 18 MiB in all: the prefetching scans and, with scalar pos/len,
  // the streamed copies (outputs of 16 MiB+, 512+ bytes per element), in two or three chunks.
  const std::int64_t count = 36000;
  const std::vector<std::string> strings = random_strings(count, 460, 640, 4);
  const StringTensor in = StringTensor::from_strings(strings, {count});
  for (std::int64_t p : {std::int64_t{3}, std::int64_t{-500}}) {
    SCOPED_TRACE("scalar pos " + std::to_string(p));
    expect_substr(strings, in, {p}, {-1}, {}, DataType::kInt64, {count}, count);
  }
  expect_substr(strings, in, random_values(count, -600, 600, 5), random_values(count, -600, 600, 6),
                {count}, DataType::kInt64, {count}, count);
}

TEST(ParallelOps, SubstrBroadcastInputAcrossChunks) {
  // Input [40000] against pos/len [2, 40000]: the non-contiguous element walk, chunk borders
  // falling inside a row.
  const std::int64_t n = kManyStrings / 2;
  const std::vector<std::string> strings = random_strings(n, 0, 30, 6);
  const StringTensor in = StringTensor::from_strings(strings, {n});
  expect_substr(strings, in, random_values(2 * n, -32, 32, 7), random_values(2 * n, -32, 32, 8),
                {2, n}, DataType::kInt64, {2, n}, 2 * n);
}

// ---- boolean_mask_update ----------------------------------------------------------------------

// A mask of `rows` entries at `density`, with long all-true and all-false stretches mixed in
// (the CPU backend copies runs whole).
std::vector<std::uint8_t> random_mask(std::mt19937_64& rng, std::int64_t rows, double density) {
  std::bernoulli_distribution bit(density);
  std::vector<std::uint8_t> mask(static_cast<std::size_t>(rows));
  for (std::int64_t r = 0; r < rows;) {
    const std::int64_t run = static_cast<std::int64_t>(rng() % 300);
    const int mode = static_cast<int>(rng() % 4);  // 0: all false, 1: all true, else random
    for (std::int64_t k = 0; k < run && r < rows; ++k, ++r) {
      mask[static_cast<std::size_t>(r)] = mode == 0 ? 0 : mode == 1 ? 1 : bit(rng);
    }
  }
  return mask;
}

enum class UpdatesForm { kRows, kOneRow, kScalar };

TEST(ParallelOps, BooleanMaskUpdateRowsAcrossChunks) {
  // [rows, inner] tensors of uint8 / float32 (moved as bytes). The mask's count pass runs in
  // parallel from 32 blocks of 16K entries (so 512K+ rows); the write pass from 64 KiB of
  // output per chunk.
  struct Layout {
    std::int64_t rows;
    std::int64_t inner;
    DataType type;
    std::size_t esize;
  };
  std::mt19937_64 rng(10);
  for (const Layout& layout : {Layout{(1 << 19) + 12345, 1, DataType::kFloat32, 4},
                               Layout{(1 << 19) + 12345, 3, DataType::kUInt8, 1},
                               Layout{(1 << 17) + 777, 8, DataType::kFloat32, 4}}) {
    const std::int64_t rows = layout.rows;
    const std::size_t row_bytes = static_cast<std::size_t>(layout.inner) * layout.esize;
    const Shape shape = layout.inner == 1 ? Shape{rows} : Shape{rows, layout.inner};
    const std::vector<std::uint8_t> tensor_bytes =
        mask_update::random_bytes(rng, static_cast<std::size_t>(rows) * row_bytes);
    for (double density : {0.01, 0.5, 0.99}) {
      const std::vector<std::uint8_t> mask = random_mask(rng, rows, density);
      std::int64_t n = 0;
      for (std::uint8_t m : mask) n += m;
      for (UpdatesForm form : {UpdatesForm::kRows, UpdatesForm::kOneRow, UpdatesForm::kScalar}) {
        SCOPED_TRACE("inner " + std::to_string(layout.inner) + ", density " +
                     std::to_string(density) + ", updates form " +
                     std::to_string(static_cast<int>(form)));
        // Updates and the row of them that the j-th true row receives.
        Shape ushape;
        std::size_t update_rows = 1;
        std::size_t row_stride = 0;  // in bytes
        std::size_t elem_stride = layout.esize;
        if (form == UpdatesForm::kRows) {
          ushape = layout.inner == 1 ? Shape{n} : Shape{n, layout.inner};
          update_rows = static_cast<std::size_t>(n);
          row_stride = row_bytes;
        } else if (form == UpdatesForm::kOneRow) {
          ushape = layout.inner == 1 ? Shape{1} : Shape{layout.inner};
        } else {
          ushape = Shape{};
          elem_stride = 0;
        }
        const std::vector<std::uint8_t> ubytes = mask_update::random_bytes(
            rng, form == UpdatesForm::kScalar ? layout.esize : update_rows * row_bytes);
        std::vector<std::uint8_t> want = tensor_bytes;
        std::size_t j = 0;
        for (std::int64_t r = 0; r < rows; ++r) {
          if (mask[static_cast<std::size_t>(r)] == 0) continue;
          for (std::int64_t t = 0; t < layout.inner; ++t) {
            std::memcpy(want.data() + static_cast<std::size_t>(r) * row_bytes +
                            static_cast<std::size_t>(t) * layout.esize,
                        ubytes.data() + j * row_stride + static_cast<std::size_t>(t) * elem_stride,
                        layout.esize);
          }
          ++j;
        }
        const TensorBuffer tensor = mask_update::from_bytes(layout.type, shape, tensor_bytes);
        const TensorBuffer mask_buffer = mask_update::from_bytes(DataType::kBool, {rows}, mask);
        const TensorBuffer updates = mask_update::from_bytes(layout.type, ushape, ubytes);
        ASSERT_EQ(mask_update::bytes(boolean_mask_update(tensor, mask_buffer, updates)), want);
        ASSERT_EQ(mask_update::bytes(tensor), tensor_bytes) << "input modified";
        TensorBuffer target = tensor.clone();
        boolean_mask_update_in_place(target, mask_buffer, updates);
        ASSERT_EQ(mask_update::bytes(target), want);
      }
    }
  }
}

// ---- tensor_scatter_nd_* ----------------------------------------------------------------------

TEST(ParallelOps, ScatterManyRowsWithDuplicatesAcrossChunks) {
  // 400K index rows (row chunks of 64K) into [50000, 4], every slice hit ~8 times: duplicates
  // apply in row order whatever the thread count. Small integers: float sums are exact.
  const std::int64_t slices = 50000, inner = 4, rows = 400000;
  std::mt19937_64 rng(20);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(rows));
  for (auto& i : idx) i = static_cast<std::int64_t>(rng() % slices);
  std::vector<float> base(static_cast<std::size_t>(slices * inner));
  std::vector<float> upd(static_cast<std::size_t>(rows * inner));
  for (auto& v : base) v = static_cast<float>(static_cast<int>(rng() % 201) - 100);
  for (auto& v : upd) v = static_cast<float>(static_cast<int>(rng() % 201) - 100);
  TensorBuffer tensor = TensorBuffer::create_fixed_size({slices, inner}, DataType::kFloat32);
  tensor.load_array(base);
  TensorBuffer indices = index_buffer(idx, {rows, 1}, DataType::kInt64);
  TensorBuffer updates = TensorBuffer::create_fixed_size({rows, inner}, DataType::kFloat32);
  updates.load_array(upd);

  using Fn = TensorBuffer (*)(const TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                              const ScatterOptions&);
  using Combine = float (*)(float, float);
  struct Op {
    const char* name;
    Fn fn;
    Combine combine;
  };
  const Op ops[] = {
      {"sub", tensor_scatter_nd_sub, [](float a, float b) { return a - b; }},
      {"add", tensor_scatter_nd_add, [](float a, float b) { return a + b; }},
      {"update", tensor_scatter_nd_update, [](float, float b) { return b; }},
      {"min", tensor_scatter_nd_min, [](float a, float b) { return b < a ? b : a; }},
      {"max", tensor_scatter_nd_max, [](float a, float b) { return b > a ? b : a; }},
  };
  for (const Op& op : ops) {
    SCOPED_TRACE(op.name);
    std::vector<float> want = base;
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t t = 0; t < inner; ++t) {
        float& w = want[static_cast<std::size_t>(idx[static_cast<std::size_t>(r)] * inner + t)];
        w = op.combine(w, upd[static_cast<std::size_t>(r * inner + t)]);
      }
    }
    ASSERT_EQ(op.fn(tensor, indices, updates, {.device = Device::cpu()}).get_float_array(), want);
  }

  // kError: the first bad row in row order, though a later chunk holds another.
  std::vector<std::int64_t> bad = idx;
  bad[350001] = slices;
  bad[300007] = -1;
  try {
    tensor_scatter_nd_sub(tensor, index_buffer(bad, {rows, 1}, DataType::kInt64), updates,
                          {.device = Device::cpu(), .out_of_bounds = OutOfBoundsPolicy::kError});
    FAIL() << "expected an out-of-bounds error";
  } catch (const InvalidArgumentError& e) {
    EXPECT_EQ(std::string(e.what()), "indices[300007] = [-1] does not index into shape [50000,4]");
  }
}

TEST(ParallelOps, ScatterBucketedBeyondTheCache) {
  // A 20 MiB table (beyond the 16 MiB the owners keep) and 256K element updates: the public op
  // takes the bucketed path (rows bucketed by output block). Duplicates apply in row order; in
  // place under kError a late bad row leaves the table unchanged; kDrop skips it and applies the
  // rest.
  const std::int64_t slices = std::int64_t{5} << 20, rows = std::int64_t{1} << 18;
  std::mt19937_64 rng(21);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(rows));
  const std::int64_t targets = rows / 2, spread = slices / targets;  // ~1 row in 2 a repeat
  for (auto& i : idx) i = static_cast<std::int64_t>(rng() % targets) * spread;
  std::vector<float> base(static_cast<std::size_t>(slices));
  std::vector<float> upd(static_cast<std::size_t>(rows));
  for (auto& v : base) v = static_cast<float>(static_cast<int>(rng() % 201) - 100);
  for (auto& v : upd) v = static_cast<float>(static_cast<int>(rng() % 201) - 100);
  TensorBuffer tensor = TensorBuffer::create_fixed_size({slices}, DataType::kFloat32);
  tensor.load_array(base);
  TensorBuffer updates = TensorBuffer::create_fixed_size({rows}, DataType::kFloat32);
  updates.load_array(upd);

  std::vector<float> want = base;
  for (std::int64_t r = 0; r < rows; ++r) {
    float& w = want[static_cast<std::size_t>(idx[static_cast<std::size_t>(r)])];
    w = w - upd[static_cast<std::size_t>(r)];
  }
  const TensorBuffer indices = index_buffer(idx, {rows, 1}, DataType::kInt64);
  ASSERT_EQ(
      tensor_scatter_nd_sub(tensor, indices, updates, {.device = Device::cpu()}).get_float_array(),
      want);
  TensorBuffer target = tensor.clone();
  tensor_scatter_nd_sub_in_place(target, indices, updates, {.device = Device::cpu()});
  ASSERT_EQ(target.get_float_array(), want);

  std::vector<std::int64_t> bad = idx;
  bad[static_cast<std::size_t>(rows - 3)] = slices;
  bad[static_cast<std::size_t>(rows / 2 + 1)] = -4;
  const TensorBuffer bad_indices = index_buffer(bad, {rows, 1}, DataType::kInt64);
  TensorBuffer untouched = tensor.clone();
  try {
    tensor_scatter_nd_sub_in_place(untouched, bad_indices, updates, {.device = Device::cpu()});
    FAIL() << "expected an out-of-bounds error";
  } catch (const InvalidArgumentError& e) {
    EXPECT_EQ(std::string(e.what()), "indices[" + std::to_string(rows / 2 + 1) +
                                         "] = [-4] does not index into shape [" +
                                         std::to_string(slices) + "]");
  }
  ASSERT_EQ(untouched.get_float_array(), base);

  std::vector<float> dropped = base;
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t i = bad[static_cast<std::size_t>(r)];
    if (i < 0 || i >= slices) continue;
    float& w = dropped[static_cast<std::size_t>(i)];
    w = w - upd[static_cast<std::size_t>(r)];
  }
  ASSERT_EQ(
      tensor_scatter_nd_sub(tensor, bad_indices, updates,
                            {.device = Device::cpu(), .out_of_bounds = OutOfBoundsPolicy::kDrop})
          .get_float_array(),
      dropped);
}

}  // namespace
}  // namespace tensorbuf
