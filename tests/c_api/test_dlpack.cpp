// DLPack imports from C with what fuzz_dlpack_import found (its corpus keeps the inputs): a
// device_type outside DLDeviceType's values, a byte_offset that wraps the address space, and
// bytes that run past its end. Each is TB_INVALID_ARGUMENT with the capsule's deleter run once.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "c_api/fixture.hpp"

namespace tensorbuf::testing {
namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

TEST(CApiDLPack, DeviceTypeOutsideTheEnumerationIsRefused) {
  alignas(8) float data[2] = {};
  VersionedCapsule capsule(data, {2}, kF32);
  const std::int32_t raw = -417828290;  // a C producer may store any int
  std::memcpy(&capsule.managed.dl_tensor.device.device_type, &raw, sizeof raw);
  tb_buffer* out = nullptr;
  EXPECT_EQ(tb_buffer_from_dlpack_versioned(capsule.get(), nullptr, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(out, nullptr);
  EXPECT_TRUE(contains(tb_last_error(), "DLPack: unsupported device type -417828290"))
      << tb_last_error();
  EXPECT_EQ(capsule.deleter_calls, 1);
}

TEST(CApiDLPack, ByteOffsetWrappingTheAddressSpaceIsRefused) {
  alignas(8) float data[2] = {};
  VersionedCapsule capsule(data, {2}, kF32);
  // data + byte_offset wraps to data - 16: aligned, so only the wrap itself is wrong.
  capsule.managed.dl_tensor.byte_offset = ~std::uint64_t{0} - 15;
  tb_buffer* out = nullptr;
  EXPECT_EQ(tb_buffer_from_dlpack_versioned(capsule.get(), nullptr, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(out, nullptr);
  EXPECT_TRUE(contains(tb_last_error(), " wraps around the address space")) << tb_last_error();
  EXPECT_EQ(capsule.deleter_calls, 1);
}

TEST(CApiDLPack, BytesRunningPastTheEndOfTheAddressSpaceAreRefused) {
  // 64 bytes claimed 32 bytes below the top of the address space (never dereferenced).
  VersionedCapsule capsule(reinterpret_cast<void*>(~std::uintptr_t{0} - 31), {16}, kF32);
  tb_buffer* out = nullptr;
  EXPECT_EQ(tb_buffer_from_dlpack_versioned(capsule.get(), nullptr, &out), TB_INVALID_ARGUMENT);
  EXPECT_EQ(out, nullptr);
  EXPECT_TRUE(contains(tb_last_error(),
                       "the 64 bytes of a [16] float32 tensor at data + "
                       "byte_offset = 0xffffffffffffffe0 run past the end of "
                       "the address space"))
      << tb_last_error();
  EXPECT_EQ(capsule.deleter_calls, 1);
  // Below the top, the same claim is memory a producer may have.
  VersionedCapsule last(reinterpret_cast<void*>(~std::uintptr_t{0} - 127), {16}, kF32);
  EXPECT_EQ(tb_buffer_from_dlpack_versioned(last.get(), nullptr, &out), TB_OK) << tb_last_error();
  tb_buffer_destroy(out);
  EXPECT_EQ(last.deleter_calls, 1);
}

}  // namespace
}  // namespace tensorbuf::testing
