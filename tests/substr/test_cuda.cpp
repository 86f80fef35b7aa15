// substr on CUDA against the CPU backend, and the no-round-trip rule: on device-resident inputs
// the op reads one value back (the output's total size) and nothing else. CUDA instances skip
// without a GPU (TENSORBUF_REQUIRE_CUDA=1 makes that a failure).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "substr/helpers.hpp"
#include "support/devices.hpp"
#include "support/error_text.hpp"

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

// The first element out of range, in row-major order, from the independent reference; -1 when
// none. `expected` receives the kDrop result.
std::int64_t reference_run(const Strings& values, const std::vector<std::int64_t>& pos,
                           const std::vector<std::int64_t>& len, bool utf8, Strings* expected) {
  std::int64_t first_bad = -1;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto r = testing::reference_substr(values[i], pos[i], len[i], utf8);
    if (!r && first_bad < 0) first_bad = static_cast<std::int64_t>(i);
    expected->push_back(r.value_or(""));
  }
  return first_bad;
}

// Long and short strings (both the thread-per-string and the lanes-per-string paths), both
// units, both policies: each device's result equals the independent reference; under kError
// the message names the reference's first bad element, and CUDA's equals the CPU's.
TEST_P(SubstrOnDevice, AgreesWithReferenceAndCpuBackend) {
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
      Strings expected;
      const std::int64_t first_bad =
          reference_run(values, pos, len, unit == SubstrUnit::kUtf8Char, &expected);
      ASSERT_GE(first_bad, 0);  // the case must exercise kError's failure
      SubstrOptions cpu_options{
          .device = Device::cpu(), .unit = unit, .out_of_bounds = OutOfBoundsPolicy::kDrop};
      SubstrOptions dev_options = cpu_options;
      dev_options.device = GetParam();
      EXPECT_EQ(substr(in, p, l, dev_options).to_strings(), expected);
      cpu_options.out_of_bounds = OutOfBoundsPolicy::kError;
      dev_options.out_of_bounds = OutOfBoundsPolicy::kError;
      const std::string dev_message =
          testing::invalid_argument_text([&] { substr(in, p, l, dev_options); });
      const std::string prefix =
          "pos " + std::to_string(pos[static_cast<std::size_t>(first_bad)]) + " out of range";
      EXPECT_EQ(dev_message.rfind(prefix, 0), 0u) << dev_message;
      EXPECT_TRUE(testing::names_element(dev_message, first_bad)) << dev_message;
      if (GetParam().is_cuda()) {
        EXPECT_EQ(dev_message,
                  testing::invalid_argument_text([&] { substr(in, p, l, cpu_options); }));
      }
    }
  }
}

// Device-resident inputs: no upload, one download (the total, with kError's first bad index),
// at most one host wait (that read), no device allocation in steady state; the output stays on
// the device. Short and long strings (thread and lanes per string), pos/len per element and
// scalar (broadcast), and a kError call that fails. On the CPU, nothing crosses at all.
TEST_P(SubstrOnDevice, NoHostRoundTripBeyondTheTotal) {
  const Device device = GetParam();
  for (int avg : {12, 300}) {
    const std::int64_t n = avg > 100 ? 2000 : 20000;
    const Strings values = make_strings(n, avg, 3);
    StringTensor in = StringTensor::from_strings(values, Shape{n});
    for (bool scalar : {false, true}) {
      const std::int64_t m = scalar ? 1 : n;
      const Shape shape = scalar ? Shape{} : Shape{n};
      TensorBuffer pos =
          testing::index_buffer(std::vector<std::int64_t>(m, 0), shape, DataType::kInt64);
      TensorBuffer len =
          testing::index_buffer(std::vector<std::int64_t>(m, 4), shape, DataType::kInt64);
      TensorBuffer bad_pos =
          testing::index_buffer(std::vector<std::int64_t>(m, 5 * avg), shape, DataType::kInt64);
      if (device.is_cuda()) {
        in.sync_to(device);
        pos.sync_to(device);
        len.sync_to(device);
        bad_pos.sync_to(device);
      }
      for (SubstrUnit unit : {SubstrUnit::kByte, SubstrUnit::kUtf8Char}) {
        SCOPED_TRACE(::testing::Message() << "avg " << avg << (scalar ? " scalar" : " per element")
                                          << (unit == SubstrUnit::kByte ? " byte" : " utf8"));
        Strings expected;
        for (const std::string& v : values) {
          expected.push_back(
              testing::reference_substr(v, 0, 4, unit == SubstrUnit::kUtf8Char).value());
        }
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
          EXPECT_EQ(out.to_strings(), expected);
        }
        // Every pos beyond its string: the first read carries the first bad index (0).
        SubstrOptions strict{
            .device = device, .unit = unit, .out_of_bounds = OutOfBoundsPolicy::kError};
        testing::invalid_argument_text([&] { substr(in, bad_pos, len, strict); });  // warm
        reset_stats();
        const std::string message =
            testing::invalid_argument_text([&] { substr(in, bad_pos, len, strict); });
        const Stats s = stats();
        EXPECT_EQ(message.rfind("pos " + std::to_string(5 * avg) + " out of range", 0), 0u)
            << message;
        EXPECT_EQ(message.substr(message.size() - 11), " at index 0") << message;
        EXPECT_EQ(s.host_to_device_copies, 0);
        EXPECT_EQ(s.device_allocations, 0);
        // The total with the bad index, then that element's pos (8 bytes), never all of pos.
        EXPECT_EQ(s.device_to_host_copies, device.is_cuda() ? 2 : 0);
        EXPECT_LE(s.bytes_device_to_host, device.is_cuda() ? 24 : 0);
      }
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
