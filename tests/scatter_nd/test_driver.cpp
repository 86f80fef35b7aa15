// The CUDA backend's scatter driver (src/kernels/scatter_nd.hpp) on the host executor: both
// policies, in place and out of place, the deterministic path (bit for bit equal to the CPU),
// and where it may wait for the host.
#include <gtest/gtest.h>

#include "scatter_nd/driver_helpers.hpp"
#include "scatter_nd/helpers.hpp"

namespace tensorbuf {
namespace {

using namespace testing::scatter;  // NOLINT(google-build-using-namespace)
using DT = DataType;
using core::ScatterOp;

TEST(ScatterNdDriver, DropSkipsBadRowsWithoutHostWaits) {
  for (Backend backend :
       {Backend::kDriverForward, Backend::kDriverReverse, Backend::kDriverDeterministic}) {
    for (bool in_place_run : {false, true}) {
      SCOPED_TRACE(backend_name(backend));
      DirectResult r =
          run_direct(backend, ScatterOp::kSub, make(DT::kFloat32, {0, 0, 0, 0, 0}, {5}),
                     make_indices({0, 5, 2, -1}, {4, 1}), make(DT::kFloat32, {1, 2, 3, 4}, {4}),
                     OutOfBoundsPolicy::kDrop, in_place_run);
      EXPECT_EQ(r.error, "");
      EXPECT_EQ(values_of(r.out), (std::vector<double>{-1, 0, -3, 0, 0}));
      EXPECT_EQ(r.host_reads, 0);
    }
  }
}

TEST(ScatterNdDriver, ErrorNamesFirstBadRowAndWritesNothingInPlace) {
  for (Backend backend :
       {Backend::kDriverForward, Backend::kDriverReverse, Backend::kDriverDeterministic}) {
    for (bool in_place_run : {false, true}) {
      SCOPED_TRACE(::testing::Message() << backend_name(backend) << " in place " << in_place_run);
      TensorBuffer tensor = make(DT::kFloat32, {1, 2, 3, 4}, {4});
      DirectResult r = run_direct(
          backend, ScatterOp::kAdd, tensor, make_indices({0, 1, 9, 2, 7, 3}, {3, 2, 1}, DT::kInt64),
          make(DT::kFloat32, {1, 1, 1, 1, 1, 1}, {3, 2}), OutOfBoundsPolicy::kError, in_place_run);
      EXPECT_EQ(r.error, "indices[1,0] = [9] does not index into shape [4]");
      if (in_place_run) {
        EXPECT_TRUE(same_values(r.out, tensor));
      }
      EXPECT_EQ(r.host_reads, 2);  // the first bad row, then its one component
    }
  }
}

TEST(ScatterNdDriver, ErrorPolicyWaitsOnceWhenAllRowsAreGood) {
  for (Backend backend : {Backend::kDriverForward, Backend::kDriverDeterministic}) {
    for (bool in_place_run : {false, true}) {
      DirectResult r = run_direct(backend, ScatterOp::kMax, make(DT::kInt32, {1, 2}, {2}),
                                  make_indices({1, 0}, {2, 1}), make(DT::kInt32, {5, -5}, {2}),
                                  OutOfBoundsPolicy::kError, in_place_run);
      EXPECT_EQ(r.error, "");
      EXPECT_EQ(values_of(r.out), (std::vector<double>{1, 5}));
      EXPECT_EQ(r.host_reads, 1);
    }
  }
}

TEST(ScatterNdDriver, DeterministicEqualsCpuBitForBit) {
  // Order matters in float: (1e8 - 1e8) + 1 = 1, but (1 - 1e8) + 1e8 = 0. The reverse-order
  // host executor would apply the rows backwards; the deterministic path must not.
  TensorBuffer tensor = make(DT::kFloat32, {0, 0}, {2});
  TensorBuffer indices = make_indices({0, 0, 0, 1, 1, 1}, {6, 1});
  TensorBuffer updates = make(DT::kFloat32, {1e8, -1e8, 1, 0.1, 0.2, 0.3}, {6});
  TensorBuffer cpu =
      tensor_scatter_nd_add(tensor, indices, updates, ScatterOptions{.device = Device::cpu()});
  EXPECT_EQ(values_of(cpu)[0], 1.0);
  DirectResult det = run_direct(Backend::kDriverDeterministic, ScatterOp::kAdd, tensor, indices,
                                updates, OutOfBoundsPolicy::kDrop, false);
  EXPECT_TRUE(same_values(det.out, cpu));
  DirectResult reverse = run_direct(Backend::kDriverReverse, ScatterOp::kAdd, tensor, indices,
                                    updates, OutOfBoundsPolicy::kDrop, false);
  EXPECT_EQ(values_of(reverse.out)[0], 0.0);  // shows that the order was really reversed
}

TEST(ScatterNdDriver, DeterministicUpdateKeepsLastRow) {
  DirectResult r = run_direct(Backend::kDriverDeterministic, ScatterOp::kUpdate,
                              make(DT::kInt16, {0, 0, 0}, {3}), make_indices({2, 0, 2, 2}, {4, 1}),
                              make(DT::kInt16, {1, 2, 3, 4}, {4}), OutOfBoundsPolicy::kDrop, true);
  EXPECT_EQ(values_of(r.out), (std::vector<double>{2, 0, 4}));
}

TEST(ScatterNdDriver, DeepIndicesGoThroughExecutorMemory) {
  // Depth 9 > kInlineDepth: dims and strides are stored in executor memory.
  const Shape shape({2, 2, 2, 2, 2, 2, 2, 2, 2, 2});
  std::vector<double> zeros(static_cast<std::size_t>(shape.num_elements()), 0);
  for (Backend backend : {Backend::kDriverForward, Backend::kDriverDeterministic}) {
    DirectResult r = run_direct(
        backend, ScatterOp::kAdd, make(DT::kFloat64, zeros, shape),
        make_indices(
            {1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0},
            {3, 9}),
        make(DT::kFloat64, {1, 2, 3, 4, 5, 6}, {3, 2}), OutOfBoundsPolicy::kDrop, false);
    std::vector<double> expected = zeros;
    expected[1022] = 1;
    expected[1023] = 2;
    expected[2] = 3;
    expected[3] = 4;
    EXPECT_EQ(values_of(r.out), expected);
  }
}

// mul through the driver (compare-and-swap atomics, or the ordered pass): both policies, in
// place and out of place, forward, reverse and deterministic.
TEST(ScatterNdDriver, MulUnderBothPoliciesOnEveryPath) {
  for (Backend backend :
       {Backend::kDriverForward, Backend::kDriverReverse, Backend::kDriverDeterministic}) {
    for (bool in_place_run : {false, true}) {
      SCOPED_TRACE(::testing::Message() << backend_name(backend) << " in place " << in_place_run);
      DirectResult drop = run_direct(
          backend, ScatterOp::kMul, make(DT::kFloat32, {1, 1, 1, 1, 1}, {5}),
          make_indices({0, 5, 2, -1, 0}, {5, 1}), make(DT::kFloat32, {2, 3, 4, 5, -3}, {5}),
          OutOfBoundsPolicy::kDrop, in_place_run);
      EXPECT_EQ(drop.error, "");
      EXPECT_EQ(values_of(drop.out), (std::vector<double>{-6, 1, 4, 1, 1}));
      EXPECT_EQ(drop.host_reads, 0);

      const TensorBuffer tensor = make(DT::kInt32, {2147483647, 3, 4, 5}, {4});
      DirectResult error = run_direct(
          backend, ScatterOp::kMul, tensor, make_indices({0, 1, 9, 2, 7, 3}, {3, 2, 1}),
          make(DT::kInt32, {2, 2, 2, 2, 2, 2}, {3, 2}), OutOfBoundsPolicy::kError, in_place_run);
      EXPECT_EQ(error.error, "indices[1,0] = [9] does not index into shape [4]");
      if (in_place_run) {
        EXPECT_TRUE(same_values(error.out, tensor));
      }
      EXPECT_EQ(error.host_reads, 2);

      DirectResult good = run_direct(
          backend, ScatterOp::kMul, tensor, make_indices({0, 3, 3}, {3, 1}),
          make(DT::kInt32, {2, 65536, 65536}, {3}), OutOfBoundsPolicy::kError, in_place_run);
      EXPECT_EQ(good.error, "");
      EXPECT_EQ(values_of(good.out), (std::vector<double>{-2, 3, 4, 0}));  // wrapped
    }
  }
}

TEST(ScatterNdDriver, MulDeterministicEqualsCpuBitForBit) {
  // (0.1f * 0.2f) * 1.3f and (1.3f * 0.2f) * 0.1f differ in the last bit.
  const TensorBuffer tensor = make(DT::kFloat32, {1}, {1});
  const TensorBuffer indices = make_indices({0, 0, 0}, {3, 1});
  const TensorBuffer updates = make(DT::kFloat32, {0.1f, 0.2f, 1.3f}, {3});
  float forward = 1.0f;
  for (float f : {0.1f, 0.2f, 1.3f}) forward *= f;
  const TensorBuffer cpu =
      tensor_scatter_nd_mul(tensor, indices, updates, ScatterOptions{.device = Device::cpu()});
  EXPECT_EQ(values_of(cpu)[0], static_cast<double>(forward));
  for (bool in_place_run : {false, true}) {
    DirectResult det = run_direct(Backend::kDriverDeterministic, ScatterOp::kMul, tensor, indices,
                                  updates, OutOfBoundsPolicy::kDrop, in_place_run);
    EXPECT_TRUE(same_values(det.out, cpu));
  }
  DirectResult reverse = run_direct(Backend::kDriverReverse, ScatterOp::kMul, tensor, indices,
                                    updates, OutOfBoundsPolicy::kDrop, false);
  EXPECT_NE(values_of(reverse.out)[0], values_of(cpu)[0]);  // the order was really reversed
}

TEST(ScatterNdDriver, EveryDtypeAndOpMatchesCpu) {
  for (DT type : {DT::kUInt8, DT::kInt8, DT::kInt16, DT::kInt32, DT::kInt64, DT::kFloat16,
                  DT::kBFloat16, DT::kFloat32, DT::kFloat64}) {
    for (Op op : all_ops()) {
      SCOPED_TRACE(::testing::Message() << to_string(type) << " op " << op_name(op));
      TensorBuffer tensor = make(type, {5, 6, 7, 8, 9, 10}, {3, 2});
      TensorBuffer indices = make_indices({2, 0, 2}, {3, 1});
      TensorBuffer updates = make(type, {1, 2, 3, 4, 100, 0}, {3, 2});
      const std::vector<std::uint8_t> cpu =
          bytes_of(out_of_place(op)(tensor, indices, updates, ScatterOptions{}));
      for (Backend backend : {Backend::kDriverForward, Backend::kDriverDeterministic}) {
        DirectResult r =
            run_direct(backend, op, tensor, indices, updates, OutOfBoundsPolicy::kError, false);
        EXPECT_EQ(bytes_of(r.out), cpu) << backend_name(backend);
      }
    }
  }
}

}  // namespace
}  // namespace tensorbuf
