// Randomized comparison with the serial reference of scatter_nd/helpers.hpp: dtypes,
// ranks 1-4, depths, batch shapes, duplicates, bad rows, both policies, out of place and in
// place; the public CPU op, the CPU backend with 1 to 5 output owners forced (the multithreaded
// path) or bucketed by small output blocks, and the CUDA backend's driver on the host executor
// (forward order, and the deterministic path). Case count: TENSORBUF_RANDOM_CASES (default 150); seeds are fixed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "scatter_nd/driver_helpers.hpp"
#include "scatter_nd/helpers.hpp"

namespace tensorbuf {
namespace {

using namespace testing::scatter;  // NOLINT(google-build-using-namespace)

int random_cases() {
  if (const char* env = std::getenv("TENSORBUF_RANDOM_CASES")) {
    const int n = std::atoi(env);
    if (n > 0) return n;
  }
  return 150;
}

struct RandomCase {
  Op op = Op::kSub;
  TensorBuffer tensor = TensorBuffer::create_dynamic(DataType::kFloat32);
  TensorBuffer indices = TensorBuffer::create_dynamic(DataType::kInt32);
  TensorBuffer updates = TensorBuffer::create_dynamic(DataType::kFloat32);
  std::string description;
};

// `factors`: floats of magnitude 0.5-2 (mul: a product of a few stays finite in float16, so
// the rounding of each step is what is compared, not infinities).
template <class T>
void fill_random(TensorBuffer& buffer, std::mt19937_64& rng, bool is_bool, bool with_nan,
                 bool factors = false) {
  if (buffer.flat_size() == 0) return;
  auto* data = static_cast<T*>(buffer.overwrite_host_bytes());
  std::uniform_real_distribution<double> real(-100.0, 100.0);
  std::uniform_real_distribution<double> factor(0.5, 2.0);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (std::int64_t i = 0; i < buffer.flat_size(); ++i) {
    if constexpr (std::is_integral_v<T>) {
      if (is_bool) {
        data[i] = static_cast<T>(rng() % 3);  // 0, 1 and a non-canonical true byte
      } else if (unit(rng) < 0.5) {
        data[i] = static_cast<T>(static_cast<std::int64_t>(rng() % 21) - 10);
      } else {
        data[i] = static_cast<T>(rng());  // full range: wrap-around
      }
    } else {
      double v = factors ? (rng() % 2 == 0 ? -1 : 1) * factor(rng) : real(rng);
      if (v == 0) v = 1;  // no zeros: min/max of +0/-0 depends on the order
      if (with_nan && unit(rng) < 0.08) v = std::numeric_limits<double>::quiet_NaN();
      data[i] = from_double<T>(v);
    }
  }
}

RandomCase make_case(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&](int lo, int hi) {  // inclusive
    return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
  };
  RandomCase c;
  const DataType types[] = {DataType::kBool,    DataType::kUInt8,    DataType::kInt8,
                            DataType::kInt16,   DataType::kInt32,    DataType::kInt64,
                            DataType::kFloat16, DataType::kBFloat16, DataType::kFloat32,
                            DataType::kFloat64};
  const DataType type = types[pick(0, 9)];
  const std::vector<Op> ops = all_ops();
  c.op = type == DataType::kBool
             ? Op::kUpdate
             : ops[static_cast<std::size_t>(pick(0, static_cast<int>(ops.size()) - 1))];
  const int rank = pick(1, 4);
  std::vector<std::int64_t> dims;
  for (int i = 0; i < rank; ++i) dims.push_back(pick(0, 19) == 0 ? 0 : pick(1, 5));
  if (pick(0, 3) == 0) dims.back() = pick(6, 40);  // wider slices
  const int depth = pick(1, rank);
  const int batch_rank = pick(0, 2);  // 0: rank-1 indices (one index)
  std::vector<std::int64_t> batch;
  for (int i = 0; i < batch_rank; ++i) batch.push_back(pick(0, 12) == 0 ? 0 : pick(1, 8));
  const bool with_bad = pick(0, 2) == 0;
  const DataType index_type = pick(0, 1) == 0 ? DataType::kInt32 : DataType::kInt64;

  std::vector<std::int64_t> index_shape = batch;
  index_shape.push_back(depth);
  std::int64_t rows = 1;
  for (std::int64_t b : batch) rows *= b;
  std::vector<std::int64_t> index_values;
  for (std::int64_t r = 0; r < rows; ++r) {
    const bool bad_row = with_bad && pick(0, 4) == 0;
    const int bad_component = pick(0, depth - 1);
    for (int d = 0; d < depth; ++d) {
      const std::int64_t dim = dims[static_cast<std::size_t>(d)];
      std::int64_t v = dim > 0 ? pick(0, static_cast<int>(dim) - 1) : 0;
      if (dim > 0 && pick(0, 1) == 0) v = 0;  // duplicates
      if ((bad_row && d == bad_component) || dim == 0) {
        v = pick(0, 1) == 0 ? -pick(1, 3) : dim + pick(0, 2);
      }
      index_values.push_back(v);
    }
  }
  std::vector<std::int64_t> update_shape = batch;
  update_shape.insert(update_shape.end(), dims.begin() + depth, dims.end());

  c.tensor = TensorBuffer::create_fixed_size(Shape(dims), type);
  c.indices = make_indices(index_values, Shape(index_shape), index_type);
  c.updates = TensorBuffer::create_fixed_size(Shape(update_shape), type);
  const bool nan = c.op == Op::kMin || c.op == Op::kMax || pick(0, 9) == 0;
  core::dispatch_type(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill_random<T>(c.tensor, rng, type == DataType::kBool, nan, c.op == Op::kMul);
    fill_random<T>(c.updates, rng, type == DataType::kBool, nan, c.op == Op::kMul);
  });
  c.description = std::string(op_name(c.op)) + " " + std::string(to_string(type)) + " tensor " +
                  Shape(dims).to_string() + " indices " + Shape(index_shape).to_string() + " " +
                  std::string(to_string(index_type));
  return c;
}

void check(const ReferenceResult& expected, const std::string& error, const TensorBuffer& out,
           const std::string& what) {
  SCOPED_TRACE(what);
  if (!expected.error.empty()) {
    EXPECT_EQ(error, expected.error);
  } else {
    EXPECT_EQ(error, "");
    if (error.empty()) {
      EXPECT_TRUE(same_values(out, *expected.out));
    }
  }
}

TEST(ScatterNdRandom, MatchesSerialReference) {
  const int cases = random_cases();
  for (int i = 0; i < cases; ++i) {
    RandomCase c = make_case(0x5ca77e2ull * 1000 + static_cast<std::uint64_t>(i));
    SCOPED_TRACE(::testing::Message() << "case " << i << ": " << c.description);
    const std::vector<std::uint8_t> tensor_before = bytes_of(c.tensor);
    for (bool drop : {false, true}) {
      const OutOfBoundsPolicy policy = drop ? OutOfBoundsPolicy::kDrop : OutOfBoundsPolicy::kError;
      const ReferenceResult expected =
          reference_scatter(c.op, c.tensor, c.indices, c.updates, drop);
      const ScatterOptions options{.device = Device::cpu(), .out_of_bounds = policy};

      // The public op, out of place and in place.
      std::string error;
      TensorBuffer out = TensorBuffer::create_dynamic(DataType::kFloat32);
      try {
        out = out_of_place(c.op)(c.tensor, c.indices, c.updates, options);
      } catch (const InvalidArgumentError& e) {
        error = e.what();
      }
      check(expected, error, out, drop ? "public kDrop" : "public kError");
      EXPECT_EQ(bytes_of(c.tensor), tensor_before);
      TensorBuffer target = c.tensor.clone();
      error.clear();
      try {
        in_place(c.op)(target, c.indices, c.updates, options);
      } catch (const InvalidArgumentError& e) {
        error = e.what();
      }
      check(expected, error, target, "public in place");
      if (!error.empty()) {
        EXPECT_EQ(bytes_of(target), tensor_before);
      }

      // The backends directly.
      const core::ScatterOp op = static_cast<core::ScatterOp>(c.op);
      for (Backend backend :
           {Backend::kCpuOwners, Backend::kCpuBuckets, Backend::kDriverForward,
            Backend::kDriverDeterministic}) {
        for (bool in_place_run : {false, true}) {
          DirectResult r = run_direct(backend, op, c.tensor, c.indices, c.updates, policy,
                                      in_place_run, 1 + i % 5);
          check(expected, r.error, r.out,
                std::string(backend_name(backend)) + (in_place_run ? " in place" : ""));
          if (!r.error.empty() && in_place_run) {
            EXPECT_EQ(bytes_of(r.out), tensor_before);
          }
        }
      }
    }
  }
}

// Enough rows for several row chunks and tasks on the multithreaded CPU path (with the
// default tuning), bad rows late in the rows so the first bad one must win across chunks.
TEST(ScatterNdRandom, LargeCasesMatchSerialReference) {
  std::mt19937_64 rng(99);
  const std::vector<Op> ops = all_ops();
  const int rounds = std::max(6, static_cast<int>(ops.size()));  // every combine once at least
  for (int round = 0; round < rounds; ++round) {
    const DataType type = round % 3 == 0   ? DataType::kFloat32
                          : round % 3 == 1 ? DataType::kInt16
                                           : DataType::kFloat16;
    const Op op = ops[static_cast<std::size_t>(round) % ops.size()];
    // Round 0's float32 table (2.4 MB) is past the L2 size where the walk prefetches ahead.
    const std::int64_t slices = round == 0 ? 600000 : round < 3 ? 70000 : 300;
    const std::int64_t width = round < 3 ? 1 : 300;
    const std::int64_t rows = round < 3 ? 60000 : 2000;
    std::vector<std::int64_t> index(static_cast<std::size_t>(rows));
    for (std::int64_t& i : index)
      i = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(slices / 7 + 1));
    index[static_cast<std::size_t>(rows - 5)] = slices;  // bad, last chunk
    index[static_cast<std::size_t>(rows * 3 / 4)] = -2;  // bad, earlier: the one named
    TensorBuffer tensor = TensorBuffer::create_fixed_size({slices, width}, type);
    TensorBuffer updates = TensorBuffer::create_fixed_size({rows, width}, type);
    core::dispatch_type(type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      fill_random<T>(tensor, rng, false, false, op == Op::kMul);
      fill_random<T>(updates, rng, false, false, op == Op::kMul);
    });
    TensorBuffer indices = make_indices(index, {rows, 1}, DataType::kInt64);
    SCOPED_TRACE(::testing::Message() << "round " << round);
    for (bool drop : {false, true}) {
      const ReferenceResult expected = reference_scatter(op, tensor, indices, updates, drop);
      const ScatterOptions options{
          .device = Device::cpu(),
          .out_of_bounds = drop ? OutOfBoundsPolicy::kDrop : OutOfBoundsPolicy::kError};
      std::string error;
      TensorBuffer out = TensorBuffer::create_dynamic(type);
      try {
        out = out_of_place(op)(tensor, indices, updates, options);
      } catch (const InvalidArgumentError& e) {
        error = e.what();
      }
      check(expected, error, out, "large out of place");
      TensorBuffer target = tensor.clone();
      error.clear();
      try {
        in_place(op)(target, indices, updates, options);
      } catch (const InvalidArgumentError& e) {
        error = e.what();
      }
      check(expected, error, target, "large in place");
    }
  }
}

}  // namespace
}  // namespace tensorbuf
