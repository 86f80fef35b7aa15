// The option structs' layouts within ABI v1 (docs/c_api.md, "Rules of every call"): an older
// caller's struct_size (before `device` / `cache_mirror`) is taken and those fields default;
// the new fields are honoured; any other size is refused.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "c_api/fixture.hpp"
#include "support/test_device_memory.hpp"
#include "tensorbuf/runtime.hpp"
#include "tensorbuf/stats.hpp"

namespace tensorbuf::testing {
namespace {

using F = std::vector<float>;
const F kAdded = {1, 12, 1, 11, 10, 1, 1, 13};  // ones + updates {9, 10, 11, 12} at {4, 3, 1, 7}
const tb_device kCpu = {0, 0};
const tb_device kCuda0 = {1, 0};
const tb_device kBadKind = {7, 0};  // read, it would fail: "unknown tb_device kind 7"

// An older caller's struct: exactly `bytes` of memory (a read past them is ASan's to report),
// its fields copied from `full`'s first bytes.
template <class Options>
struct OlderStruct {
  OlderStruct(const Options& full, std::size_t bytes)
      : memory(static_cast<Options*>(std::malloc(bytes))) {
    std::memcpy(static_cast<void*>(memory), &full, bytes);
    memory->struct_size = bytes;
  }
  ~OlderStruct() { std::free(memory); }
  OlderStruct(const OlderStruct&) = delete;
  OlderStruct& operator=(const OlderStruct&) = delete;
  Options* memory;
};

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

TEST(CApiOptionLayouts, OlderScatterOptionsRunWhereTheTensorLives) {
  CApiArguments a;
  a.scatter.device = &kBadKind;  // beyond the older size: never read
  OlderStruct<tb_scatter_options> older(a.scatter, offsetof(tb_scatter_options, device));
  ASSERT_EQ(tb_tensor_scatter_nd_add_in_place_ex(a.tensor.get, a.indices.get, a.updates.get,
                                                 older.memory),
            TB_OK)
      << tb_last_error();
  EXPECT_EQ(contents<float>(a.tensor.get, 8), kAdded);
  ASSERT_EQ(
      tb_tensor_scatter_nd_add_ex(a.tensor.get, a.indices.get, a.updates.get, older.memory, &a.out),
      TB_OK)
      << tb_last_error();
  a.free_outputs();
}

TEST(CApiOptionLayouts, OlderMaskAndSubstrOptionsRunWhereTheirInputLives) {
  CApiArguments a;
  a.mask_update.device = &kBadKind;
  OlderStruct<tb_mask_update_options> mask(a.mask_update, offsetof(tb_mask_update_options, device));
  ASSERT_EQ(tb_boolean_mask_update_in_place_ex(a.tensor.get, a.mask.get, a.scalar.get, mask.memory),
            TB_OK)
      << tb_last_error();
  EXPECT_EQ(contents<float>(a.tensor.get, 8), (F{5, 1, 1, 1, 1, 1, 1, 5}));
  a.substr.device = &kBadKind;
  OlderStruct<tb_substr_options> substr(a.substr, offsetof(tb_substr_options, device));
  ASSERT_EQ(tb_substr(a.offsets.get, a.chars.get, 1, a.shape, a.pos.get, a.len.get, substr.memory,
                      &a.out, &a.out_chars, &a.ndim, a.dims),
            TB_OK)
      << tb_last_error();
  EXPECT_EQ(contents<std::int64_t>(a.out, 3), (std::vector<std::int64_t>{0, 3, 4}));  // ell, a
  a.free_outputs();
}

TEST(CApiOptionLayouts, NullDeviceIsWhereTheTensorLives) {
  CApiArguments a;
  a.scatter.device = nullptr;
  ASSERT_EQ(
      tb_tensor_scatter_nd_add_in_place_ex(a.tensor.get, a.indices.get, a.updates.get, &a.scatter),
      TB_OK)
      << tb_last_error();
  EXPECT_EQ(contents<float>(a.tensor.get, 8), kAdded);
}

TEST(CApiOptionLayouts, DeviceIsReadWhenTheSizeCoversIt) {
  CApiArguments a;
  a.scatter.device = &kBadKind;
  EXPECT_EQ(
      tb_tensor_scatter_nd_add_in_place_ex(a.tensor.get, a.indices.get, a.updates.get, &a.scatter),
      TB_INVALID_ARGUMENT);
  EXPECT_STREQ(tb_last_error(),
               "tb_tensor_scatter_nd_add_in_place_ex: unknown tb_device kind 7 (0: cpu, 1: cuda)");
  EXPECT_EQ(contents<float>(a.tensor.get, 8), F(8, 1.0f));
  a.mask_update.device = &kBadKind;
  EXPECT_EQ(
      tb_boolean_mask_update_ex(a.tensor.get, a.mask.get, a.scalar.get, &a.mask_update, &a.out),
      TB_INVALID_ARGUMENT);
  a.substr.device = &kBadKind;
  EXPECT_EQ(tb_substr(a.offsets.get, a.chars.get, 1, a.shape, a.pos.get, a.len.get, &a.substr,
                      &a.out, &a.out_chars, &a.ndim, a.dims),
            TB_INVALID_ARGUMENT);
  EXPECT_TRUE(a.outputs_untouched());
}

// A CUDA-home tensor (host memory posing as device memory) and device = cpu: the op runs on the
// CPU, reading the home on the host and writing the result back to it.
TEST(CApiOptionLayouts, DeviceCpuRunsOnTheCpu) {
  ScopedTestDeviceMemory memory;
  float block[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  const std::int64_t shape[1] = {8};
  tb_buffer* borrowed = nullptr;
  ASSERT_EQ(tb_buffer_borrow(block, TB_FLOAT32, 1, shape, kCuda0, 0, nullptr, &borrowed), TB_OK)
      << tb_last_error();
  Handle tensor(borrowed);
  CApiArguments a;
  a.scatter.device = &kCpu;
  reset_stats();
  ASSERT_EQ(
      tb_tensor_scatter_nd_add_in_place_ex(tensor.get, a.indices.get, a.updates.get, &a.scatter),
      TB_OK)
      << tb_last_error();
  EXPECT_EQ(F(block, block + 8), kAdded);
  EXPECT_EQ(stats().device_to_host_copies, 1);  // the home, read on the host
  EXPECT_EQ(stats().host_to_device_copies, 1);  // the result, written back
  EXPECT_EQ(memory->downloads(), 1);
}

// device = cuda:0: on a machine without a usable GPU every op fails with TB_UNAVAILABLE and
// says why, its outputs untouched; with one, it runs there and gives the CPU's result.
TEST(CApiOptionLayouts, DeviceCudaRunsOnTheGpuOrIsUnavailable) {
  CApiArguments a;
  a.scatter.device = &kCuda0;
  a.mask_update.device = &kCuda0;
  a.substr.device = &kCuda0;
  const tb_status scatter =
      tb_tensor_scatter_nd_add_in_place_ex(a.tensor.get, a.indices.get, a.updates.get, &a.scatter);
  if (cuda_available()) {
    ASSERT_EQ(scatter, TB_OK) << tb_last_error();
    EXPECT_EQ(contents<float>(a.tensor.get, 8), kAdded);
    return;
  }
  EXPECT_EQ(scatter, TB_UNAVAILABLE);
  EXPECT_TRUE(starts_with(tb_last_error(),
                          "tb_tensor_scatter_nd_add_in_place_ex: CUDA requested but unavailable: "))
      << tb_last_error();
  EXPECT_EQ(contents<float>(a.tensor.get, 8), F(8, 1.0f));
  EXPECT_EQ(
      tb_tensor_scatter_nd_sub_ex(a.tensor.get, a.indices.get, a.updates.get, &a.scatter, &a.out),
      TB_UNAVAILABLE);
  EXPECT_EQ(
      tb_boolean_mask_update_ex(a.tensor.get, a.mask.get, a.scalar.get, &a.mask_update, &a.out),
      TB_UNAVAILABLE);
  EXPECT_TRUE(starts_with(tb_last_error(), "tb_boolean_mask_update_ex: CUDA requested"))
      << tb_last_error();
  EXPECT_EQ(tb_substr(a.offsets.get, a.chars.get, 1, a.shape, a.pos.get, a.len.get, &a.substr,
                      &a.out, &a.out_chars, &a.ndim, a.dims),
            TB_UNAVAILABLE);
  EXPECT_TRUE(starts_with(tb_last_error(), "tb_substr: CUDA requested")) << tb_last_error();
  EXPECT_TRUE(a.outputs_untouched());
}

// Sizes that are no layout: shorter than the oldest, or ending inside `device`.
TEST(CApiOptionLayouts, OtherStructSizesAreRefused) {
  CApiArguments a;
  const std::size_t v1 = offsetof(tb_scatter_options, device);
  const std::string expected = "expected " + std::to_string(v1) +
                               " (an older layout) or at least " +
                               std::to_string(sizeof(tb_scatter_options));
  for (const std::size_t size : {std::size_t{0}, v1 - 1, v1 + 1, sizeof(tb_scatter_options) - 1}) {
    SCOPED_TRACE(size);
    a.scatter.struct_size = size;
    EXPECT_EQ(tb_tensor_scatter_nd_add_in_place_ex(a.tensor.get, a.indices.get, a.updates.get,
                                                   &a.scatter),
              TB_INVALID_ARGUMENT);
    EXPECT_EQ(std::string(tb_last_error()),
              "tb_tensor_scatter_nd_add_in_place_ex: "
              "options->struct_size is " +
                  std::to_string(size) + ", " + expected);
  }
  a.mask_update.struct_size = offsetof(tb_mask_update_options, device) - 8;
  EXPECT_EQ(
      tb_boolean_mask_update_in_place_ex(a.tensor.get, a.mask.get, a.scalar.get, &a.mask_update),
      TB_INVALID_ARGUMENT);
  a.substr.struct_size = offsetof(tb_substr_options, device) + 4;
  EXPECT_EQ(tb_substr(a.offsets.get, a.chars.get, 1, a.shape, a.pos.get, a.len.get, &a.substr,
                      &a.out, &a.out_chars, &a.ndim, a.dims),
            TB_INVALID_ARGUMENT);
  a.borrow.struct_size = offsetof(tb_borrow_desc, cache_mirror) - 8;
  EXPECT_EQ(tb_buffer_borrow_ex(&a.borrow, &a.out), TB_INVALID_ARGUMENT);
  EXPECT_TRUE(starts_with(tb_last_error(), "tb_buffer_borrow_ex: desc->struct_size is "));
  EXPECT_TRUE(a.outputs_untouched());
  EXPECT_EQ(contents<float>(a.tensor.get, 8), F(8, 1.0f));
}

// cache_mirror on a CUDA-home borrow: host reads keep their copy across calls until the owner
// calls tb_buffer_note_external_write; without it, or from an older desc that has no
// cache_mirror, every read copies from the home again.
TEST(CApiOptionLayouts, BorrowCacheMirrorIsHonoured) {
  for (const int cache_mirror : {1, 0, -1}) {  // -1: an older desc, the field not covered
    SCOPED_TRACE(cache_mirror);
    ScopedTestDeviceMemory memory;
    float block[2] = {1, 2};
    const std::int64_t shape[1] = {2};
    tb_borrow_desc desc{};
    desc.struct_size = sizeof desc;
    desc.data = block;
    desc.dtype = TB_FLOAT32;
    desc.ndim = 1;
    desc.shape = shape;
    desc.device = kCuda0;
    desc.cache_mirror = cache_mirror == 1 ? 1 : 0;
    tb_buffer* borrowed = nullptr;
    if (cache_mirror == -1) {
      desc.cache_mirror = 1;  // beyond the older size: never read
      OlderStruct<tb_borrow_desc> older(desc, offsetof(tb_borrow_desc, cache_mirror));
      ASSERT_EQ(tb_buffer_borrow_ex(older.memory, &borrowed), TB_OK) << tb_last_error();
    } else {
      ASSERT_EQ(tb_buffer_borrow_ex(&desc, &borrowed), TB_OK) << tb_last_error();
    }
    Handle b(borrowed);
    EXPECT_EQ(contents<float>(b.get, 2), (F{1, 2}));
    block[0] = 10;  // the owner writes its memory between calls
    EXPECT_EQ(contents<float>(b.get, 2), cache_mirror == 1 ? (F{1, 2}) : (F{10, 2}));
    EXPECT_EQ(memory->downloads(), cache_mirror == 1 ? 1 : 2);
    ASSERT_EQ(tb_buffer_note_external_write(b.get), TB_OK) << tb_last_error();
    EXPECT_EQ(contents<float>(b.get, 2), (F{10, 2}));
  }
}

}  // namespace
}  // namespace tensorbuf::testing
