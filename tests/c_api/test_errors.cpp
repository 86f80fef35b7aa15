// I4's error rules, for every function of the C API: each error class becomes its status and
// message, no exception escapes, outputs are untouched, NULL pointers are TB_INVALID_ARGUMENT.
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "c_api/c_api_internal.hpp"
#include "c_api/fixture.hpp"

// bad_enums.c: enum arguments outside their enumerations, passed from C.
extern "C" int tb_test_out_of_range_enums(tb_buffer* tensor, const tb_buffer* indices,
                                          const tb_buffer* updates, const tb_buffer* offsets,
                                          const tb_buffer* chars, const tb_buffer* pos,
                                          const tb_buffer* len);

namespace tensorbuf::testing {
namespace {

using c_api::InjectedFault;

struct FaultCase {
  InjectedFault fault;
  tb_status status;
};

// Every C++ error class, and what the C++ library might throw besides (std::bad_alloc, another
// std::exception, a foreign exception).
constexpr FaultCase kFaults[] = {
    {InjectedFault::kInvalidArgument, TB_INVALID_ARGUMENT},
    {InjectedFault::kOutOfRange, TB_OUT_OF_RANGE},
    {InjectedFault::kUnavailable, TB_UNAVAILABLE},
    {InjectedFault::kResourceExhausted, TB_RESOURCE_EXHAUSTED},
    {InjectedFault::kInternal, TB_INTERNAL},
    {InjectedFault::kBadAlloc, TB_RESOURCE_EXHAUSTED},
    {InjectedFault::kLogicError, TB_INTERNAL},
    {InjectedFault::kForeign, TB_INTERNAL},
};

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

TEST(CApiErrors, ValidArgumentsSucceed) {
  for (const CApiCall& c : all_calls()) {
    CApiArguments a;
    EXPECT_EQ(c.call(a, -1), TB_OK) << c.name << ": " << tb_last_error();
    a.free_outputs();
    if (c.name == "tb_buffer_from_dlpack_versioned") {
      EXPECT_EQ(a.capsule.deleter_calls, 1);
    }
  }
}

TEST(CApiErrors, EveryErrorClassThroughEveryFunction) {
  for (const CApiCall& c : all_calls()) {
    for (const FaultCase& f : kFaults) {
      SCOPED_TRACE(c.name + " fault " + std::to_string(static_cast<int>(f.fault)));
      CApiArguments a;
      c_api::inject_fault_for_testing(f.fault);
      EXPECT_EQ(c.call(a, -1), f.status);
      EXPECT_TRUE(a.outputs_untouched());
      EXPECT_TRUE(starts_with(tb_last_error(), c.name + ": ")) << tb_last_error();
      EXPECT_EQ(contents<float>(a.tensor.get, 8), std::vector<float>(8, 1.0f));
      // An import consumes its capsule even when it fails.
      if (c.name == "tb_buffer_from_dlpack_versioned") {
        EXPECT_EQ(a.capsule.deleter_calls, 1);
      }
    }
  }
}

TEST(CApiErrors, NullPointerArgumentIsInvalidArgument) {
  for (const CApiCall& c : all_calls()) {
    for (int k = 0; k < c.pointer_count; ++k) {
      SCOPED_TRACE(c.name + " NULL argument " + std::to_string(k));
      CApiArguments a;
      EXPECT_EQ(c.call(a, k), TB_INVALID_ARGUMENT);
      EXPECT_TRUE(a.outputs_untouched());
      EXPECT_TRUE(starts_with(tb_last_error(), c.name + ": ")) << tb_last_error();
      EXPECT_EQ(contents<float>(a.tensor.get, 8), std::vector<float>(8, 1.0f));
      if (c.name == "tb_buffer_from_dlpack_versioned") {
        EXPECT_EQ(a.capsule.deleter_calls, k == 0 ? 0 : 1);  // a NULL capsule has no deleter
      }
    }
  }
}

TEST(CApiErrors, DestroyIsNullSafe) { tb_buffer_destroy(nullptr); }

TEST(CApiErrors, LastErrorIsPerThread) {
  tb_buffer* out = nullptr;
  ASSERT_EQ(tb_buffer_create(TB_FLOAT32, -1, nullptr, &out), TB_INVALID_ARGUMENT);
  const std::string mine = tb_last_error();
  std::string theirs;
  std::thread([&] {
    theirs = tb_last_error();
    EXPECT_EQ(tb_buffer_dtype(nullptr, nullptr), TB_INVALID_ARGUMENT);
  }).join();
  EXPECT_EQ(theirs, "");
  EXPECT_EQ(tb_last_error(), mine);
  EXPECT_EQ(mine, "tb_buffer_create: ndim is negative: -1");
}

TEST(CApiErrors, EnumValuesOutsideTheirRange) {
  CApiArguments a;
  EXPECT_EQ(tb_test_out_of_range_enums(a.tensor.get, a.indices.get, a.updates.get, a.offsets.get,
                                       a.chars.get, a.pos.get, a.len.get),
            0);
  EXPECT_EQ(tb_buffer_borrow(a.borrowed, TB_FLOAT32, 1, a.shape, {2, 0}, 0, nullptr, &a.out),
            TB_INVALID_ARGUMENT);  // tb_device::kind
  EXPECT_TRUE(a.outputs_untouched());
  EXPECT_EQ(contents<float>(a.tensor.get, 8), std::vector<float>(8, 1.0f));
}

TEST(CApiErrors, OptionsStructTooSmall) {
  CApiArguments a;
  a.scatter.struct_size = sizeof(tb_scatter_options) - 1;
  a.mask_update.struct_size = 0;
  a.substr.struct_size = 4;
  a.borrow.struct_size = 8;
  EXPECT_EQ(
      tb_tensor_scatter_nd_sub_ex(a.tensor.get, a.indices.get, a.updates.get, &a.scatter, &a.out),
      TB_INVALID_ARGUMENT);
  EXPECT_EQ(
      tb_boolean_mask_update_in_place_ex(a.tensor.get, a.mask.get, a.scalar.get, &a.mask_update),
      TB_INVALID_ARGUMENT);
  EXPECT_EQ(tb_substr(a.offsets.get, a.chars.get, 1, a.shape, a.pos.get, a.len.get, &a.substr,
                      &a.out, &a.out_chars, &a.ndim, a.dims),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(tb_buffer_borrow_ex(&a.borrow, &a.out), TB_INVALID_ARGUMENT);
  EXPECT_TRUE(starts_with(tb_last_error(), "tb_buffer_borrow_ex: desc->struct_size is 8"))
      << tb_last_error();
  EXPECT_TRUE(a.outputs_untouched());
  EXPECT_EQ(contents<float>(a.tensor.get, 8), std::vector<float>(8, 1.0f));
}

}  // namespace
}  // namespace tensorbuf::testing
