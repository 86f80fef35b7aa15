// Handle validation: a destroyed handle, also after its memory or table slot
// went to a new buffer, and a value that never was a handle are TB_INVALID_ARGUMENT in every
// argument of every function, and touch nothing; a second destroy is a no-op that records the
// error.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "c_api/fixture.hpp"
#include "tensorbuf/op_table.hpp"

namespace tensorbuf::testing {
namespace {

using F = std::vector<float>;

// The handle arguments of calls.cpp's table, all told: 53 (11 of them the processing ops', 2
// gather_nd's, 10 the elements ops'), and 12 for each scatter combine's four functions.
constexpr int kHandleArguments = 53 + 12 * static_cast<int>(kScatterCombines.size());

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

bool names_invalid_handle(const std::string& message) {
  return message.find(" is a destroyed or invalid handle") != std::string::npos;
}

// A float32 [8] buffer (CApiArguments::tensor's size), already destroyed.
tb_buffer* destroyed_buffer() {
  tb_buffer* b = make_buffer<float>(TB_FLOAT32, {8}, F(8, 3.0f));
  tb_buffer_destroy(b);
  return b;
}

// Arguments built right after a destroy: their first buffer (`tensor`) takes the memory or the
// table slot the destroyed handle had, so a stale call that got through would write it.
struct AfterReuse {
  tb_buffer* stale = destroyed_buffer();
  CApiArguments a;
};

// Runs every call with `stand_in` (from make_stand_in, given the arguments) in place of each
// handle argument in turn, and checks that it fails, naming the argument, and changes nothing.
template <class MakeArguments, class StandIn>
void every_handle_argument_refuses(MakeArguments make_arguments, StandIn make_stand_in) {
  int handles = 0;
  for (const CApiCall& c : all_calls()) {
    for (int k = 0; k < c.pointer_count; ++k) {
      auto holder = make_arguments();
      CApiArguments& a = holder->a;
      a.stand_in = make_stand_in(*holder);
      const tb_status status = c.call(a, k);
      if (a.stand_ins_passed == 0) continue;  // not a handle argument: NULL, tested elsewhere
      SCOPED_TRACE(c.name + " handle argument " + std::to_string(k));
      ++handles;
      EXPECT_EQ(status, TB_INVALID_ARGUMENT);
      EXPECT_TRUE(starts_with(tb_last_error(), c.name + ": ")) << tb_last_error();
      EXPECT_TRUE(names_invalid_handle(tb_last_error())) << tb_last_error();
      EXPECT_TRUE(a.outputs_untouched());
      if (!a.outputs_untouched()) a.free_outputs();
      EXPECT_EQ(contents<float>(a.tensor.get, 8), F(8, 1.0f));
    }
  }
  EXPECT_EQ(handles, kHandleArguments);
}

TEST(CApiHandles, DestroyedHandleInEveryArgumentAfterReuse) {
  every_handle_argument_refuses([] { return std::make_unique<AfterReuse>(); },
                                [](AfterReuse& r) { return r.stale; });
}

struct Arguments {
  CApiArguments a;
};

// Values no call ever returned: small integers, real memory that is not a handle, all bits set,
// a live handle's value changed by one (no live handle's neighbour is a handle).
TEST(CApiHandles, ForgedHandleInEveryArgument) {
  alignas(64) static std::uint64_t not_a_handle[16] = {};
  for (auto& word : not_a_handle) word = ~std::uint64_t{0};
  using Forge = tb_buffer* (*)(Arguments&);
  const Forge forged[] = {
      [](Arguments&) { return reinterpret_cast<tb_buffer*>(std::uintptr_t{0x5e11}); },
      [](Arguments&) { return reinterpret_cast<tb_buffer*>(std::uintptr_t{1}); },
      [](Arguments&) { return reinterpret_cast<tb_buffer*>(&not_a_handle[0]); },
      [](Arguments&) { return reinterpret_cast<tb_buffer*>(~std::uintptr_t{0}); },
      [](Arguments& h) {
        return reinterpret_cast<tb_buffer*>(reinterpret_cast<std::uintptr_t>(h.a.tensor.get) + 1);
      },
      [](Arguments& h) {
        return reinterpret_cast<tb_buffer*>(reinterpret_cast<std::uintptr_t>(h.a.tensor.get) - 1);
      },
  };
  for (std::size_t f = 0; f < std::size(forged); ++f) {
    SCOPED_TRACE("forged value " + std::to_string(f));
    every_handle_argument_refuses([] { return std::make_unique<Arguments>(); }, forged[f]);
  }
  // Destroy refuses them too, and leaves the live buffers alone.
  Arguments h;
  for (const Forge forge : forged) {
    tb_buffer_destroy(forge(h));
    EXPECT_EQ(std::string(tb_last_error()),
              "tb_buffer_destroy: buffer is a destroyed or invalid handle");
  }
  EXPECT_EQ(contents<float>(h.a.tensor.get, 8), F(8, 1.0f));
}

// The first case: a borrowed buffer's stale handle wrote the caller's array.
TEST(CApiHandles, StaleBorrowNeverTouchesTheCallerArray) {
  CApiArguments a;
  float data[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  const std::int64_t shape[1] = {8};
  tb_buffer* stale = nullptr;
  ASSERT_EQ(tb_buffer_borrow(data, TB_FLOAT32, 1, shape, {0, 0}, 0, nullptr, &stale), TB_OK);
  tb_buffer_destroy(stale);
  EXPECT_EQ(tb_tensor_scatter_nd_add_in_place(stale, a.indices.get, a.updates.get, TB_OOB_DEFAULT,
                                              nullptr),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_tensor_scatter_nd_add_in_place: tensor is a destroyed or invalid handle");
  const float twos[8] = {2, 2, 2, 2, 2, 2, 2, 2};
  EXPECT_EQ(tb_buffer_copy_from_host(stale, twos, sizeof twos), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_buffer_copy_from_host: buffer is a destroyed or invalid handle");
  EXPECT_EQ(F(data, data + 8), F(8, 1.0f));
}

// The second case: the stale handle wrote the buffer that reused its memory.
TEST(CApiHandles, StaleHandleLeavesTheBufferThatReusedItsMemoryAlone) {
  CApiArguments a;
  tb_buffer* stale = destroyed_buffer();
  Handle fresh(make_buffer<float>(TB_FLOAT32, {8}, F(8, 1.0f)));
  EXPECT_NE(stale, fresh.get);
  EXPECT_EQ(tb_tensor_scatter_nd_update_in_place(stale, a.indices.get, a.updates.get,
                                                 TB_OOB_DEFAULT, nullptr),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(tb_boolean_mask_update_in_place(stale, a.mask.get, a.scalar.get, 0, nullptr),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_boolean_mask_update_in_place: tensor is a destroyed or invalid handle");
  const float twos[8] = {2, 2, 2, 2, 2, 2, 2, 2};
  EXPECT_EQ(tb_buffer_copy_from_host(stale, twos, sizeof twos), TB_INVALID_ARGUMENT);
  EXPECT_EQ(contents<float>(fresh.get, 8), F(8, 1.0f));
  // The stale handle as a read-only input: the op fails instead of reading the new buffer.
  EXPECT_EQ(tb_tensor_scatter_nd_add_in_place(a.tensor.get, a.indices.get, stale, TB_OOB_DEFAULT,
                                              nullptr),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_tensor_scatter_nd_add_in_place: updates is a destroyed or invalid handle");
  EXPECT_EQ(contents<float>(a.tensor.get, 8), F(8, 1.0f));
}

// A slot reused many times: each earlier handle stays dead, only the newest one works.
TEST(CApiHandles, EveryEarlierHandleOfAReusedSlotStaysDead) {
  std::vector<tb_buffer*> dead;
  for (int i = 0; i < 300; ++i) dead.push_back(destroyed_buffer());
  Handle live(make_buffer<float>(TB_FLOAT32, {8}, F(8, 1.0f)));
  for (tb_buffer* d : dead) {
    ASSERT_NE(d, live.get);
    tb_dtype type = TB_BOOL;
    ASSERT_EQ(tb_buffer_dtype(d, &type), TB_INVALID_ARGUMENT);
    ASSERT_EQ(type, TB_BOOL);
  }
  tb_dtype type = TB_BOOL;
  EXPECT_EQ(tb_buffer_dtype(live.get, &type), TB_OK);
  EXPECT_EQ(type, TB_FLOAT32);
}

TEST(CApiHandles, SecondDestroyIsANoOpThatRecordsTheError) {
  Handle other(make_buffer<float>(TB_FLOAT32, {8}, F(8, 1.0f)));
  tb_buffer* b = make_buffer<float>(TB_FLOAT32, {8}, F(8, 3.0f));
  tb_buffer_destroy(b);
  tb_buffer_destroy(b);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_buffer_destroy: buffer is a destroyed or invalid handle");
  // Also after the slot went to a new buffer, which the second destroy leaves alive.
  Handle fresh(make_buffer<float>(TB_FLOAT32, {8}, F(8, 4.0f)));
  tb_buffer_destroy(b);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_buffer_destroy: buffer is a destroyed or invalid handle");
  EXPECT_EQ(contents<float>(fresh.get, 8), F(8, 4.0f));
  EXPECT_EQ(contents<float>(other.get, 8), F(8, 1.0f));
}

TEST(CApiHandles, DestroyNullIsSilent) {
  tb_buffer* out = nullptr;
  ASSERT_EQ(tb_buffer_create(TB_FLOAT32, -1, nullptr, &out), TB_INVALID_ARGUMENT);
  tb_buffer_destroy(nullptr);
  EXPECT_EQ(std::string(tb_last_error()), "tb_buffer_create: ndim is negative: -1");
}

// A destroyed input's buffer stays alive for what still uses it: an export, and an op's result.
TEST(CApiHandles, DestroyEndsTheHandleNotTheMemoryOthersUse) {
  CApiArguments a;
  ASSERT_EQ(tb_buffer_to_dlpack_versioned(a.tensor.get, nullptr, &a.exported), TB_OK);
  tb_buffer_destroy(a.tensor.get);
  const float* data = static_cast<const float*>(a.exported->dl_tensor.data);
  EXPECT_EQ(F(data, data + 8), F(8, 1.0f));
  a.free_outputs();
  a.tensor.get = nullptr;  // already destroyed
}

}  // namespace
}  // namespace tensorbuf::testing
