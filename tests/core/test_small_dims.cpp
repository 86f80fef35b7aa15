// core::SmallDims, the plans' allocation-free dims: inline up to kInline values, heap beyond,
// copies in both directions between the two, and the values it was given, exactly.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "core/small_dims.hpp"

namespace tensorbuf {
namespace {

using core::SmallDims;

std::vector<std::int64_t> iota(std::size_t n, std::int64_t first) {
  std::vector<std::int64_t> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

TEST(SmallDims, HoldsTheValuesInlineAndOnTheHeap) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, SmallDims::kInline,
                        SmallDims::kInline + 1, std::size_t{40}}) {
    const std::vector<std::int64_t> values = iota(n, -3);
    const SmallDims dims(values);
    EXPECT_EQ(dims.size(), n);
    EXPECT_EQ(dims.rank(), static_cast<int>(n));
    EXPECT_EQ(dims.empty(), n == 0);
    EXPECT_EQ(dims.to_vector(), values);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(dims[i], values[i]);
  }
}

TEST(SmallDims, CopiesBetweenInlineAndHeapForms) {
  const SmallDims small(iota(3, 10));
  const SmallDims large(iota(20, 100));
  SmallDims target = small;
  EXPECT_EQ(target.to_vector(), iota(3, 10));
  target = large;  // inline -> heap
  EXPECT_EQ(target.to_vector(), iota(20, 100));
  target = small;  // heap -> inline
  EXPECT_EQ(target.to_vector(), iota(3, 10));
  const SmallDims& alias = target;
  target = alias;  // self-assignment keeps the values
  EXPECT_EQ(target.to_vector(), iota(3, 10));
  SmallDims copied(large);
  EXPECT_EQ(copied.to_vector(), iota(20, 100));
}

TEST(SmallDims, AssignsACountOfOneValueAndWritesThroughIndex) {
  SmallDims dims;
  dims.assign(4, 7);
  EXPECT_EQ(dims.to_vector(), std::vector<std::int64_t>(4, 7));
  dims[2] = -1;
  EXPECT_EQ(dims.to_vector(), (std::vector<std::int64_t>{7, 7, -1, 7}));
  dims.assign(12, 0);
  dims[11] = 5;
  std::vector<std::int64_t> expected(12, 0);
  expected[11] = 5;
  EXPECT_EQ(dims.to_vector(), expected);
}

}  // namespace
}  // namespace tensorbuf
