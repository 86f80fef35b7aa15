// boolean_mask_update on each device against the serial reference of the helpers header (and,
// on CUDA, against the CPU op), and the steady-state promise on device-resident inputs: no host
// waits, no host copies, no device allocations inside the op (one wait, for n, only when the
// updates shape needs n checked or broadcast = false), with the results checked too. CUDA
// instances skip without a GPU; TENSORBUF_REQUIRE_CUDA=1 makes them fail instead.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "boolean_mask_update/helpers.hpp"
#include "support/devices.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

using testing::mask_update::bytes;
using testing::mask_update::from_bytes;
using testing::mask_update::make_f32;
using testing::mask_update::make_mask;
using testing::mask_update::random_bytes;
using testing::mask_update::reference;

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

// Every instance against the serial reference of the helpers header (which shares no code with
// the backends); the CUDA instance also against the CPU op.
TEST_P(BooleanMaskUpdateDevice, MatchesReferenceForEveryElementSizeAndForm) {
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
        const std::vector<std::uint8_t> uv =
            random_bytes(rng, static_cast<std::size_t>(us.num_elements()) * es);
        const TensorBuffer u = from_bytes(type, us, uv);
        const auto expected = reference(tv, tshape, mv, {5000}, uv, us.dims(), es, 1, true);
        ASSERT_TRUE(expected.has_value());
        EXPECT_EQ(bytes(boolean_mask_update(t, m, u, options(1))), *expected);
        TensorBuffer target = from_bytes(type, Shape(tshape), tv);
        boolean_mask_update_in_place(target, m, u, options(1));
        EXPECT_EQ(bytes(target), *expected);
        if (GetParam().is_cuda()) {
          BooleanMaskUpdateOptions cpu = options(1);
          cpu.device = Device::cpu();
          EXPECT_EQ(bytes(boolean_mask_update(t, m, u, cpu)), *expected);
        }
      }
    }
  }
}

// The inputs of a stats case as host bytes (float32 tensor and updates).
struct StatsCase {
  std::vector<std::int64_t> tshape, mshape, ushape;
  std::vector<std::uint8_t> tv, mv, uv;
};

// Random tensor and updates; a random mask of `density`, or `mask` when given. A -1 in
// `ushape` becomes n.
StatsCase stats_case(std::uint64_t seed, std::vector<std::int64_t> tshape,
                     std::vector<std::int64_t> mshape, std::vector<std::int64_t> ushape,
                     double density = 0.5, std::vector<std::uint8_t> mask = {}) {
  std::mt19937_64 rng(seed);
  std::int64_t tsize = 1, msize = 1, usize = 1;
  for (std::int64_t d : tshape) tsize *= d;
  for (std::int64_t d : mshape) msize *= d;
  StatsCase c;
  c.tv = random_bytes(rng, static_cast<std::size_t>(tsize) * 4);
  c.mv =
      mask.empty() ? random_mask(rng, static_cast<std::size_t>(msize), density) : std::move(mask);
  const std::int64_t n = count(c.mv);
  for (std::int64_t& d : ushape) {
    if (d < 0) d = n;
    usize *= d;
  }
  c.uv = random_bytes(rng, static_cast<std::size_t>(usize) * 4);
  c.tshape = std::move(tshape);
  c.mshape = std::move(mshape);
  c.ushape = std::move(ushape);
  return c;
}

// Inputs valid on the op's device; a warm-up call fills the caching allocator.
struct Resident {
  TensorBuffer tensor, mask, updates_scalar, updates_rows;
  // Host bytes, for the reference.
  std::vector<std::uint8_t> tv, mv, usv, urv;
  std::int64_t n = 0;
  static constexpr std::int64_t kRows = 1 << 16, kInner = 4;

  // The result with updates_rows (rows) or updates_scalar, by the reference.
  std::vector<std::uint8_t> expected(bool rows) const {
    auto e = rows ? reference(tv, {kRows, kInner}, mv, {kRows}, urv, {n, kInner}, 4, 0, true)
                  : reference(tv, {kRows, kInner}, mv, {kRows}, usv, {1, kInner}, 4, 0, true);
    EXPECT_TRUE(e.has_value());
    return e.value_or(std::vector<std::uint8_t>{});
  }
};

Resident make_resident(Device device) {
  std::mt19937_64 rng(7);
  const std::int64_t rows = Resident::kRows, inner = Resident::kInner;
  std::vector<std::uint8_t> mv = random_mask(rng, rows, 0.5);
  const std::int64_t n = count(mv);
  std::vector<std::uint8_t> tv = random_bytes(rng, rows * inner * 4);
  std::vector<std::uint8_t> usv = random_bytes(rng, inner * 4);
  std::vector<std::uint8_t> urv = random_bytes(rng, static_cast<std::size_t>(n * inner * 4));
  Resident r{from_bytes(DataType::kFloat32, {rows, inner}, tv),
             from_bytes(DataType::kBool, {rows}, mv),
             from_bytes(DataType::kFloat32, {1, inner}, usv),
             from_bytes(DataType::kFloat32, {n, inner}, urv),
             tv,
             mv,
             usv,
             urv,
             n};
  for (const TensorBuffer* b : {&r.tensor, &r.mask, &r.updates_scalar, &r.updates_rows})
    b->sync_to(device);
  return r;
}

void expect_quiet(const Stats& s, std::int64_t waits) {
  EXPECT_EQ(s.host_waits, waits);
  EXPECT_EQ(s.device_to_host_copies, waits);  // the one read of n, when there is one
  EXPECT_EQ(s.bytes_device_to_host, waits * 4);  // n as the int32 scan holds it (M < 2^31)
  EXPECT_EQ(s.host_to_device_copies, 0);
  EXPECT_EQ(s.bytes_host_to_device, 0);
  EXPECT_EQ(s.device_allocations, 0);
  EXPECT_EQ(s.pinned_host_allocations, 0);
}

// The host waits docs/boolean_mask_update.md promises on CUDA: none when no dim of `updates`
// is n (absent or 1), one 4-byte read of n when one is or with broadcast = false. The CPU
// instance counts n on the host and never touches a device: all counters stay 0.
std::int64_t waits_on(Device device, bool reads_n) { return device.is_cuda() && reads_n ? 1 : 0; }

// On inputs made valid on the op's device: out of place, then in place, each after a warm-up
// call, counters reset just before the counted call; both results against the reference (the
// op is idempotent, so the warm-up in place does not change the expected bytes).
void expect_counted(const StatsCase& c, const BooleanMaskUpdateOptions& o, bool reads_n) {
  const Device device = *o.device;
  const auto expected =
      reference(c.tv, c.tshape, c.mv, c.mshape, c.uv, c.ushape, 4, o.axis, o.broadcast);
  ASSERT_TRUE(expected.has_value());
  TensorBuffer tensor = from_bytes(DataType::kFloat32, Shape(c.tshape), c.tv);
  const TensorBuffer mask = from_bytes(DataType::kBool, Shape(c.mshape), c.mv);
  const TensorBuffer updates = from_bytes(DataType::kFloat32, Shape(c.ushape), c.uv);
  tensor.sync_to(device);
  mask.sync_to(device);
  updates.sync_to(device);

  { TensorBuffer warm = boolean_mask_update(tensor, mask, updates, o); }
  reset_stats();
  TensorBuffer out = boolean_mask_update(tensor, mask, updates, o);
  {
    SCOPED_TRACE("out of place");
    expect_quiet(stats(), waits_on(device, reads_n));
  }
  EXPECT_EQ(out.residence(), device);
  EXPECT_TRUE(out.is_valid_on(device));
  boolean_mask_update_in_place(tensor, mask, updates, o);  // warm-up
  reset_stats();
  boolean_mask_update_in_place(tensor, mask, updates, o);
  {
    SCOPED_TRACE("in place");
    expect_quiet(stats(), waits_on(device, reads_n));
  }
  EXPECT_EQ(tensor.residence(), device);
  EXPECT_EQ(bytes(out), *expected);
  EXPECT_EQ(bytes(tensor), *expected);
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
  EXPECT_EQ(bytes(out), r.expected(false));
}

TEST_P(BooleanMaskUpdateDevice, InPlaceOnResidentInputsDoesNotTouchTheHost) {
  Resident r = make_resident(GetParam());
  boolean_mask_update_in_place(r.tensor, r.mask, r.updates_scalar, options());
  reset_stats();
  boolean_mask_update_in_place(r.tensor, r.mask, r.updates_scalar, options());
  expect_quiet(stats(), 0);
  EXPECT_EQ(r.tensor.residence(), GetParam());
  EXPECT_EQ(bytes(r.tensor), r.expected(false));
}

TEST_P(BooleanMaskUpdateDevice, RowsOfUpdatesNeedOneReadOfTheCount) {
  // updates [n, 4]: n must be checked on the host, so CUDA waits exactly once (4 bytes).
  Resident r = make_resident(GetParam());
  { TensorBuffer warm = boolean_mask_update(r.tensor, r.mask, r.updates_rows, options()); }
  reset_stats();
  TensorBuffer out = boolean_mask_update(r.tensor, r.mask, r.updates_rows, options());
  expect_quiet(stats(), waits_on(GetParam(), true));
  reset_stats();
  boolean_mask_update_in_place(r.tensor, r.mask, r.updates_rows, options());
  expect_quiet(stats(), waits_on(GetParam(), true));
  EXPECT_EQ(bytes(out), r.expected(true));
  EXPECT_EQ(bytes(r.tensor), r.expected(true));
}

TEST_P(BooleanMaskUpdateDevice, RankZeroUpdatesNeedNoReadOfTheCount) {
  expect_counted(stats_case(11, {1 << 16, 4}, {1 << 16}, {}), options(), false);
}

TEST_P(BooleanMaskUpdateDevice, NoBroadcastReadsTheCountOnce) {
  BooleanMaskUpdateOptions o = options();
  o.broadcast = false;
  // updates must equal the target [n, 4]: CUDA reads n once (4 bytes) ...
  expect_counted(stats_case(12, {1 << 16, 4}, {1 << 16}, {-1, 4}), o, true);
  // ... also when that dim is 1 (one true entry): with broadcast = false a 1 is checked too.
  std::vector<std::uint8_t> one_true(1 << 16, 0);
  one_true[12345] = 1;
  expect_counted(stats_case(13, {1 << 16, 4}, {1 << 16}, {1, 4}, 0, one_true), o, true);
}

TEST_P(BooleanMaskUpdateDevice, TwoDimensionalMaskOnAxis1) {
  // tensor [3, 256, 128, 2], mask [256, 128] over dims 1..2: target [3, n, 2].
  const std::vector<std::int64_t> tshape = {3, 256, 128, 2}, mshape = {256, 128};
  {
    SCOPED_TRACE("rank-0 updates");
    expect_counted(stats_case(21, tshape, mshape, {}), options(1), false);
  }
  {
    SCOPED_TRACE("updates [1, 1, 2]");
    expect_counted(stats_case(22, tshape, mshape, {1, 1, 2}), options(1), false);
  }
  {
    SCOPED_TRACE("updates [n, 2], repeated over dim 0");
    expect_counted(stats_case(23, tshape, mshape, {-1, 2}), options(1), true);
  }
  {
    SCOPED_TRACE("updates [3, n, 2], broadcast = false");
    BooleanMaskUpdateOptions o = options(1);
    o.broadcast = false;
    expect_counted(stats_case(24, tshape, mshape, {3, -1, 2}), o, true);
  }
}

TEST_P(BooleanMaskUpdateDevice, RunsWhereTheTensorLivesWithoutADevice) {
  const Device device = GetParam();
  const BooleanMaskUpdateOptions o;  // no device: the tensor's residence decides
  // B7: [[1,2,3],[4,5,6]], mask [T,F,T] on axis 1, updates [[7,8],[9,10]].
  BooleanMaskUpdateOptions axis1 = o;
  axis1.axis = 1;
  const std::vector<std::uint8_t> expected = bytes(make_f32({2, 3}, {7, 2, 8, 9, 5, 10}));
  TensorBuffer t = make_f32({2, 3}, {1, 2, 3, 4, 5, 6});
  const TensorBuffer m = make_mask({3}, {1, 0, 1});
  const TensorBuffer u = make_f32({2, 2}, {7, 8, 9, 10});
  if (device.is_cuda()) {
    // Device-only: written on the device, so the host copy is stale.
    (void)t.mutable_device_bytes();
    ASSERT_EQ(t.residence(), device);
    ASSERT_FALSE(t.is_valid_on(Device::cpu()));
  }
  TensorBuffer out = boolean_mask_update(t, m, u, axis1);
  EXPECT_EQ(out.residence(), device);
  EXPECT_TRUE(out.is_valid_on(device));
  if (device.is_cuda()) {
    EXPECT_FALSE(out.is_valid_on(Device::cpu()));
  }
  EXPECT_EQ(out.shape(), Shape({2, 3}));
  EXPECT_EQ(bytes(out), expected);
  boolean_mask_update_in_place(t, m, u, axis1);
  EXPECT_EQ(t.residence(), device);
  EXPECT_EQ(bytes(t), expected);
  if (device.is_cuda()) {
    // A mask or updates on the device do not move the op: a host tensor runs on the CPU.
    const TensorBuffer host_t = make_f32({2, 3}, {1, 2, 3, 4, 5, 6});
    TensorBuffer device_m = make_mask({3}, {1, 0, 1});
    (void)device_m.mutable_device_bytes();
    ASSERT_EQ(device_m.residence(), device);
    TensorBuffer host_out = boolean_mask_update(host_t, device_m, u, axis1);
    EXPECT_EQ(host_out.residence(), Device::cpu());
    EXPECT_FALSE(host_out.is_valid_on(device));
    EXPECT_EQ(bytes(host_out), expected);
  }
}

TENSORBUF_INSTANTIATE_ON_ALL_DEVICES(BooleanMaskUpdateDevice);

}  // namespace
}  // namespace tensorbuf
