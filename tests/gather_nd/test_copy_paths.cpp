// gather_nd's CPU row copies (cpu/row_gather.hpp) on every path, reached on small tensors by
// lowering the size thresholds to 0 (rows prefetched ahead, large-output streaming): with the
// AVX-512 paths and with the portable ones, rows of whole 64-byte lines and of other sizes,
// depth 1 and 2, batched or not, bad rows under both policies; against the reference.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "gather_nd/random_case.hpp"
#include "gather_nd/reference.hpp"
#include "support/error_text.hpp"
#include "support/row_copy_paths.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::invalid_argument_text;
using testing::gathered::indices_buffer;
using testing::gathered::RandomCase;
using testing::gathered::reference;
using testing::mask_update::bytes;
using testing::mask_update::from_bytes;

class GatherNdCopyPaths : public testing::RowCopyPaths {};

INSTANTIATE_TEST_SUITE_P(Simd, GatherNdCopyPaths, ::testing::Values(true, false),
                         testing::simd_param_name);

// params [B, S, T, W] float32 (W * 4 bytes a row at depth 2, T * W * 4 at depth 1).
RandomCase row_case(std::mt19937_64& rng, std::int64_t width, int depth, int batch_dims,
                    double bad_share) {
  RandomCase c;
  c.dtype = DataType::kFloat32;
  c.index_dtype = rng() % 2 == 0 ? DataType::kInt32 : DataType::kInt64;
  c.batch_dims = batch_dims;
  const std::int64_t batches = batch_dims == 1 ? 3 : 1;
  const std::int64_t s = 50;
  const std::int64_t t = depth == 2 ? 4 : 1;
  if (batch_dims == 1) c.params_shape.push_back(batches);
  c.params_shape.insert(c.params_shape.end(), {s, t, width});
  if (batch_dims == 1) c.indices_shape.push_back(batches);
  c.indices_shape.insert(c.indices_shape.end(), {90, depth});
  c.params.resize(static_cast<std::size_t>(batches * s * t * width * 4));
  for (auto& byte : c.params) byte = static_cast<std::uint8_t>(rng());
  std::bernoulli_distribution bad(bad_share);
  for (std::int64_t r = 0; r < batches * 90; ++r) {
    for (int k = 0; k < depth; ++k) {
      const std::int64_t bound = k == 0 ? s : t;
      std::int64_t v = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(bound));
      if (bad(rng)) v = rng() % 2 == 0 ? -1 : bound;
      c.indices.push_back(v);
    }
  }
  return c;
}

TEST_P(GatherNdCopyPaths, EveryRowSizeMatchesTheReference) {
  std::mt19937_64 rng(64);
  int rejected = 0;
  int cases = 0;
  // Row bytes 4 to 512: whole lines (16, 32, 48, 64, 128 floats) and not.
  for (const std::int64_t width : {1, 3, 16, 20, 32, 48, 64, 128}) {
    for (const int depth : {1, 2}) {
      for (const int batch_dims : {0, 1}) {
        for (const double bad_share : {0.0, 0.02}) {
          const RandomCase c = row_case(rng, width, depth, batch_dims, bad_share);
          const auto expected =
              reference(c.params, c.params_shape, c.indices, c.indices_shape, 4, c.batch_dims);
          const TensorBuffer params = from_bytes(c.dtype, Shape(c.params_shape), c.params);
          const TensorBuffer indices = indices_buffer(c);
          const std::string where = "width " + std::to_string(width) + ", depth " +
                                    std::to_string(depth) + ", batch_dims " +
                                    std::to_string(batch_dims);
          ++cases;
          EXPECT_EQ(bytes(gather_nd(params, indices,
                                    {Device::cpu(), OutOfBoundsPolicy::kDrop, 0, batch_dims, {}})),
                    expected.bytes)
              << where;
          const GatherOptions error{Device::cpu(), OutOfBoundsPolicy::kError, 0, batch_dims, {}};
          if (expected.first_bad >= 0) {
            ++rejected;
            EXPECT_EQ(invalid_argument_text([&] { gather_nd(params, indices, error); }),
                      expected.first_bad_text)
                << where;
          } else {
            EXPECT_EQ(bytes(gather_nd(params, indices, error)), expected.bytes) << where;
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
