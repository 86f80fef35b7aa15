// substr on CUDA against the CPU backend, and the no-round-trip rule: on device-resident inputs
// the op reads one value back (the output's total size) and nothing else. CUDA instances skip
// without a GPU (TENSORBUF_REQUIRE_CUDA=1 makes that a failure).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "support/devices.hpp"
#include "test_substr_harness.hpp"

namespace tensorbuf {
namespace {

using testing::Strings;

// n strings of average length about `avg`, a third multi-byte, a few with stray bytes.
Strings make_strings(std::int64_t n, int avg, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Strings out;
  out.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const int target = static_cast<int>(rng() % static_cast<std::uint64_t>(2 * avg + 1));
    std::string s;
    while (static_cast<int>(s.size()) < target) {
      const int r = static_cast<int>(rng() % 16);
      if (r < 10) {
        s += static_cast<char>('a' + rng() % 26);
      } else if (r < 14) {
        s += "\xc3\xa9";
      } else if (r < 15) {
        s += "\xf0\x9f\x98\x80";
      } else {
        s += static_cast<char>(0x80 + rng() % 64);
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

class SubstrOnDevice : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }
};

// Long and short strings (both the thread-per-string and the lanes-per-string paths), both
// units, both policies: the device's result equals the CPU's.
TEST_P(SubstrOnDevice, AgreesWithCpuBackend) {
  for (int avg : {6, 300}) {
    const std::int64_t n = avg > 100 ? 3000 : 50000;
    const Strings values = make_strings(n, avg, 7 + static_cast<std::uint64_t>(avg));
    std::mt19937_64 rng(99);
    std::vector<std::int64_t> pos;
    std::vector<std::int64_t> len;
    for (std::int64_t i = 0; i < n; ++i) {
      pos.push_back(static_cast<std::int64_t>(rng() % 11) - 5);
      len.push_back(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(avg)) - 1);
    }
    StringTensor in = StringTensor::from_strings(values, Shape{n});
    TensorBuffer p = testing::index_buffer(pos, Shape{n}, DataType::kInt32);
    TensorBuffer l = testing::index_buffer(len, Shape{n}, DataType::kInt32);
    for (SubstrUnit unit : {SubstrUnit::kByte, SubstrUnit::kUtf8Char}) {
      SubstrOptions cpu_options{
          .device = Device::cpu(), .unit = unit, .out_of_bounds = OutOfBoundsPolicy::kDrop};
      SubstrOptions dev_options = cpu_options;
      dev_options.device = GetParam();
      EXPECT_EQ(substr(in, p, l, dev_options).to_strings(),
                substr(in, p, l, cpu_options).to_strings());
      cpu_options.out_of_bounds = OutOfBoundsPolicy::kError;
      dev_options.out_of_bounds = OutOfBoundsPolicy::kError;
      std::string cpu_message;
      std::string dev_message;
      try {
        substr(in, p, l, cpu_options);
      } catch (const InvalidArgumentError& e) {
        cpu_message = e.what();
      }
      try {
        substr(in, p, l, dev_options);
      } catch (const InvalidArgumentError& e) {
        dev_message = e.what();
      }
      EXPECT_FALSE(cpu_message.empty());
      EXPECT_EQ(dev_message, cpu_message);
    }
  }
}

// Device-resident inputs: no upload, one download (the total, with kError's first bad index),
// at most one host wait (that read), no device allocation in steady state; the output stays on
// the device. On the CPU, nothing crosses at all.
TEST_P(SubstrOnDevice, NoHostRoundTripBeyondTheTotal) {
  const Device device = GetParam();
  const std::int64_t n = 20000;
  StringTensor in = StringTensor::from_strings(make_strings(n, 12, 3), Shape{n});
  TensorBuffer pos =
      testing::index_buffer(std::vector<std::int64_t>(n, 0), Shape{n}, DataType::kInt64);
  TensorBuffer len =
      testing::index_buffer(std::vector<std::int64_t>(n, 4), Shape{n}, DataType::kInt64);
  if (device.is_cuda()) {
    in.sync_to(device);
    pos.sync_to(device);
    len.sync_to(device);
  }
  for (SubstrUnit unit : {SubstrUnit::kByte, SubstrUnit::kUtf8Char}) {
    for (OutOfBoundsPolicy policy : {OutOfBoundsPolicy::kDrop, OutOfBoundsPolicy::kError}) {
      SubstrOptions options{.device = device, .unit = unit, .out_of_bounds = policy};
      { StringTensor warm = substr(in, pos, len, options); }  // fills the caching allocator
      reset_stats();
      StringTensor out = substr(in, pos, len, options);
      const Stats s = stats();
      EXPECT_EQ(s.host_to_device_copies, 0);
      EXPECT_EQ(s.device_allocations, 0);
      if (device.is_cuda()) {
        EXPECT_EQ(s.device_to_host_copies, 1);
        EXPECT_LE(s.bytes_device_to_host, 16);
        EXPECT_LE(s.host_waits, 1);
        EXPECT_TRUE(out.offsets().is_valid_on(device));
        EXPECT_FALSE(out.offsets().is_valid_on(Device::cpu()));
        EXPECT_EQ(out.residence(), device);
      } else {
        EXPECT_EQ(s.device_to_host_copies, 0);
        EXPECT_EQ(s.host_waits, 0);
      }
      EXPECT_EQ(out.size(), n);
    }
  }
}

// Without a device option the op follows its input: device-resident input runs on CUDA.
TEST_P(SubstrOnDevice, RunsWhereTheInputLives) {
  const Device device = GetParam();
  StringTensor in = StringTensor::from_strings(Strings{"Hello", "Hi"}, Shape{2});
  TensorBuffer pos = testing::index_buffer({3, 3}, Shape{2}, DataType::kInt32);
  TensorBuffer len = testing::index_buffer({1, 1}, Shape{2}, DataType::kInt32);
  if (device.is_cuda()) {
    // Device-only: written on the device, so the host copy is stale.
    in.sync_to(device);
    StringTensor moved = substr(in, testing::index_buffer({0}, Shape{}, DataType::kInt32),
                                testing::index_buffer({-1}, Shape{}, DataType::kInt32),
                                SubstrOptions{.device = device});
    ASSERT_EQ(moved.residence(), device);
    // CUDA's default policy drops.
    EXPECT_EQ(substr(moved, pos, len).to_strings(), (Strings{"l", ""}));
  } else {
    EXPECT_THROW(substr(in, pos, len), InvalidArgumentError);
  }
}

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(SubstrOnDevice);

}  // namespace
}  // namespace tensorbuf
