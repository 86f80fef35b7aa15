// gather's CPU row copies (cpu/row_gather.hpp) on every path, reached on small tensors by
// lowering the size thresholds to 0 (rows prefetched ahead, large-output streaming): with the
// AVX-512 paths and with the portable ones, rows of whole 64-byte lines and of other sizes, on
// axis 0, on an inner axis and with batch dims, bad indices under both policies; against the
// reference.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "gather/reference.hpp"
#include "support/error_text.hpp"
#include "support/row_copy_paths.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::invalid_argument_text;
using testing::gathering::Case;
using testing::gathering::indices_buffer;
using testing::gathering::reference;
using testing::mask_update::bytes;
using testing::mask_update::from_bytes;

class GatherCopyPaths : public testing::RowCopyPaths {};

INSTANTIATE_TEST_SUITE_P(Simd, GatherCopyPaths, ::testing::Values(true, false),
                         testing::simd_param_name);

// float32 params [O, S, W] gathered on axis 1 (rows of W * 4 bytes), batch_dims 0 or 1 (then
// indices [O, 70]); O = 1 is the axis-0 case.
Case row_case(std::mt19937_64& rng, std::int64_t width, std::int64_t outer, int batch_dims,
              double bad_share) {
  Case c;
  c.dtype = DataType::kFloat32;
  c.index_dtype = rng() % 2 == 0 ? DataType::kInt32 : DataType::kInt64;
  const std::int64_t s = 40;
  c.params_shape = {outer, s, width};
  c.axis = 1;
  c.batch_dims = batch_dims;
  c.indices_shape =
      batch_dims == 1 ? std::vector<std::int64_t>{outer, 70} : std::vector<std::int64_t>{70};
  c.params.resize(static_cast<std::size_t>(outer * s * width * 4));
  for (auto& byte : c.params) byte = static_cast<std::uint8_t>(rng());
  std::bernoulli_distribution bad(bad_share);
  const std::int64_t n = batch_dims == 1 ? outer * 70 : 70;
  for (std::int64_t p = 0; p < n; ++p) {
    std::int64_t v = static_cast<std::int64_t>(rng() % (2 * s)) - s;  // negatives wrap
    if (bad(rng)) v = rng() % 2 == 0 ? -s - 1 : s;
    c.indices.push_back(v);
  }
  return c;
}

TEST_P(GatherCopyPaths, EveryRowSizeMatchesTheReference) {
  std::mt19937_64 rng(65);
  int rejected = 0;
  int cases = 0;
  // Row bytes 4 to 512: whole lines (16, 32, 48, 64, 128 floats) and not.
  for (const std::int64_t width : {1, 3, 16, 20, 32, 48, 64, 128}) {
    for (const std::int64_t outer : {1, 3}) {
      for (const int batch_dims : {0, 1}) {
        for (const double bad_share : {0.0, 0.03}) {
          const Case c = row_case(rng, width, outer, batch_dims, bad_share);
          const auto expected = reference(c);
          const TensorBuffer params = from_bytes(c.dtype, Shape(c.params_shape), c.params);
          const TensorBuffer indices = indices_buffer(c);
          const std::string where = "width " + std::to_string(width) + ", outer " +
                                    std::to_string(outer) + ", batch_dims " +
                                    std::to_string(batch_dims);
          ++cases;
          const GatherOptions drop{Device::cpu(), OutOfBoundsPolicy::kDrop, 1, batch_dims, {}};
          EXPECT_EQ(bytes(gather(params, indices, drop)), expected.bytes) << where;
          const GatherOptions error{Device::cpu(), OutOfBoundsPolicy::kError, 1, batch_dims, {}};
          if (expected.first_bad >= 0) {
            ++rejected;
            EXPECT_EQ(invalid_argument_text([&] { gather(params, indices, error); }),
                      expected.first_bad_text)
                << where;
          } else {
            EXPECT_EQ(bytes(gather(params, indices, error)), expected.bytes) << where;
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 64);
  EXPECT_GT(rejected, 10);
}

}  // namespace
}  // namespace tensorbuf
