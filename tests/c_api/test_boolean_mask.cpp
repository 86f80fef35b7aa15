// tb_boolean_mask, tb_boolean_mask_into and tb_compress: values through the C ABI, NULL options
// as the defaults, every option field, and a struct_size too small for the struct. (NULL and
// stale handles: the table-driven tests of test_errors.cpp / test_handles.cpp.)
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "c_api/fixture.hpp"

namespace tensorbuf::testing {
namespace {

using F = std::vector<float>;

TEST(CApiBooleanMask, RowsWithDefaultAndGivenOptions) {
  Handle t{make_buffer<float>(TB_FLOAT32, {3, 2}, F{1, 2, 3, 4, 5, 6})};
  Handle rows_mask{make_buffer<std::uint8_t>(TB_BOOL, {3}, {1, 0, 1})};
  Handle out;
  ASSERT_EQ(tb_boolean_mask(t.get, rows_mask.get, nullptr, &out.get), TB_OK) << tb_last_error();
  EXPECT_EQ(contents<float>(out.get, 4), (F{1, 2, 5, 6}));
  Handle cols_mask{make_buffer<std::uint8_t>(TB_BOOL, {2}, {0, 1})};
  const tb_device cpu{0, 0};
  const tb_boolean_mask_options axis1{sizeof(tb_boolean_mask_options), -1, nullptr, &cpu};
  Handle cols;
  ASSERT_EQ(tb_boolean_mask(t.get, cols_mask.get, &axis1, &cols.get), TB_OK) << tb_last_error();
  int ndim = 0;
  std::int64_t shape[TB_MAX_NDIM] = {};
  ASSERT_EQ(tb_buffer_shape(cols.get, &ndim, shape), TB_OK);
  EXPECT_EQ(ndim, 2);
  EXPECT_EQ(shape[0], 3);
  EXPECT_EQ(shape[1], 1);
  EXPECT_EQ(contents<float>(cols.get, 3), (F{2, 4, 6}));
}

TEST(CApiBooleanMask, IntoWritesRowsAndCount) {
  Handle t{make_buffer<float>(TB_FLOAT32, {4}, F{1, 2, 3, 4})};
  Handle m{make_buffer<std::uint8_t>(TB_BOOL, {4}, {0, 1, 1, 1})};
  Handle out{make_buffer<float>(TB_FLOAT32, {2}, F{-1, -1})};
  Handle count{make_buffer<std::int64_t>(TB_INT64, {1}, {0})};
  ASSERT_EQ(tb_boolean_mask_into(t.get, m.get, out.get, count.get, nullptr), TB_OK)
      << tb_last_error();
  EXPECT_EQ(contents<float>(out.get, 2), (F{2, 3}));
  EXPECT_EQ(contents<std::int64_t>(count.get, 1), (std::vector<std::int64_t>{3}));
}

TEST(CApiBooleanMask, CompressWithAndWithoutAxis) {
  Handle x{make_buffer<float>(TB_FLOAT32, {3, 2}, F{1, 2, 3, 4, 5, 6})};
  Handle c{make_buffer<std::uint8_t>(TB_BOOL, {5}, {0, 1, 0, 0, 1})};
  Handle flat;
  ASSERT_EQ(tb_compress(x.get, c.get, nullptr, &flat.get), TB_OK) << tb_last_error();
  EXPECT_EQ(contents<float>(flat.get, 2), (F{2, 5}));
  Handle c2{make_buffer<std::uint8_t>(TB_BOOL, {3}, {0, 1, 1})};
  const tb_compress_options axis0{sizeof(tb_compress_options), 1, 0, nullptr, nullptr};
  Handle rows;
  ASSERT_EQ(tb_compress(x.get, c2.get, &axis0, &rows.get), TB_OK) << tb_last_error();
  EXPECT_EQ(contents<float>(rows.get, 4), (F{3, 4, 5, 6}));
}

TEST(CApiBooleanMask, StructSizeTooSmallIsRefused) {
  Handle t{make_buffer<float>(TB_FLOAT32, {2}, F{1, 2})};
  Handle m{make_buffer<std::uint8_t>(TB_BOOL, {2}, {1, 0})};
  const tb_boolean_mask_options small{4, 0, nullptr, nullptr};
  tb_buffer* out = nullptr;
  EXPECT_EQ(tb_boolean_mask(t.get, m.get, &small, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_boolean_mask: options->struct_size is 4, expected at least " +
                std::to_string(sizeof(tb_boolean_mask_options)));
  EXPECT_EQ(out, nullptr);
  const tb_compress_options small_compress{8, 1, 0, nullptr, nullptr};
  EXPECT_EQ(tb_compress(t.get, m.get, &small_compress, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(out, nullptr);
}

}  // namespace
}  // namespace tensorbuf::testing
