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

// The handle arguments of calls.cpp's table, all told: 60 (11 of them the processing ops', 2
// gather_nd's, 10 the elements ops', 7 the Processor's: 4 processors, 3 buffers), and 12 for
// each scatter combine's four functions.
constexpr int kHandleArguments = 60 + 12 * static_cast<int>(kScatterCombines.size());

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

// A normalize(1, 2) processor, already destroyed.
tb_processor* destroyed_processor() {
  tb_processor* p = make_processor({tb_process_step{0, TB_STEP_NORMALIZE, 1.0f, 2.0f}});
  tb_processor_destroy(p);
  return p;
}

// Arguments built right after a destroy: their first buffer (`tensor`) takes the memory or the
// table slot the destroyed handle had, so a stale call that got through would write it; their
// processor takes the destroyed processor's slot.
struct AfterReuse {
  tb_buffer* stale = destroyed_buffer();
  tb_processor* stale_processor = destroyed_processor();
  CApiArguments a;
};

// Runs every call with `stand_in` (from make_stand_in, given the arguments: a tb_buffer* for a
// buffer argument, a tb_processor* for a processor argument) in place of each handle argument
// in turn, and checks that it fails, naming the argument, and changes nothing.
template <class MakeArguments, class StandIn, class ProcessorStandIn>
void every_handle_argument_refuses(MakeArguments make_arguments, StandIn make_stand_in,
                                   ProcessorStandIn make_processor_stand_in) {
  int handles = 0;
  for (const CApiCall& c : all_calls()) {
    for (int k = 0; k < c.pointer_count; ++k) {
      auto holder = make_arguments();
      CApiArguments& a = holder->a;
      a.stand_in = make_stand_in(*holder);
      a.processor_stand_in = make_processor_stand_in(*holder);
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
                                [](AfterReuse& r) { return r.stale; },
                                [](AfterReuse& r) { return r.stale_processor; });
}

struct Arguments {
  CApiArguments a;
};

// Values no call ever returned: small integers, real memory that is not a handle, all bits set,
// a live handle's value changed by one (no live handle's neighbour is a handle).
TEST(CApiHandles, ForgedHandleInEveryArgument) {
  alignas(64) static std::uint64_t not_a_handle[16] = {};
  for (auto& word : not_a_handle) word = ~std::uint64_t{0};
  // Each forge makes a value from the live handle of the argument's type (its bits).
  using Forge = std::uintptr_t (*)(std::uintptr_t live);
  const Forge forged[] = {
      [](std::uintptr_t) { return std::uintptr_t{0x5e11}; },
      [](std::uintptr_t) { return std::uintptr_t{1}; },
      [](std::uintptr_t) { return reinterpret_cast<std::uintptr_t>(&not_a_handle[0]); },
      [](std::uintptr_t) { return ~std::uintptr_t{0}; },
      [](std::uintptr_t live) { return live + 1; },
      [](std::uintptr_t live) { return live - 1; },
  };
  const auto bits = [](const void* handle) { return reinterpret_cast<std::uintptr_t>(handle); };
  for (std::size_t f = 0; f < std::size(forged); ++f) {
    SCOPED_TRACE("forged value " + std::to_string(f));
    const Forge forge = forged[f];
    every_handle_argument_refuses(
        [] { return std::make_unique<Arguments>(); },
        [&](Arguments& h) { return reinterpret_cast<tb_buffer*>(forge(bits(h.a.tensor.get))); },
        [&](Arguments& h) {
          return reinterpret_cast<tb_processor*>(forge(bits(h.a.processor.get)));
        });
  }
  // Destroy refuses them too, and leaves the live buffers and processors alone.
  Arguments h;
  for (const Forge forge : forged) {
    tb_buffer_destroy(reinterpret_cast<tb_buffer*>(forge(bits(h.a.tensor.get))));
    EXPECT_EQ(std::string(tb_last_error()),
              "tb_buffer_destroy: buffer is a destroyed or invalid handle");
    tb_processor_destroy(reinterpret_cast<tb_processor*>(forge(bits(h.a.processor.get))));
    EXPECT_EQ(std::string(tb_last_error()),
              "tb_processor_destroy: processor is a destroyed or invalid handle");
  }
  EXPECT_EQ(contents<float>(h.a.tensor.get, 8), F(8, 1.0f));
  std::int64_t steps = 0;
  EXPECT_EQ(tb_processor_step_count(h.a.processor.get, &steps), TB_OK);
  EXPECT_EQ(steps, 1);
}

// A handle of one type given as the other: refused by name, both ways, in every function that
// takes one, and destroy leaves it alive.
TEST(CApiHandles, BufferAndProcessorHandlesAreNotInterchangeable) {
  CApiArguments a;
  tb_processor* const buffer_as_processor = reinterpret_cast<tb_processor*>(a.tensor.get);
  tb_buffer* const processor_as_buffer = reinterpret_cast<tb_buffer*>(a.processor.get);
  EXPECT_EQ(tb_processor_run(buffer_as_processor, a.tensor.get, nullptr, &a.out),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_processor_run: processor is a tb_buffer handle, not a tb_processor");
  EXPECT_EQ(tb_processor_step_count(buffer_as_processor, &a.step_count), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_processor_step_count: processor is a tb_buffer handle, not a tb_processor");
  EXPECT_EQ(tb_processor_run(a.processor.get, processor_as_buffer, nullptr, &a.out),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_processor_run: x is a tb_processor handle, not a tb_buffer");
  EXPECT_EQ(tb_processor_run_into(a.processor.get, a.tensor.get, processor_as_buffer, nullptr),
            TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_processor_run_into: out is a tb_processor handle, not a tb_buffer");
  tb_dtype type = TB_BOOL;
  EXPECT_EQ(tb_buffer_dtype(processor_as_buffer, &type), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_buffer_dtype: buffer is a tb_processor handle, not a tb_buffer");
  EXPECT_TRUE(a.outputs_untouched());
  tb_processor_destroy(buffer_as_processor);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_processor_destroy: processor is a tb_buffer handle, not a tb_processor");
  tb_buffer_destroy(processor_as_buffer);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_buffer_destroy: buffer is a tb_processor handle, not a tb_buffer");
  // Both still alive.
  EXPECT_EQ(tb_buffer_dtype(a.tensor.get, &type), TB_OK);
  EXPECT_EQ(type, TB_FLOAT32);
  EXPECT_EQ(tb_processor_step_count(a.processor.get, &a.step_count), TB_OK);
  EXPECT_EQ(a.step_count, 1);
}

// A processor slot reused: the earlier handle stays dead, the new one works.
TEST(CApiHandles, DestroyedProcessorStaysDeadAfterItsSlotIsReused) {
  tb_processor* const stale = destroyed_processor();
  ProcessorHandle fresh(make_processor({tb_process_step{0, TB_STEP_CAST, 0, 0, 0, 0, nullptr,
                                                        nullptr, 0, TB_INT8},
                                        tb_process_step{0, TB_STEP_NORMALIZE, 1.0f, 2.0f}}));
  ASSERT_NE(stale, fresh.get);
  std::int64_t steps = -1;
  EXPECT_EQ(tb_processor_step_count(stale, &steps), TB_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_processor_step_count: processor is a destroyed or invalid handle");
  EXPECT_EQ(steps, -1);
  tb_processor_destroy(stale);
  EXPECT_EQ(std::string(tb_last_error()),
            "tb_processor_destroy: processor is a destroyed or invalid handle");
  EXPECT_EQ(tb_processor_step_count(fresh.get, &steps), TB_OK);
  EXPECT_EQ(steps, 2);
  tb_processor_destroy(nullptr);  // silent
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
