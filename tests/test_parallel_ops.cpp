// The CPU backends' multithreaded paths: every op on inputs large enough to be cut into several
// chunks, so that chunk borders (substr's surplus copy bytes, the mask's count blocks and row
// runs, scatter's row chunks and blocks) and kError's "first bad element across chunks" are
// exercised, checked against serial references written here. ctest runs this file with the
// machine's thread count and again with TENSORBUF_NUM_THREADS=5 (more chunks than cores, uneven
// borders), the latter under ThreadSanitizer too (label `concurrency`).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "support/substr_reference.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

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

struct SubstrExpectation {
  std::vector<std::string> values;
  std::int64_t first_bad = -1;
};

// Output element i uses string inputs[i % inputs.size()] (the test's broadcast forms repeat the
// input along a leading dim) and pos/len element i.
SubstrExpectation expected_substr(const std::vector<std::string>& inputs,
                                  const std::vector<std::int64_t>& pos,
                                  const std::vector<std::int64_t>& len, bool utf8) {
  SubstrExpectation e;
  e.values.resize(pos.size());
  for (std::size_t i = 0; i < pos.size(); ++i) {
    const std::optional<std::string> r =
        reference_substr(inputs[i % inputs.size()], pos[i], len[i], utf8);
    if (r) {
      e.values[i] = *r;
    } else if (e.first_bad < 0) {
      e.first_bad = static_cast<std::int64_t>(i);
    }
  }
  return e;
}

void expect_substr(const StringTensor& in, const TensorBuffer& pos, const TensorBuffer& len,
                   const SubstrExpectation& want, bool utf8) {
  SubstrOptions options{.device = Device::cpu(),
                        .unit = utf8 ? SubstrUnit::kUtf8Char : SubstrUnit::kByte,
                        .out_of_bounds = OutOfBoundsPolicy::kDrop};
  ASSERT_EQ(substr(in, pos, len, options).to_strings(), want.values);
  options.out_of_bounds = OutOfBoundsPolicy::kError;
  if (want.first_bad < 0) {
    ASSERT_EQ(substr(in, pos, len, options).to_strings(), want.values);
    return;
  }
  try {
    substr(in, pos, len, options);
    FAIL() << "expected an out-of-range error at index " << want.first_bad;
  } catch (const InvalidArgumentError& e) {
    ASSERT_TRUE(testing::names_element(e.what(), want.first_bad)) << e.what();
  }
}

// 80K strings: five chunks of the CPU backend's 16K-element minimum.
constexpr std::size_t kManyStrings = 80000;

TEST(ParallelOps, SubstrShortStringsPerElementAcrossChunks) {
  const std::vector<std::string> strings = random_strings(kManyStrings, 0, 40, 1);
  const StringTensor in = StringTensor::from_strings(strings, {kManyStrings});
  std::mt19937_64 rng(2);
  std::uniform_int_distribution<std::int64_t> pick(-45, 45);
  std::vector<std::int64_t> pos(kManyStrings), len(kManyStrings);
  for (std::size_t i = 0; i < kManyStrings; ++i) {
    pos[i] = pick(rng);
    len[i] = pick(rng);
  }
  for (bool utf8 : {false, true}) {
    SCOPED_TRACE(utf8 ? "utf8" : "byte");
    expect_substr(in, index_buffer(pos, {kManyStrings}, DataType::kInt64),
                  index_buffer(len, {kManyStrings}, DataType::kInt64),
                  expected_substr(strings, pos, len, utf8), utf8);
  }
}

TEST(ParallelOps, SubstrFirstBadElementInALaterChunk) {
  const std::vector<std::string> strings = random_strings(kManyStrings, 1, 20, 3);
  const StringTensor in = StringTensor::from_strings(strings, {kManyStrings});
  std::vector<std::int64_t> pos(kManyStrings, 0), len(kManyStrings, 3);
  pos[70001] = 1000;   // out of range in the last chunks...
  pos[50003] = -1000;  // ...and, first in row order, in a middle one
  for (bool utf8 : {false, true}) {
    SCOPED_TRACE(utf8 ? "utf8" : "byte");
    const SubstrExpectation want = expected_substr(strings, pos, len, utf8);
    ASSERT_EQ(want.first_bad, 50003);
    expect_substr(in, index_buffer(pos, {kManyStrings}, DataType::kInt32),
                  index_buffer(len, {kManyStrings}, DataType::kInt32), want, utf8);
  }
}

TEST(ParallelOps, SubstrLongStringsScalarAndPerElement) {
  // 36K strings of ~550 bytes, 18 MiB in all: the prefetching scans and, with scalar pos/len,
  // the streamed copies (outputs of 16 MiB+, 512+ bytes per element), in two or three chunks.
  const std::size_t count = 36000;
  const std::vector<std::string> strings = random_strings(count, 460, 640, 4);
  const StringTensor in = StringTensor::from_strings(strings, {static_cast<std::int64_t>(count)});
  for (bool utf8 : {false, true}) {
    SCOPED_TRACE(utf8 ? "utf8" : "byte");
    for (std::int64_t p : {std::int64_t{3}, std::int64_t{-500}}) {
      const std::vector<std::int64_t> pos(count, p), len(count, -1);
      expect_substr(in, index_buffer({p}, {}, DataType::kInt64),
                    index_buffer({-1}, {}, DataType::kInt64),
                    expected_substr(strings, pos, len, utf8), utf8);
    }
    std::mt19937_64 rng(5);
    std::uniform_int_distribution<std::int64_t> pick(-600, 600);
    std::vector<std::int64_t> pos(count), len(count);
    for (std::size_t i = 0; i < count; ++i) {
      pos[i] = pick(rng);
      len[i] = pick(rng);
    }
    expect_substr(in, index_buffer(pos, {static_cast<std::int64_t>(count)}, DataType::kInt64),
                  index_buffer(len, {static_cast<std::int64_t>(count)}, DataType::kInt64),
                  expected_substr(strings, pos, len, utf8), utf8);
  }
}

TEST(ParallelOps, SubstrBroadcastInputAcrossChunks) {
  // Input [40000] against pos/len [2, 40000]: the non-contiguous element walk, chunk borders
  // falling inside a row.
  const std::size_t n = kManyStrings / 2;
  const std::vector<std::string> strings = random_strings(n, 0, 30, 6);
  const StringTensor in = StringTensor::from_strings(strings, {static_cast<std::int64_t>(n)});
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::int64_t> pick(-32, 32);
  std::vector<std::int64_t> pos(2 * n), len(2 * n);
  for (std::size_t i = 0; i < 2 * n; ++i) {
    pos[i] = pick(rng);
    len[i] = pick(rng);
  }
  const Shape shape{2, static_cast<std::int64_t>(n)};
  for (bool utf8 : {false, true}) {
    SCOPED_TRACE(utf8 ? "utf8" : "byte");
    expect_substr(in, index_buffer(pos, shape, DataType::kInt64),
                  index_buffer(len, shape, DataType::kInt64),
                  expected_substr(strings, pos, len, utf8), utf8);
  }
}

// ---- boolean_mask_update ----------------------------------------------------------------------

// A mask of `rows` entries at `density`, with long all-true and all-false stretches mixed in
// (the CPU backend copies runs whole).
std::vector<std::uint8_t> random_mask(std::int64_t rows, double density, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
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

TensorBuffer bytes_buffer(const Shape& shape, DataType type, const std::vector<std::uint8_t>& b) {
  TensorBuffer out = TensorBuffer::create_fixed_size(shape, type);
  if (!b.empty()) std::memcpy(out.overwrite_host_bytes(), b.data(), b.size());
  return out;
}

std::vector<std::uint8_t> bytes_of(const TensorBuffer& t) {
  const auto* p = static_cast<const std::uint8_t*>(t.host_bytes());
  return {p, p + t.size_bytes()};
}

std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> out(n);
  for (auto& b : out) b = static_cast<std::uint8_t>(rng());
  return out;
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
  int seed = 10;
  for (const Layout& layout : {Layout{(1 << 19) + 12345, 1, DataType::kFloat32, 4},
                               Layout{(1 << 19) + 12345, 3, DataType::kUInt8, 1},
                               Layout{(1 << 17) + 777, 8, DataType::kFloat32, 4}}) {
    const std::int64_t rows = layout.rows;
    const std::size_t row_bytes = static_cast<std::size_t>(layout.inner) * layout.esize;
    const Shape shape = layout.inner == 1 ? Shape{rows} : Shape{rows, layout.inner};
    const std::vector<std::uint8_t> tensor_bytes = random_bytes(
        static_cast<std::size_t>(rows) * row_bytes, static_cast<std::uint64_t>(++seed));
    for (double density : {0.01, 0.5, 0.99}) {
      const std::vector<std::uint8_t> mask =
          random_mask(rows, density, static_cast<std::uint64_t>(++seed));
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
        const std::vector<std::uint8_t> ubytes =
            random_bytes(form == UpdatesForm::kScalar ? layout.esize : update_rows * row_bytes,
                         static_cast<std::uint64_t>(++seed));
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
        const TensorBuffer tensor = bytes_buffer(shape, layout.type, tensor_bytes);
        const TensorBuffer mask_buffer = bytes_buffer({rows}, DataType::kBool, mask);
        const TensorBuffer updates = bytes_buffer(ushape, layout.type, ubytes);
        ASSERT_EQ(bytes_of(boolean_mask_update(tensor, mask_buffer, updates)), want);
        ASSERT_EQ(bytes_of(tensor), tensor_bytes) << "input modified";
        TensorBuffer target = tensor.clone();
        boolean_mask_update_in_place(target, mask_buffer, updates);
        ASSERT_EQ(bytes_of(target), want);
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

}  // namespace
}  // namespace tensorbuf
