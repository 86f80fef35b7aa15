// boolean_mask_update on each device against the CPU, and the steady-state promise on
// device-resident inputs: no host waits, no host copies, no device allocations inside the op
// (one wait, for n, only when the updates shape needs n checked). CUDA instances skip
// without a GPU; TENSORBUF_REQUIRE_CUDA=1 makes them fail instead.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "support/devices.hpp"
#include "tensorbuf/tensorbuf.hpp"
#include "test_boolean_mask_update_helpers.hpp"

namespace tensorbuf {
namespace {

using testing::mask_update::bytes;
using testing::mask_update::from_bytes;

class BooleanMaskUpdateDevice : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override { TENSORBUF_SKIP_WITHOUT_CUDA(GetParam()); }

  BooleanMaskUpdateOptions options(int axis = 0) const {
    BooleanMaskUpdateOptions o;
    o.device = GetParam();
    o.axis = axis;
    return o;
  }
};

std::vector<std::uint8_t> random_bytes(std::mt19937_64& rng, std::size_t n) {
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

std::vector<std::uint8_t> random_mask(std::mt19937_64& rng, std::size_t n, double density) {
  std::vector<std::uint8_t> v(n);
  std::bernoulli_distribution pick(density);
  for (auto& b : v) b = pick(rng) ? 1 : 0;
  return v;
}

std::int64_t count(const std::vector<std::uint8_t>& mask) {
  std::int64_t n = 0;
  for (std::uint8_t b : mask) n += b != 0;
  return n;
}

TEST_P(BooleanMaskUpdateDevice, MatchesCpuForEveryElementSizeAndForm) {
  std::mt19937_64 rng(42);
  for (DataType type :
       {DataType::kBool, DataType::kFloat16, DataType::kFloat32, DataType::kInt64}) {
    for (double density : {0.0, 0.01, 0.5, 1.0}) {
      SCOPED_TRACE(std::string(to_string(type)) + " density " + std::to_string(density));
      const std::size_t es = type_size(type);
      const std::vector<std::int64_t> tshape = {3, 5000, 4};
      const std::vector<std::uint8_t> tv = random_bytes(rng, 3 * 5000 * 4 * es);
      const std::vector<std::uint8_t> mv = random_mask(rng, 5000, density);
      const std::int64_t n = count(mv);
      const TensorBuffer t = from_bytes(type, Shape(tshape), tv);
      const TensorBuffer m = from_bytes(DataType::kBool, {5000}, mv);
      const std::vector<Shape> forms = {Shape{},     Shape{n, 4},    Shape{3, n, 4},
                                        Shape{1, 4}, Shape{3, 1, 1}, Shape{n, 1}};
      for (const Shape& us : forms) {
        SCOPED_TRACE("updates " + us.to_string());
        const TensorBuffer u = from_bytes(
            type, us, random_bytes(rng, static_cast<std::size_t>(us.num_elements()) * es));
        BooleanMaskUpdateOptions cpu = options(1);
        cpu.device = Device::cpu();
        const std::vector<std::uint8_t> expected = bytes(boolean_mask_update(t, m, u, cpu));
        EXPECT_EQ(bytes(boolean_mask_update(t, m, u, options(1))), expected);
        TensorBuffer target = from_bytes(type, Shape(tshape), tv);
        boolean_mask_update_in_place(target, m, u, options(1));
        EXPECT_EQ(bytes(target), expected);
      }
    }
  }
}

// Inputs valid on the op's device; a warm-up call fills the caching allocator.
struct Resident {
  TensorBuffer tensor, mask, updates_scalar, updates_rows;
};

Resident make_resident(Device device) {
  std::mt19937_64 rng(7);
  const std::int64_t rows = 1 << 16, inner = 4;
  const std::vector<std::uint8_t> mv = random_mask(rng, rows, 0.5);
  const std::int64_t n = count(mv);
  Resident r{from_bytes(DataType::kFloat32, {rows, inner}, random_bytes(rng, rows * inner * 4)),
             from_bytes(DataType::kBool, {rows}, mv),
             from_bytes(DataType::kFloat32, {1, inner}, random_bytes(rng, inner * 4)),
             from_bytes(DataType::kFloat32, {n, inner},
                        random_bytes(rng, static_cast<std::size_t>(n * inner * 4)))};
  for (const TensorBuffer* b : {&r.tensor, &r.mask, &r.updates_scalar, &r.updates_rows})
    b->sync_to(device);
  return r;
}

void expect_quiet(const Stats& s, std::int64_t waits) {
  EXPECT_EQ(s.host_waits, waits);
  EXPECT_EQ(s.device_to_host_copies, waits);  // the one read of n, when there is one
  EXPECT_EQ(s.bytes_device_to_host, waits * 4);  // n as the int32 scan holds it (M < 2^31)
  EXPECT_EQ(s.host_to_device_copies, 0);
  EXPECT_EQ(s.device_allocations, 0);
  EXPECT_EQ(s.pinned_host_allocations, 0);
}

TEST_P(BooleanMaskUpdateDevice, OutOfPlaceOnResidentInputsDoesNotTouchTheHost) {
  Resident r = make_resident(GetParam());
  { TensorBuffer warm = boolean_mask_update(r.tensor, r.mask, r.updates_scalar, options()); }
  reset_stats();
  TensorBuffer out = boolean_mask_update(r.tensor, r.mask, r.updates_scalar, options());
  expect_quiet(stats(), 0);
  EXPECT_TRUE(out.is_valid_on(GetParam()));
  if (GetParam().is_cuda()) {
    EXPECT_FALSE(out.is_valid_on(Device::cpu()));
  }
}

TEST_P(BooleanMaskUpdateDevice, InPlaceOnResidentInputsDoesNotTouchTheHost) {
  Resident r = make_resident(GetParam());
  boolean_mask_update_in_place(r.tensor, r.mask, r.updates_scalar, options());
  reset_stats();
  boolean_mask_update_in_place(r.tensor, r.mask, r.updates_scalar, options());
  expect_quiet(stats(), 0);
}

TEST_P(BooleanMaskUpdateDevice, RowsOfUpdatesNeedOneReadOfTheCount) {
  // updates [n, 4]: n must be checked on the host, so CUDA waits exactly once (4 bytes).
  Resident r = make_resident(GetParam());
  { TensorBuffer warm = boolean_mask_update(r.tensor, r.mask, r.updates_rows, options()); }
  reset_stats();
  TensorBuffer out = boolean_mask_update(r.tensor, r.mask, r.updates_rows, options());
  expect_quiet(stats(), GetParam().is_cuda() ? 1 : 0);
  reset_stats();
  boolean_mask_update_in_place(r.tensor, r.mask, r.updates_rows, options());
  expect_quiet(stats(), GetParam().is_cuda() ? 1 : 0);
}

TEST_P(BooleanMaskUpdateDevice, RunsWhereTheTensorLivesWithoutADevice) {
  Resident r = make_resident(GetParam());
  BooleanMaskUpdateOptions o;  // no device: the tensor's residence decides
  TensorBuffer out = boolean_mask_update(r.tensor, r.mask, r.updates_scalar, o);
  EXPECT_EQ(out.shape(), r.tensor.shape());
}

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(BooleanMaskUpdateDevice);

}  // namespace
}  // namespace tensorbuf
