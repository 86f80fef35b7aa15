// The C API does what the C++ API does: ops in place and out of place on owned and borrowed
// memory, borrow's release, shapes, copies, substr over offsets + chars, DLPack both ways.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "c_api/c_api_internal.hpp"
#include "c_api/fixture.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::testing {
namespace {

using F = std::vector<float>;

struct ScatterCase {
  const char* name;
  tb_status (*in_place)(tb_buffer*, const tb_buffer*, const tb_buffer*, tb_oob, void*);
  tb_status (*out_of_place)(const tb_buffer*, const tb_buffer*, const tb_buffer*, tb_oob, void*,
                            tb_buffer**);
  tb_status (*in_place_ex)(tb_buffer*, const tb_buffer*, const tb_buffer*,
                           const tb_scatter_options*);
  tb_status (*out_of_place_ex)(const tb_buffer*, const tb_buffer*, const tb_buffer*,
                               const tb_scatter_options*, tb_buffer**);
  F expected;  // of ones, indices {4, 3, 1, 7}, updates {9, 10, 11, 12}
};

#define TB_SCATTER_CASE_(op, ...)                                                            \
  ScatterCase {                                                                              \
#op, tb_tensor_scatter_nd_##op##_in_place, tb_tensor_scatter_nd_##op,                    \
        tb_tensor_scatter_nd_##op##_in_place_ex, tb_tensor_scatter_nd_##op##_ex, __VA_ARGS__ \
  }

TEST(CApi, FiveScattersEveryForm) {
  const ScatterCase cases[] = {
      TB_SCATTER_CASE_(sub, F{1, -10, 1, -9, -8, 1, 1, -11}),
      TB_SCATTER_CASE_(add, F{1, 12, 1, 11, 10, 1, 1, 13}),
      TB_SCATTER_CASE_(update, F{1, 11, 1, 10, 9, 1, 1, 12}),
      TB_SCATTER_CASE_(min, F{1, 1, 1, 1, 1, 1, 1, 1}),
      TB_SCATTER_CASE_(max, F{1, 11, 1, 10, 9, 1, 1, 12}),
  };
  for (const ScatterCase& c : cases) {
    SCOPED_TRACE(c.name);
    CApiArguments a;
    ASSERT_EQ(
        c.out_of_place(a.tensor.get, a.indices.get, a.updates.get, TB_OOB_DEFAULT, nullptr, &a.out),
        TB_OK)
        << tb_last_error();
    EXPECT_EQ(contents<float>(a.out, 8), c.expected);
    a.free_outputs();
    a.scatter.deterministic = 1;
    ASSERT_EQ(c.out_of_place_ex(a.tensor.get, a.indices.get, a.updates.get, &a.scatter, &a.out),
              TB_OK)
        << tb_last_error();
    EXPECT_EQ(contents<float>(a.out, 8), c.expected);
    a.free_outputs();
    EXPECT_EQ(contents<float>(a.tensor.get, 8), F(8, 1.0f));  // out of place: input unchanged
    ASSERT_EQ(c.in_place_ex(a.tensor.get, a.indices.get, a.updates.get, &a.scatter), TB_OK);
    EXPECT_EQ(contents<float>(a.tensor.get, 8), c.expected);
    // In place on the caller's own memory.
    float data[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    const std::int64_t shape[1] = {8};
    tb_buffer* borrowed = nullptr;
    ASSERT_EQ(tb_buffer_borrow(data, TB_FLOAT32, 1, shape, {0, 0}, 0, nullptr, &borrowed), TB_OK);
    Handle owner(borrowed);
    ASSERT_EQ(c.in_place(borrowed, a.indices.get, a.updates.get, TB_OOB_DEFAULT, nullptr), TB_OK);
    EXPECT_EQ(F(data, data + 8), c.expected);
  }
}

TEST(CApi, OutOfBoundsPolicies) {
  CApiArguments a;
  tb_buffer* bad = make_buffer<std::int32_t>(TB_INT32, {4, 1}, {4, 3, 8, 7});
  Handle owner(bad);
  EXPECT_EQ(
      tb_tensor_scatter_nd_add_in_place(a.tensor.get, bad, a.updates.get, TB_OOB_ERROR, nullptr),
      TB_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tb_last_error()).find("tb_tensor_scatter_nd_add_in_place: "),
            std::string::npos);
  EXPECT_EQ(contents<float>(a.tensor.get, 8), F(8, 1.0f));  // nothing written
  EXPECT_EQ(
      tb_tensor_scatter_nd_add_in_place(a.tensor.get, bad, a.updates.get, TB_OOB_DROP, nullptr),
      TB_OK);
  EXPECT_EQ(contents<float>(a.tensor.get, 8), (F{1, 1, 1, 11, 10, 1, 1, 13}));
}

TEST(CApi, ReadOnlyBorrowRefusesWritesAndStaysUnchanged) {
  CApiArguments a;
  float data[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  const std::int64_t shape[1] = {8};
  tb_buffer* b = nullptr;
  ASSERT_EQ(tb_buffer_borrow(data, TB_FLOAT32, 1, shape, {0, 0}, 1, nullptr, &b), TB_OK);
  Handle owner(b);
  EXPECT_EQ(
      tb_tensor_scatter_nd_sub_in_place(b, a.indices.get, a.updates.get, TB_OOB_DEFAULT, nullptr),
      TB_INVALID_ARGUMENT);
  EXPECT_EQ(tb_buffer_copy_from_host(b, a.host, sizeof a.host), TB_INVALID_ARGUMENT);
  EXPECT_EQ(F(data, data + 8), F(8, 1.0f));
  // Out of place reads it freely.
  ASSERT_EQ(
      tb_tensor_scatter_nd_sub(b, a.indices.get, a.updates.get, TB_OOB_DEFAULT, nullptr, &a.out),
      TB_OK);
  EXPECT_EQ(contents<float>(a.out, 8), (F{1, -10, 1, -9, -8, 1, 1, -11}));
  a.free_outputs();
}

TEST(CApi, BorrowExReleasesOnceAndNeverOnError) {
  int calls = 0;
  float data[4] = {1, 2, 3, 4};
  const std::int64_t shape[1] = {4};
  tb_borrow_desc desc{sizeof desc, data,    TB_FLOAT32,
                      1,           shape,   {0, 0},
                      0,           nullptr, [](void* ctx, void*) { ++*static_cast<int*>(ctx); },
                      &calls};
  tb_buffer* b = nullptr;
  ASSERT_EQ(tb_buffer_borrow_ex(&desc, &b), TB_OK) << tb_last_error();
  EXPECT_EQ(calls, 0);
  tb_buffer_destroy(b);
  EXPECT_EQ(calls, 1);
  desc.data = reinterpret_cast<char*>(data) + 1;  // misaligned: borrow fails
  b = nullptr;
  EXPECT_EQ(tb_buffer_borrow_ex(&desc, &b), TB_INVALID_ARGUMENT);
  EXPECT_EQ(b, nullptr);
  desc.data = data;
  c_api::inject_fault_for_testing(c_api::InjectedFault::kBadAlloc);
  EXPECT_EQ(tb_buffer_borrow_ex(&desc, &b), TB_RESOURCE_EXHAUSTED);
  EXPECT_EQ(calls, 1);
}

TEST(CApi, DtypeShapeAndCopies) {
  const std::int64_t dims[3] = {2, 3, 4};
  tb_buffer* b = nullptr;
  ASSERT_EQ(tb_buffer_create(TB_INT16, 3, dims, &b), TB_OK);
  Handle owner(b);
  tb_dtype dtype = TB_BOOL;
  int ndim = 0;
  std::int64_t shape[TB_MAX_NDIM] = {};
  ASSERT_EQ(tb_buffer_dtype(b, &dtype), TB_OK);
  ASSERT_EQ(tb_buffer_shape(b, &ndim, shape), TB_OK);
  EXPECT_EQ(dtype, TB_INT16);
  EXPECT_EQ(ndim, 3);
  EXPECT_EQ((std::vector<std::int64_t>(shape, shape + 3)), (std::vector<std::int64_t>{2, 3, 4}));
  std::vector<std::int16_t> values(24);
  for (int i = 0; i < 24; ++i) values[i] = static_cast<std::int16_t>(i - 5);
  EXPECT_EQ(tb_buffer_copy_from_host(b, values.data(), 47), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_buffer_copy_from_host: bytes is 47, the buffer holds 48");
  ASSERT_EQ(tb_buffer_copy_from_host(b, values.data(), 48), TB_OK);
  values.assign(24, 0);  // the buffer holds a copy
  std::vector<std::int16_t> back(24);
  EXPECT_EQ(tb_buffer_copy_to_host(b, back.data(), 49), TB_INVALID_ARGUMENT);
  ASSERT_EQ(tb_buffer_copy_to_host(b, back.data(), 48), TB_OK);
  EXPECT_EQ(back[0], -5);
  EXPECT_EQ(back[23], 18);
  // A scalar: rank 0.
  tb_buffer* s = nullptr;
  ASSERT_EQ(tb_buffer_create(TB_FLOAT64, 0, nullptr, &s), TB_OK);
  Handle scalar(s);
  ASSERT_EQ(tb_buffer_shape(s, &ndim, shape), TB_OK);
  EXPECT_EQ(ndim, 0);
  // Rank 9 cannot be reported in TB_MAX_NDIM entries: nothing is written.
  const std::int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 2};
  tb_buffer* big = nullptr;
  ASSERT_EQ(tb_buffer_create(TB_UINT8, 9, nine, &big), TB_OK);
  Handle big_owner(big);
  ndim = -1;
  shape[0] = 77;
  EXPECT_EQ(tb_buffer_shape(big, &ndim, shape), TB_OUT_OF_RANGE);
  EXPECT_EQ(ndim, -1);
  EXPECT_EQ(shape[0], 77);
  // C++ validation errors come through with their class and text.
  const std::int64_t negative[1] = {-2};
  tb_buffer* none = nullptr;
  EXPECT_EQ(tb_buffer_create(TB_UINT8, 1, negative, &none), TB_INVALID_ARGUMENT);
  EXPECT_EQ(none, nullptr);
}

TEST(CApi, SynchronizeAndAbi) {
  EXPECT_EQ(tb_abi_version(), TB_ABI_VERSION);
  EXPECT_EQ(tb_synchronize({0, 0}, nullptr), TB_OK);
  if (!cuda_available()) {
    EXPECT_EQ(tb_synchronize({1, 0}, nullptr), TB_UNAVAILABLE);
  }
}

TEST(CApi, BooleanMaskUpdateBothFormsAndEx) {
  CApiArguments a;
  ASSERT_EQ(tb_boolean_mask_update(a.tensor.get, a.mask.get, a.scalar.get, 0, nullptr, &a.out),
            TB_OK);
  EXPECT_EQ(contents<float>(a.out, 8), (F{5, 1, 1, 1, 1, 1, 1, 5}));
  a.free_outputs();
  // broadcast off: updates must hold one value per true mask entry.
  tb_buffer* two = make_buffer<float>(TB_FLOAT32, {2}, {7, 8});
  Handle owner(two);
  a.mask_update.broadcast = 0;
  EXPECT_EQ(
      tb_boolean_mask_update_ex(a.tensor.get, a.mask.get, a.scalar.get, &a.mask_update, &a.out),
      TB_INVALID_ARGUMENT);
  EXPECT_EQ(a.out, a.sentinel);
  ASSERT_EQ(tb_boolean_mask_update_in_place_ex(a.tensor.get, a.mask.get, two, &a.mask_update),
            TB_OK);
  EXPECT_EQ(contents<float>(a.tensor.get, 8), (F{7, 1, 1, 1, 1, 1, 1, 8}));
  ASSERT_EQ(tb_boolean_mask_update_in_place(a.tensor.get, a.mask.get, a.scalar.get, 0, nullptr),
            TB_OK);
  EXPECT_EQ(contents<float>(a.tensor.get, 8), (F{5, 1, 1, 1, 1, 1, 1, 5}));
}

TEST(CApi, SubstrOverBorrowedOffsetsAndChars) {
  CApiArguments a;
  // An Arrow large_string array's own buffers: {"hello", "ab"}.
  std::int64_t offsets[3] = {0, 5, 7};
  std::uint8_t chars[7] = {'h', 'e', 'l', 'l', 'o', 'a', 'b'};
  const std::int64_t n_offsets[1] = {3};
  const std::int64_t n_chars[1] = {7};
  tb_buffer* o = nullptr;
  tb_buffer* c = nullptr;
  ASSERT_EQ(tb_buffer_borrow(offsets, TB_INT64, 1, n_offsets, {0, 0}, 1, nullptr, &o), TB_OK);
  Handle o_owner(o);
  ASSERT_EQ(tb_buffer_borrow(chars, TB_UINT8, 1, n_chars, {0, 0}, 1, nullptr, &c), TB_OK);
  Handle c_owner(c);
  ASSERT_EQ(tb_substr(o, c, 1, a.shape, a.pos.get, a.len.get, nullptr, &a.out, &a.out_chars,
                      &a.ndim, a.dims),
            TB_OK)
      << tb_last_error();
  EXPECT_EQ(a.ndim, 1);
  EXPECT_EQ(a.dims[0], 2);
  EXPECT_EQ(contents<std::int64_t>(a.out, 3), (std::vector<std::int64_t>{0, 3, 4}));
  const std::vector<std::uint8_t> got = contents<std::uint8_t>(a.out_chars, 4);
  EXPECT_EQ(std::string(got.begin(), got.end()), "ella");
  a.free_outputs();
  a.ndim = -1;
  a.dims[0] = 0;
  // Offsets that break the layout: from_buffers' error, nothing written.
  offsets[1] = 9;
  EXPECT_EQ(tb_substr(o, c, 1, a.shape, a.pos.get, a.len.get, &a.substr, &a.out, &a.out_chars,
                      &a.ndim, a.dims),
            TB_INVALID_ARGUMENT);
  EXPECT_TRUE(a.outputs_untouched());
}

TEST(CApi, DLPackBothWays) {
  CApiArguments a;
  ASSERT_EQ(tb_buffer_to_dlpack_versioned(a.tensor.get, nullptr, &a.exported), TB_OK);
  DLManagedTensorVersioned* capsule = a.exported;
  a.exported = reinterpret_cast<DLManagedTensorVersioned*>(0x5e11);
  EXPECT_EQ(capsule->dl_tensor.ndim, 1);
  ASSERT_EQ(tb_buffer_from_dlpack_versioned(capsule, nullptr, &a.out), TB_OK);
  EXPECT_EQ(contents<float>(a.out, 8), F(8, 1.0f));
  a.free_outputs();  // runs the capsule's deleter
  // A capsule the import refuses is still consumed.
  VersionedCapsule other(a.borrowed, {8}, kF32);
  other.managed.version.major = 7;
  EXPECT_EQ(tb_buffer_from_dlpack_versioned(other.get(), nullptr, &a.out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(other.deleter_calls, 1);
  EXPECT_TRUE(a.outputs_untouched());
}

}  // namespace
}  // namespace tensorbuf::testing
