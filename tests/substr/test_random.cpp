// substr against an independent serial reference (written here, not from src/kernels):
// random ASCII, multi-byte and invalid UTF-8, every broadcasting form, negative pos and len,
// int32 and int64, empty strings and empty tensors; the CPU backend, the CUDA driver through
// HostExecutor (both modes, both policies) and, with a GPU, the CUDA backend.
// Case count: TENSORBUF_RANDOM_CASES (default 150), fixed seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "substr/both_policies.hpp"
#include "substr/helpers.hpp"
#include "support/devices.hpp"

namespace tensorbuf {
namespace {

using testing::Strings;

int random_cases() {
  if (const char* env = std::getenv("TENSORBUF_RANDOM_CASES")) {
    const int n = std::atoi(env);
    if (n > 0) return n;
  }
  return 150;
}

// ---- the reference ------------------------------------------------------------------------

struct Reference {
  Shape shape;
  Strings values;          // kDrop result
  std::int64_t first_bad;  // -1 when none
};

Reference reference(const Strings& in, const Shape& in_shape, const std::vector<std::int64_t>& pos,
                    const std::vector<std::int64_t>& len, const Shape& pos_shape, bool utf8) {
  const int rank = std::max(in_shape.rank(), pos_shape.rank());
  auto dim = [&](const Shape& s, int d) -> std::int64_t {
    const int k = d - (rank - s.rank());
    return k < 0 ? 1 : s[k];
  };
  std::vector<std::int64_t> out_dims;
  for (int d = 0; d < rank; ++d) {
    out_dims.push_back(dim(in_shape, d) == 1 ? dim(pos_shape, d) : dim(in_shape, d));
  }
  Reference ref{Shape(out_dims), {}, -1};
  const std::int64_t n = ref.shape.num_elements();
  std::vector<std::int64_t> idx(static_cast<std::size_t>(rank), 0);
  for (std::int64_t flat = 0; flat < n; ++flat) {
    std::int64_t rem = flat;
    for (int d = rank - 1; d >= 0; --d) {
      idx[static_cast<std::size_t>(d)] = rem % out_dims[static_cast<std::size_t>(d)];
      rem /= out_dims[static_cast<std::size_t>(d)];
    }
    auto operand_index = [&](const Shape& s) {
      std::int64_t at = 0;
      for (int d = 0; d < rank; ++d) {
        const std::int64_t size = dim(s, d);
        at = at * size + (size == 1 ? 0 : idx[static_cast<std::size_t>(d)]);
      }
      return static_cast<std::size_t>(at);
    };
    const std::size_t i = operand_index(in_shape);
    const std::size_t j = operand_index(pos_shape);
    const std::optional<std::string> r = testing::reference_substr(in[i], pos[j], len[j], utf8);
    if (!r && ref.first_bad < 0) ref.first_bad = flat;
    ref.values.push_back(r.value_or(""));
  }
  return ref;
}

// ---- random cases ---------------------------------------------------------------------------

struct Case {
  Strings strings;
  Shape in_shape;
  std::vector<std::int64_t> pos;
  std::vector<std::int64_t> len;
  Shape pos_shape;
  DataType type = DataType::kInt32;
  bool utf8 = false;
};

std::string random_string(std::mt19937_64& rng, int kind, int max_len) {
  std::uniform_int_distribution<int> length(0, max_len);
  const int n = length(rng) == 0 ? 0 : length(rng);  // empty strings are common
  static const char* pieces[] = {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xd0\x96"};
  std::string s;
  while (static_cast<int>(s.size()) < n) {
    const int r = static_cast<int>(rng() % 10);
    if (kind == 0 || r < 5) {
      s += static_cast<char>('a' + rng() % 26);  // ASCII
    } else if (kind == 1) {
      s += pieces[rng() % 4];  // valid multi-byte
    } else {
      s += static_cast<char>(rng() % 256);  // anything: stray continuations, lone leads
    }
  }
  return s;
}

Shape random_shape(std::mt19937_64& rng, int rank, int max_dim) {
  std::vector<std::int64_t> dims;
  for (int d = 0; d < rank; ++d) dims.push_back(static_cast<std::int64_t>(rng() % max_dim) + 1);
  return Shape(dims);
}

Case random_case(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Case c;
  const int form = static_cast<int>(rng() % 6);
  const int rank = static_cast<int>(rng() % 4);
  switch (form) {
    case 0:  // scalar pos
      c.in_shape = random_shape(rng, rank, 5);
      c.pos_shape = Shape{};
      break;
    case 1:  // same shape
      c.in_shape = random_shape(rng, rank, 5);
      c.pos_shape = c.in_shape;
      break;
    case 2: {  // pos a row of the input
      c.in_shape = random_shape(rng, std::max(rank, 1) + 1, 4);
      c.pos_shape = Shape{c.in_shape[c.in_shape.rank() - 1]};
      break;
    }
    case 3: {  // input smaller than pos
      c.pos_shape = random_shape(rng, std::max(rank, 1) + 1, 4);
      c.in_shape = rng() % 2 ? Shape{} : Shape{1, c.pos_shape[c.pos_shape.rank() - 1]};
      break;
    }
    case 4: {  // both broadcast: dims of 1 on either side
      std::vector<std::int64_t> a;
      std::vector<std::int64_t> b;
      for (int d = 0; d < rank + 1; ++d) {
        const std::int64_t size = static_cast<std::int64_t>(rng() % 3) + 2;
        const int pick = static_cast<int>(rng() % 3);
        a.push_back(pick == 1 ? 1 : size);
        b.push_back(pick == 2 ? 1 : size);
      }
      c.in_shape = Shape(a);
      c.pos_shape = Shape(
          std::vector<std::int64_t>(b.begin() + static_cast<long>(rng() % b.size()), b.end()));
      break;
    }
    default: {  // empty
      c.in_shape = rng() % 2 ? Shape{0} : Shape{2, 0};
      c.pos_shape = rng() % 2 ? Shape{} : Shape{1};
      break;
    }
  }
  const int kind = static_cast<int>(rng() % 3);
  const int max_len = rng() % 4 == 0 ? 200 : 12;
  for (std::int64_t i = 0; i < c.in_shape.num_elements(); ++i) {
    c.strings.push_back(random_string(rng, kind, max_len));
  }
  const int reach = max_len + 3;
  std::uniform_int_distribution<int> pos(-reach, reach);
  std::uniform_int_distribution<int> len(-3, reach);
  for (std::int64_t i = 0; i < c.pos_shape.num_elements(); ++i) {
    // Mostly in range: positions scaled to the shortest plausible string.
    const int p = pos(rng);
    c.pos.push_back(rng() % 3 == 0 ? p : p / 4);
    c.len.push_back(len(rng));
  }
  c.type = rng() % 2 ? DataType::kInt32 : DataType::kInt64;
  c.utf8 = rng() % 2 == 0;
  return c;
}

std::string describe(const Case& c, std::uint64_t seed) {
  return "seed " + std::to_string(seed) + " input " + c.in_shape.to_string() + " pos " +
         c.pos_shape.to_string() + (c.utf8 ? " utf8" : " byte") +
         (c.type == DataType::kInt32 ? " int32" : " int64");
}

// ---- tests ------------------------------------------------------------------------------------

class SubstrRandom : public ::testing::TestWithParam<Device> {};

TEST_P(SubstrRandom, MatchesReferenceBothPolicies) {
  TENSORBUF_SKIP_WITHOUT_CUDA(GetParam());
  const int cases = random_cases();
  for (int k = 0; k < cases; ++k) {
    const auto seed = static_cast<std::uint64_t>(1000 + k);
    const Case c = random_case(seed);
    SCOPED_TRACE(describe(c, seed));
    const Reference ref = reference(c.strings, c.in_shape, c.pos, c.len, c.pos_shape, c.utf8);
    StringTensor in = StringTensor::from_strings(c.strings, c.in_shape);
    TensorBuffer pos = testing::index_buffer(c.pos, c.pos_shape, c.type);
    TensorBuffer len = testing::index_buffer(c.len, c.pos_shape, c.type);
    ASSERT_NO_FATAL_FAILURE(testing::expect_substr_both_policies(
        in, pos, len, GetParam(), c.utf8, ref.shape, ref.values, ref.first_bad));
  }
}

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(SubstrRandom);

TEST(SubstrRandomDriver, HostExecutorMatchesReference) {
  const int cases = random_cases();
  for (int k = 0; k < cases; ++k) {
    const auto seed = static_cast<std::uint64_t>(5000 + k);
    const Case c = random_case(seed);
    SCOPED_TRACE(describe(c, seed));
    const Reference ref = reference(c.strings, c.in_shape, c.pos, c.len, c.pos_shape, c.utf8);
    StringTensor in = StringTensor::from_strings(c.strings, c.in_shape);
    TensorBuffer pos = testing::index_buffer(c.pos, c.pos_shape, c.type);
    TensorBuffer len = testing::index_buffer(c.len, c.pos_shape, c.type);
    for (std::int64_t threshold : {std::int64_t{0}, std::int64_t{16}, INT64_MAX}) {
      // Both policies with the defaults, then the variants (kernels/substr_variants.hpp): the
      // vector lane copy under kDrop (which always copies), byte offsets in one scan under both.
      for (int variant = 0; variant < 5; ++variant) {
        const bool report = variant == 1 || variant == 3;
        testing::DriverSettings settings;
        settings.unit = c.utf8 ? SubstrUnit::kUtf8Char : SubstrUnit::kByte;
        settings.report = report;
        settings.lane_threshold = threshold;
        settings.reverse = (k % 2) == 0;
        if (variant == 2) settings.lane_copy = kernels::SubstrLaneCopy::kVectors;
        if (variant >= 3) settings.byte_offsets = kernels::SubstrByteOffsets::kScanOfSizes;
        SCOPED_TRACE(::testing::Message() << "variant " << variant);
        const testing::DriverRun run = testing::run_driver(in, pos, len, settings);
        // One read of the total (with the bad index); the error path reads the bad pos too.
        ASSERT_EQ(run.reads, report && ref.first_bad >= 0 ? 2 : 1);
        if (report && ref.first_bad >= 0) {
          ASSERT_EQ(run.first_bad, ref.first_bad);
          ASSERT_EQ(run.allocations, 0);
        } else {
          ASSERT_EQ(run.first_bad, -1);
          ASSERT_EQ(run.values, ref.values) << "threshold " << threshold;
        }
      }
    }
  }
}

// Many strings: several CPU chunks and threads, the first bad element deep inside a later one.
TEST(SubstrRandomLarge, CpuChunksAgreeWithReference) {
  std::mt19937_64 rng(42);
  const std::int64_t n = 100000;
  Strings values;
  for (std::int64_t i = 0; i < n; ++i) values.push_back(random_string(rng, i % 3, 20));
  std::vector<std::int64_t> pos;
  std::vector<std::int64_t> len;
  for (std::int64_t i = 0; i < n; ++i) {
    pos.push_back(static_cast<std::int64_t>(rng() % 5) - 2);
    len.push_back(static_cast<std::int64_t>(rng() % 8) - 1);
  }
  for (bool utf8 : {false, true}) {
    const Reference ref = reference(values, Shape{n}, pos, len, Shape{n}, utf8);
    StringTensor in = StringTensor::from_strings(values, Shape{n});
    TensorBuffer p = testing::index_buffer(pos, Shape{n}, DataType::kInt64);
    TensorBuffer l = testing::index_buffer(len, Shape{n}, DataType::kInt64);
    SubstrOptions options{.device = Device::cpu(),
                          .unit = utf8 ? SubstrUnit::kUtf8Char : SubstrUnit::kByte,
                          .out_of_bounds = OutOfBoundsPolicy::kDrop};
    EXPECT_EQ(substr(in, p, l, options).to_strings(), ref.values);
    // Move every bad element into the last quarter: the error must name the smallest of them.
    std::vector<std::int64_t> safe_pos = pos;
    for (std::int64_t i = 0; i < n * 3 / 4; ++i) safe_pos[static_cast<std::size_t>(i)] = 0;
    const Reference late = reference(values, Shape{n}, safe_pos, len, Shape{n}, utf8);
    ASSERT_GE(late.first_bad, n * 3 / 4);
    TensorBuffer sp = testing::index_buffer(safe_pos, Shape{n}, DataType::kInt64);
    options.out_of_bounds = OutOfBoundsPolicy::kError;
    try {
      substr(in, sp, l, options);
      FAIL() << "expected InvalidArgumentError";
    } catch (const InvalidArgumentError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(" at index " + std::to_string(late.first_bad)), std::string::npos)
          << message;
    }
  }
}

}  // namespace
}  // namespace tensorbuf
