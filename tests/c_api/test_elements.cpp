// tb_gather, tb_gather_elements, tb_scatter_elements(_in_place): values through the C ABI
// against loops written out here, NULL options as the defaults, every option field, each error
// class with its text, and outputs (the in-place tensor too) untouched on failure. (NULL and
// stale handles: the table-driven tests of test_errors.cpp / test_handles.cpp; out-of-range
// tb_oob / tb_reduction values: bad_enums.c.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "c_api/fixture.hpp"

namespace tensorbuf::testing {
namespace {

using F = std::vector<float>;
using I = std::vector<std::int32_t>;
using L = std::vector<std::int64_t>;
using Dims = std::vector<std::int64_t>;

Dims shape_of(const tb_buffer* b) {
  int ndim = 0;
  std::int64_t dims[TB_MAX_NDIM] = {};
  EXPECT_EQ(tb_buffer_shape(b, &ndim, dims), TB_OK);
  return {dims, dims + ndim};
}

// An index of an axis of size s, -s <= i < s (the spec's wrap once).
std::int64_t wrap(std::int64_t i, std::int64_t s) { return i < 0 ? i + s : i; }

tb_gather_options gather_axis(int axis, int batch_dims = 0, tb_oob oob = TB_OOB_DEFAULT) {
  return tb_gather_options{sizeof(tb_gather_options), oob, axis, batch_dims, nullptr, nullptr};
}

tb_scatter_elements_options scatter_axis(int axis, tb_reduction reduction,
                                         tb_oob oob = TB_OOB_DEFAULT) {
  return tb_scatter_elements_options{
      sizeof(tb_scatter_elements_options), oob, axis, reduction, 0, nullptr, nullptr};
}

TEST(CApiGather, AlongAxisOneWithNegativeIndices) {
  const F p = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};  // [3, 4]
  const L idx = {2, -1, 0, -4};                       // [2, 2]
  Handle params{make_buffer<float>(TB_FLOAT32, {3, 4}, p)};
  Handle indices{make_buffer<std::int64_t>(TB_INT64, {2, 2}, idx)};
  const tb_gather_options options = gather_axis(1);
  Handle out;
  ASSERT_EQ(tb_gather(params.get, indices.get, &options, &out.get), TB_OK) << tb_last_error();
  EXPECT_EQ(shape_of(out.get), (Dims{3, 2, 2}));
  F expected;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) expected.push_back(p[i * 4 + wrap(idx[j], 4)]);
  }
  EXPECT_EQ(contents<float>(out.get, 12), expected);
  EXPECT_EQ(expected[1], 3.0f);  // the reference itself: params[0, -1]
}

TEST(CApiGather, NullOptionsGatherRowsAlongAxisZero) {
  Handle params{make_buffer<std::int32_t>(TB_INT32, {3, 2}, I{10, 11, 20, 21, 30, 31})};
  Handle indices{make_buffer<std::int32_t>(TB_INT32, {3}, I{2, 0, 2})};
  Handle out;
  ASSERT_EQ(tb_gather(params.get, indices.get, nullptr, &out.get), TB_OK) << tb_last_error();
  EXPECT_EQ(shape_of(out.get), (Dims{3, 2}));
  EXPECT_EQ(contents<std::int32_t>(out.get, 6), (I{30, 31, 10, 11, 30, 31}));
}

TEST(CApiGather, BatchDimsAndCpuDevice) {
  const I p = {0, 1, 2, 3, 4, 5};  // [2, 3]
  const I idx = {2, 0, 1, 1};      // [2, 2]
  Handle params{make_buffer<std::int32_t>(TB_INT32, {2, 3}, p)};
  Handle indices{make_buffer<std::int32_t>(TB_INT32, {2, 2}, idx)};
  const tb_device cpu{0, 0};
  tb_gather_options options = gather_axis(1, 1, TB_OOB_ERROR);
  options.device = &cpu;
  Handle out;
  ASSERT_EQ(tb_gather(params.get, indices.get, &options, &out.get), TB_OK) << tb_last_error();
  EXPECT_EQ(shape_of(out.get), (Dims{2, 2}));
  I expected;
  for (int b = 0; b < 2; ++b) {
    for (int j = 0; j < 2; ++j) expected.push_back(p[b * 3 + idx[b * 2 + j]]);
  }
  EXPECT_EQ(contents<std::int32_t>(out.get, 4), expected);
}

TEST(CApiGather, BadIndexIsAnErrorOrZerosWhenDropped) {
  Handle params{make_buffer<float>(TB_FLOAT32, {3}, F{10, 20, 30})};
  Handle indices{make_buffer<std::int32_t>(TB_INT32, {3}, I{2, 3, -4})};
  tb_buffer* out = nullptr;
  const tb_gather_options error = gather_axis(0, 0, TB_OOB_ERROR);
  EXPECT_EQ(tb_gather(params.get, indices.get, &error, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_gather: indices[1] = 3 is out of range for axis 0 of shape [3]");
  EXPECT_EQ(out, nullptr);
  const tb_gather_options drop = gather_axis(0, 0, TB_OOB_DROP);
  Handle dropped;
  ASSERT_EQ(tb_gather(params.get, indices.get, &drop, &dropped.get), TB_OK) << tb_last_error();
  EXPECT_EQ(contents<float>(dropped.get, 3), (F{30, 0, 0}));
}

TEST(CApiGather, ArgumentErrorsNameTheProblem) {
  Handle params{make_buffer<float>(TB_FLOAT32, {3, 3}, F(9, 1.0f))};
  Handle indices{make_buffer<std::int32_t>(TB_INT32, {2}, I{0, 1})};
  Handle wide{make_buffer<std::int16_t>(TB_INT16, {1}, std::vector<std::int16_t>{0})};
  tb_buffer* out = nullptr;
  const tb_gather_options axis2 = gather_axis(2);
  EXPECT_EQ(tb_gather(params.get, indices.get, &axis2, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_gather: gather: axis = 2 is out of range for params of rank 2 (shape [3,3])");
  EXPECT_EQ(tb_gather(params.get, wide.get, nullptr, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_gather: gather: indices must be int32 or int64, got int16");
  const tb_gather_options batch1 = gather_axis(0, 1);
  EXPECT_EQ(tb_gather(params.get, indices.get, &batch1, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_gather: gather: batch_dims = 1 must not exceed axis = 0 (params shape [3,3])");
  EXPECT_EQ(out, nullptr);
}

TEST(CApiGatherElements, AlongEachAxisAgainstALoop) {
  const F p = {0, 1, 2, 3, 4, 5, 6, 7, 8};  // [3, 3]
  const I idx = {2, -1, 0, 1, 0, -3};       // [2, 3]
  Handle params{make_buffer<float>(TB_FLOAT32, {3, 3}, p)};
  Handle indices{make_buffer<std::int32_t>(TB_INT32, {2, 3}, idx)};
  for (int axis : {0, 1, -1, -2}) {
    SCOPED_TRACE("axis " + std::to_string(axis));
    const int a = axis < 0 ? axis + 2 : axis;
    F expected;
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 3; ++j) {
        const std::int64_t k = wrap(idx[i * 3 + j], 3);
        expected.push_back(a == 0 ? p[k * 3 + j] : p[i * 3 + k]);
      }
    }
    const tb_gather_options options = gather_axis(axis, 7);  // batch_dims is ignored
    Handle out;
    ASSERT_EQ(tb_gather_elements(params.get, indices.get, &options, &out.get), TB_OK)
        << tb_last_error();
    EXPECT_EQ(shape_of(out.get), (Dims{2, 3}));
    EXPECT_EQ(contents<float>(out.get, 6), expected);
  }
}

TEST(CApiGatherElements, NullOptionsAndDroppedIndices) {
  Handle params{make_buffer<std::int64_t>(TB_INT64, {4}, L{5, 6, 7, 8})};
  Handle indices{make_buffer<std::int64_t>(TB_INT64, {3}, L{3, -4, 1})};
  Handle out;
  ASSERT_EQ(tb_gather_elements(params.get, indices.get, nullptr, &out.get), TB_OK)
      << tb_last_error();
  EXPECT_EQ(contents<std::int64_t>(out.get, 3), (L{8, 5, 6}));
  Handle bad{make_buffer<std::int64_t>(TB_INT64, {3}, L{4, 0, -5})};
  const tb_gather_options drop = gather_axis(0, 0, TB_OOB_DROP);
  Handle dropped;
  ASSERT_EQ(tb_gather_elements(params.get, bad.get, &drop, &dropped.get), TB_OK)
      << tb_last_error();
  EXPECT_EQ(contents<std::int64_t>(dropped.get, 3), (L{0, 5, 0}));
}

TEST(CApiGatherElements, ErrorsNameTheProblem) {
  Handle params{make_buffer<float>(TB_FLOAT32, {3, 3}, F(9, 1.0f))};
  Handle flat{make_buffer<std::int32_t>(TB_INT32, {3}, I{0, 1, 2})};
  Handle bad{make_buffer<std::int32_t>(TB_INT32, {1, 2}, I{0, 3})};
  tb_buffer* out = nullptr;
  EXPECT_EQ(tb_gather_elements(params.get, flat.get, nullptr, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_gather_elements: gather_elements: indices shape [3] must have the rank of params "
            "shape [3,3]");
  const tb_gather_options axis1 = gather_axis(1, 0, TB_OOB_ERROR);
  EXPECT_EQ(tb_gather_elements(params.get, bad.get, &axis1, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_gather_elements: indices[0,1] = 3 is out of range for axis 1 of shape [3,3]");
  const tb_gather_options axis2 = gather_axis(2);
  EXPECT_EQ(tb_gather_elements(params.get, bad.get, &axis2, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_gather_elements: gather_elements: axis = 2 is out of range for params of rank 2 "
            "(shape [3,3])");
  EXPECT_EQ(out, nullptr);
}

// scatter_elements written out: positions in row-major order, each combined into its target.
F scatter_reference(F t, const I& idx, const F& upd, int rows, int cols, int tcols, int axis,
                    tb_reduction reduction) {
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      const std::int64_t k = wrap(idx[i * cols + j], axis == 0 ? 2 : tcols);
      float& target = axis == 0 ? t[k * tcols + j] : t[i * tcols + k];
      const float u = upd[i * cols + j];
      switch (reduction) {
        case TB_REDUCTION_NONE: target = u; break;
        case TB_REDUCTION_ADD: target += u; break;
        case TB_REDUCTION_MUL: target *= u; break;
        case TB_REDUCTION_MIN: target = std::min(target, u); break;
        case TB_REDUCTION_MAX: target = std::max(target, u); break;
      }
    }
  }
  return t;
}

TEST(CApiScatterElements, EveryReductionOnBothAxesInAndOutOfPlace) {
  const F t0 = {1, 2, 3, 4, 5, 6, 7, 8};  // [2, 4]
  const I idx = {3, -1, 0, 1, 2, 0};      // [2, 3]: duplicates along axis 1 in row 0
  const F upd = {10, -3, 0.5f, 2, 9, -7};
  Handle indices{make_buffer<std::int32_t>(TB_INT32, {2, 3}, idx)};
  Handle updates{make_buffer<float>(TB_FLOAT32, {2, 3}, upd)};
  Handle idx0{make_buffer<std::int32_t>(TB_INT32, {2, 3}, I{1, 0, -1, 1, -2, 0})};
  for (tb_reduction r : {TB_REDUCTION_NONE, TB_REDUCTION_ADD, TB_REDUCTION_MUL, TB_REDUCTION_MIN,
                         TB_REDUCTION_MAX}) {
    for (int axis : {1, -2}) {
      SCOPED_TRACE("reduction " + std::to_string(r) + " axis " + std::to_string(axis));
      const tb_buffer* ind = axis == 1 ? indices.get : idx0.get;
      const F expected = scatter_reference(t0, axis == 1 ? idx : I{1, 0, -1, 1, -2, 0}, upd, 2,
                                           3, 4, axis == 1 ? 1 : 0, r);
      Handle tensor{make_buffer<float>(TB_FLOAT32, {2, 4}, t0)};
      const tb_scatter_elements_options options = scatter_axis(axis, r);
      Handle out;
      ASSERT_EQ(tb_scatter_elements(tensor.get, ind, updates.get, &options, &out.get), TB_OK)
          << tb_last_error();
      EXPECT_EQ(shape_of(out.get), (Dims{2, 4}));
      EXPECT_EQ(contents<float>(out.get, 8), expected);
      EXPECT_EQ(contents<float>(tensor.get, 8), t0);
      ASSERT_EQ(tb_scatter_elements_in_place(tensor.get, ind, updates.get, &options), TB_OK)
          << tb_last_error();
      EXPECT_EQ(contents<float>(tensor.get, 8), expected);
    }
  }
  // The reference itself, for assignment along axis 1: row 0 gets t[0,3] = 10, t[0,3] = -3
  // (the last wins), t[0,0] = 0.5.
  EXPECT_EQ(scatter_reference(t0, idx, upd, 2, 3, 4, 1, TB_REDUCTION_NONE),
            (F{0.5f, 2, 3, -3, -7, 2, 9, 8}));
}

TEST(CApiScatterElements, NullOptionsAssignAlongAxisZeroAndDeterministicIsTaken) {
  Handle tensor{make_buffer<std::int64_t>(TB_INT64, {3}, L{1, 2, 3})};
  Handle indices{make_buffer<std::int64_t>(TB_INT64, {2}, L{-1, 0})};
  Handle updates{make_buffer<std::int64_t>(TB_INT64, {2}, L{30, 10})};
  Handle out;
  ASSERT_EQ(tb_scatter_elements(tensor.get, indices.get, updates.get, nullptr, &out.get), TB_OK)
      << tb_last_error();
  EXPECT_EQ(contents<std::int64_t>(out.get, 3), (L{10, 2, 30}));
  const tb_device cpu{0, 0};
  tb_scatter_elements_options options = scatter_axis(0, TB_REDUCTION_MUL, TB_OOB_ERROR);
  options.deterministic = 1;
  options.device = &cpu;
  ASSERT_EQ(tb_scatter_elements_in_place(tensor.get, indices.get, updates.get, &options), TB_OK)
      << tb_last_error();
  EXPECT_EQ(contents<std::int64_t>(tensor.get, 3), (L{10, 2, 90}));
}

TEST(CApiScatterElements, BadIndexLeavesEverythingUnchangedOrIsSkipped) {
  const F t0 = {1, 2, 3};
  Handle tensor{make_buffer<float>(TB_FLOAT32, {3}, t0)};
  Handle indices{make_buffer<std::int32_t>(TB_INT32, {3}, I{0, 3, 2})};
  Handle updates{make_buffer<float>(TB_FLOAT32, {3}, F{7, 8, 9})};
  const tb_scatter_elements_options error = scatter_axis(0, TB_REDUCTION_ADD, TB_OOB_ERROR);
  tb_buffer* out = nullptr;
  EXPECT_EQ(tb_scatter_elements(tensor.get, indices.get, updates.get, &error, &out),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_scatter_elements: indices[1] = 3 is out of range for axis 0 of shape [3]");
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(tb_scatter_elements_in_place(tensor.get, indices.get, updates.get, &error),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_scatter_elements_in_place: indices[1] = 3 is out of range for axis 0 of shape "
            "[3]");
  EXPECT_EQ(contents<float>(tensor.get, 3), t0);
  const tb_scatter_elements_options drop = scatter_axis(0, TB_REDUCTION_ADD, TB_OOB_DROP);
  ASSERT_EQ(tb_scatter_elements_in_place(tensor.get, indices.get, updates.get, &drop), TB_OK)
      << tb_last_error();
  EXPECT_EQ(contents<float>(tensor.get, 3), (F{8, 2, 12}));
}

TEST(CApiScatterElements, ArgumentErrorsNameTheProblemAndWriteNothing) {
  const F t0 = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  Handle tensor{make_buffer<float>(TB_FLOAT32, {3, 3}, t0)};
  Handle indices{make_buffer<std::int32_t>(TB_INT32, {1, 2}, I{0, 1})};
  Handle updates{make_buffer<float>(TB_FLOAT32, {1, 2}, F{1, 2})};
  Handle flat{make_buffer<std::int32_t>(TB_INT32, {2}, I{0, 1})};
  Handle int_updates{make_buffer<std::int32_t>(TB_INT32, {1, 2}, I{1, 2})};
  Handle flag_updates{make_buffer<std::uint8_t>(TB_BOOL, {2}, std::vector<std::uint8_t>{0, 1})};
  tb_buffer* out = nullptr;
  const tb_scatter_elements_options axis_bad = scatter_axis(-3, TB_REDUCTION_NONE);
  EXPECT_EQ(tb_scatter_elements_in_place(tensor.get, indices.get, updates.get, &axis_bad),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_scatter_elements_in_place: scatter_elements: axis = -3 is out of range for "
            "tensor of rank 2 (shape [3,3])");
  EXPECT_EQ(tb_scatter_elements(tensor.get, flat.get, updates.get, nullptr, &out),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_scatter_elements: scatter_elements: indices shape [2] must have the rank of "
            "tensor shape [3,3]");
  EXPECT_EQ(tb_scatter_elements_in_place(tensor.get, indices.get, int_updates.get, nullptr),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_scatter_elements_in_place: scatter_elements: updates must have the tensor's "
            "dtype float32, got int32");
  const tb_scatter_elements_options max = scatter_axis(0, TB_REDUCTION_MAX);
  Handle bools{make_buffer<std::uint8_t>(TB_BOOL, {3}, std::vector<std::uint8_t>{0, 0, 0})};
  EXPECT_EQ(tb_scatter_elements(bools.get, flat.get, flag_updates.get, &max, &out),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_scatter_elements: scatter_elements: reduction max is not defined on bool");
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(contents<float>(tensor.get, 9), t0);
}

TEST(CApiElements, StructSizeTooSmallIsRefused) {
  Handle params{make_buffer<float>(TB_FLOAT32, {2}, F{1, 2})};
  Handle indices{make_buffer<std::int32_t>(TB_INT32, {1}, I{0})};
  Handle updates{make_buffer<float>(TB_FLOAT32, {1}, F{5})};
  const tb_gather_options small{8, TB_OOB_DEFAULT, 0, 0, nullptr, nullptr};
  tb_scatter_elements_options small_scatter = scatter_axis(0, TB_REDUCTION_NONE);
  small_scatter.struct_size = sizeof(tb_scatter_elements_options) - 1;
  tb_buffer* out = nullptr;
  EXPECT_EQ(tb_gather(params.get, indices.get, &small, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_gather: options->struct_size is 8, expected at least " +
                std::to_string(sizeof(tb_gather_options)));
  EXPECT_EQ(tb_gather_elements(params.get, indices.get, &small, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(tb_scatter_elements(params.get, indices.get, updates.get, &small_scatter, &out),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_scatter_elements: options->struct_size is " +
                std::to_string(sizeof(tb_scatter_elements_options) - 1) +
                ", expected at least " + std::to_string(sizeof(tb_scatter_elements_options)));
  EXPECT_EQ(tb_scatter_elements_in_place(params.get, indices.get, updates.get, &small_scatter),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(contents<float>(params.get, 2), (F{1, 2}));
}

TEST(CApiElements, NullArgumentsAreInvalid) {
  Handle params{make_buffer<float>(TB_FLOAT32, {2}, F{1, 2})};
  Handle indices{make_buffer<std::int32_t>(TB_INT32, {1}, I{0})};
  Handle updates{make_buffer<float>(TB_FLOAT32, {1}, F{5})};
  EXPECT_EQ(tb_gather(params.get, indices.get, nullptr, nullptr), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()), "tb_gather: out is NULL");
  EXPECT_EQ(tb_gather_elements(nullptr, indices.get, nullptr, nullptr), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()), "tb_gather_elements: params is NULL");
  EXPECT_EQ(tb_scatter_elements_in_place(params.get, indices.get, nullptr, nullptr),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()), "tb_scatter_elements_in_place: updates is NULL");
  EXPECT_EQ(contents<float>(params.get, 2), (F{1, 2}));
}

}  // namespace
}  // namespace tensorbuf::testing
