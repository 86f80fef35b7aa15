// tb_gather_nd: values through the C ABI, NULL options as the defaults, every option field
// (oob, batch_dims, device; axis is ignored), the error texts and a struct_size too small for
// the struct. (NULL and stale handles: the table-driven tests of test_errors.cpp /
// test_handles.cpp; out-of-range tb_oob values: bad_enums.c.)
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "c_api/fixture.hpp"

namespace tensorbuf::testing {
namespace {

using F = std::vector<float>;
using I = std::vector<std::int32_t>;

std::vector<std::int64_t> shape_of(const tb_buffer* b) {
  int ndim = 0;
  std::int64_t dims[TB_MAX_NDIM] = {};
  EXPECT_EQ(tb_buffer_shape(b, &ndim, dims), TB_OK);
  return {dims, dims + ndim};
}

TEST(CApiGatherNd, RowsWithDefaultOptions) {
  // ONNX GatherND's third example: params [2,2,2], indices [2,1,2].
  Handle params{make_buffer<float>(TB_FLOAT32, {2, 2, 2}, F{0, 1, 2, 3, 4, 5, 6, 7})};
  Handle indices{make_buffer<std::int64_t>(TB_INT64, {2, 1, 2}, {0, 1, 1, 0})};
  Handle out;
  ASSERT_EQ(tb_gather_nd(params.get, indices.get, nullptr, &out.get), TB_OK) << tb_last_error();
  EXPECT_EQ(shape_of(out.get), (std::vector<std::int64_t>{2, 1, 2}));
  EXPECT_EQ(contents<float>(out.get, 4), (F{2, 3, 4, 5}));
}

TEST(CApiGatherNd, BatchDimsAndIgnoredAxis) {
  Handle params{make_buffer<std::int32_t>(TB_INT32, {2, 2, 2}, I{0, 1, 2, 3, 4, 5, 6, 7})};
  Handle indices{make_buffer<std::int32_t>(TB_INT32, {2, 1}, I{1, 0})};
  const tb_device cpu{0, 0};
  const tb_gather_options options{sizeof(tb_gather_options), TB_OOB_ERROR, 5, 1, nullptr, &cpu};
  Handle out;
  ASSERT_EQ(tb_gather_nd(params.get, indices.get, &options, &out.get), TB_OK) << tb_last_error();
  EXPECT_EQ(shape_of(out.get), (std::vector<std::int64_t>{2, 2}));
  EXPECT_EQ(contents<std::int32_t>(out.get, 4), (I{2, 3, 4, 5}));
}

TEST(CApiGatherNd, BadRowIsAnErrorOrZerosWhenDropped) {
  Handle params{make_buffer<float>(TB_FLOAT32, {3}, F{10, 20, 30})};
  Handle indices{make_buffer<std::int32_t>(TB_INT32, {3, 1}, I{2, 3, -1})};
  tb_buffer* out = nullptr;
  EXPECT_EQ(tb_gather_nd(params.get, indices.get, nullptr, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_gather_nd: indices[1] = [3] does not index into shape [3]");
  EXPECT_EQ(out, nullptr);
  const tb_gather_options drop{sizeof(tb_gather_options), TB_OOB_DROP, 0, 0, nullptr, nullptr};
  Handle dropped;
  ASSERT_EQ(tb_gather_nd(params.get, indices.get, &drop, &dropped.get), TB_OK) << tb_last_error();
  EXPECT_EQ(contents<float>(dropped.get, 3), (F{30, 0, 0}));
  EXPECT_EQ(contents<std::int32_t>(indices.get, 3), (I{2, 3, -1}));
}

TEST(CApiGatherNd, ArgumentErrorsNameTheProblem) {
  Handle params{make_buffer<float>(TB_FLOAT32, {2, 3}, F{1, 2, 3, 4, 5, 6})};
  Handle indices{make_buffer<std::int32_t>(TB_INT32, {2, 1}, I{0, 1})};
  const tb_gather_options batch2{sizeof(tb_gather_options), TB_OOB_DEFAULT, 0, 2, nullptr,
                                 nullptr};
  tb_buffer* out = nullptr;
  EXPECT_EQ(tb_gather_nd(params.get, indices.get, &batch2, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_gather_nd: gather_nd: batch_dims = 2 must be between 0 and indices.rank - 1 = 1 "
            "(indices shape [2,1])");
  Handle wide{make_buffer<std::int16_t>(TB_INT16, {1, 1}, std::vector<std::int16_t>{0})};
  EXPECT_EQ(tb_gather_nd(params.get, wide.get, nullptr, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_gather_nd: gather_nd: indices must be int32 or int64, got int16");
  EXPECT_EQ(out, nullptr);
}

TEST(CApiGatherNd, StructSizeTooSmallIsRefused) {
  Handle params{make_buffer<float>(TB_FLOAT32, {2}, F{1, 2})};
  Handle indices{make_buffer<std::int32_t>(TB_INT32, {1, 1}, I{0})};
  const tb_gather_options small{8, TB_OOB_DEFAULT, 0, 0, nullptr, nullptr};
  tb_buffer* out = nullptr;
  EXPECT_EQ(tb_gather_nd(params.get, indices.get, &small, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_gather_nd: options->struct_size is 8, expected at least " +
                std::to_string(sizeof(tb_gather_options)));
  EXPECT_EQ(out, nullptr);
}

}  // namespace
}  // namespace tensorbuf::testing
