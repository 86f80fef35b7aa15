// The distributed scatter's device-side routing (src/kernels/route_rows.hpp) on the host
// executor, and on a GPU through cuda::route_rows (RouteRowsCUDA, skipped without one), against
// a reference written here: for each owner in rank order, this rank's rows in row order whose
// first component falls in the owner's rows.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "core/backend_run.hpp"
#include "core/buffer_access.hpp"
#include "core/plan_scatter_nd.hpp"
#include "core/route_rows_backend.hpp"
#include "kernels/host_executor.hpp"
#include "kernels/route_rows.hpp"
#include "support/devices.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf {
namespace {

struct Case {
  std::vector<std::int64_t> offsets;  // the layout: ranks + 1 first rows
  std::vector<std::int64_t> dims;     // the tensor's dims[:depth] (dims[0] = offsets.back())
  std::int64_t rows = 0;
  std::size_t slice_bytes = 0;
  double bad_fraction = 0;
};

struct Reference {
  std::vector<std::int64_t> counts;
  std::int64_t first_bad = -1;
  std::vector<std::int64_t> bad_components;
  std::vector<std::int64_t> index;
  std::vector<std::uint8_t> slices;
};

template <class Index>
Reference reference(const Case& c, const std::vector<Index>& indices,
                    const std::vector<std::uint8_t>& slices) {
  const int depth = static_cast<int>(c.dims.size());
  const int ranks = static_cast<int>(c.offsets.size()) - 1;
  Reference out;
  out.counts.assign(static_cast<std::size_t>(ranks), 0);
  auto good = [&](std::int64_t r) {
    for (int d = 0; d < depth; ++d) {
      const auto v = static_cast<std::int64_t>(indices[r * depth + d]);
      if (v < 0 || v >= c.dims[d]) return false;
    }
    return true;
  };
  for (std::int64_t r = 0; r < c.rows; ++r) {
    if (!good(r)) {
      out.first_bad = r;
      out.bad_components.assign(indices.begin() + r * depth, indices.begin() + (r + 1) * depth);
      break;
    }
  }
  for (int p = 0; p < ranks; ++p) {
    for (std::int64_t r = 0; r < c.rows; ++r) {
      const auto first = static_cast<std::int64_t>(indices[r * depth]);
      if (!good(r) || first < c.offsets[p] || first >= c.offsets[p + 1]) continue;
      ++out.counts[p];
      out.index.push_back(first - c.offsets[p]);
      for (int d = 1; d < depth; ++d) out.index.push_back(indices[r * depth + d]);
      out.slices.insert(out.slices.end(), slices.begin() + r * c.slice_bytes,
                        slices.begin() + (r + 1) * c.slice_bytes);
    }
  }
  return out;
}

// Where a case is routed: the host executor, or cuda::route_rows on device copies of the same
// inputs with host destinations (staging) or device ones (a CUDA-aware MPI's).
enum class Where { kHostExecutor, kGpuToHost, kGpuToDevice };

template <class Index>
kernels::RoutedRows route(const Case& c, const std::vector<Index>& indices,
                          const std::vector<std::uint8_t>& slices, Where where,
                          std::vector<std::int64_t>& send_index,
                          std::vector<std::uint8_t>& send_slices) {
  const int depth = static_cast<int>(c.dims.size());
  core::RouteRowsPlan plan;
  plan.scatter.depth = depth;
  plan.scatter.index_dtype = DataTypeOf<Index>::value;
  plan.scatter.tensor_dims = core::SmallDims(c.dims);
  plan.scatter.slice_strides = core::SmallDims(std::vector<std::int64_t>(c.dims.size(), 1));
  plan.rows = c.rows;
  plan.offsets = c.offsets;
  plan.slice_bytes = c.slice_bytes;
  core::RouteRowsBuffers buffers;
  if (where == Where::kHostExecutor) {
    kernels::HostExecutor executor;
    buffers.indices = indices.data();
    buffers.slices = slices.data();
    buffers.send_index = send_index.data();
    buffers.send_slices = send_slices.data();
    return kernels::route_rows<Index>(executor, plan, buffers);
  }
  TensorBuffer index_buffer =
      TensorBuffer::create_fixed_size({c.rows, depth}, plan.scatter.index_dtype);
  if (!indices.empty())
    std::memcpy(index_buffer.mutable_host_bytes(), indices.data(), indices.size() * sizeof(Index));
  TensorBuffer slice_buffer =
      TensorBuffer::create_fixed_size({static_cast<std::int64_t>(slices.size())}, DataType::kUInt8);
  if (!slices.empty()) std::memcpy(slice_buffer.mutable_host_bytes(), slices.data(), slices.size());
  // Device destinations start as the host vectors' sentinels: bytes past the kept rows show.
  TensorBuffer index_out = TensorBuffer::create_fixed_size(
      {static_cast<std::int64_t>(send_index.size())}, DataType::kInt64);
  std::memcpy(index_out.mutable_host_bytes(), send_index.data(), send_index.size() * 8);
  TensorBuffer slices_out = TensorBuffer::create_fixed_size(
      {static_cast<std::int64_t>(send_slices.size())}, DataType::kUInt8);
  std::memcpy(slices_out.mutable_host_bytes(), send_slices.data(), send_slices.size());
  core::BackendRun backend(Device::cuda(0), Stream{});
  buffers.indices = backend.read(index_buffer);
  buffers.slices = backend.read(slice_buffer);
  plan.on_device = where == Where::kGpuToDevice;
  buffers.send_index =
      plan.on_device ? static_cast<std::int64_t*>(backend.mutate(index_out)) : send_index.data();
  buffers.send_slices = plan.on_device ? backend.mutate(slices_out) : send_slices.data();
  kernels::RoutedRows routed = cuda::route_rows(plan, buffers, backend.cuda());
  backend.finish();
  if (plan.on_device) {  // the host reads sync after the stream's work
    std::memcpy(send_index.data(), index_out.host_bytes(), send_index.size() * 8);
    std::memcpy(send_slices.data(), slices_out.host_bytes(), send_slices.size());
  }
  return routed;
}

template <class Index>
void expect_routed(const Case& c, unsigned seed, Where where = Where::kHostExecutor) {
  SCOPED_TRACE(::testing::Message() << "seed " << seed << ", ranks " << c.offsets.size() - 1
                                    << ", depth " << c.dims.size() << ", slice bytes "
                                    << c.slice_bytes << ", index bytes " << sizeof(Index));
  std::mt19937 rng(seed);
  const int depth = static_cast<int>(c.dims.size());
  std::vector<Index> indices(static_cast<std::size_t>(c.rows * depth));
  std::uniform_real_distribution<double> coin(0, 1);
  for (std::int64_t r = 0; r < c.rows; ++r) {
    for (int d = 0; d < depth; ++d) {
      std::uniform_int_distribution<std::int64_t> in(0, c.dims[d] - 1);
      std::int64_t v = in(rng);
      if (coin(rng) < c.bad_fraction) v = coin(rng) < 0.5 ? -1 - v : c.dims[d] + v;
      indices[r * depth + d] = static_cast<Index>(v);
    }
  }
  std::vector<std::uint8_t> slices(static_cast<std::size_t>(c.rows) * c.slice_bytes);
  for (auto& b : slices) b = static_cast<std::uint8_t>(rng());

  std::vector<std::int64_t> send_index(static_cast<std::size_t>(c.rows * depth), -7);
  std::vector<std::uint8_t> send_slices(slices.size(), 0xee);
  const kernels::RoutedRows routed = route(c, indices, slices, where, send_index, send_slices);

  const Reference want = reference(c, indices, slices);
  EXPECT_EQ(routed.counts, want.counts);
  EXPECT_EQ(routed.first_bad, want.first_bad);
  EXPECT_EQ(routed.bad_components, want.bad_components);
  send_index.resize(want.index.size());
  send_slices.resize(want.slices.size());
  EXPECT_EQ(send_index, want.index);
  EXPECT_EQ(send_slices, want.slices);
}

TEST(RouteRows, MatchesTheReferenceOnRandomLayoutsAndRows) {
  unsigned seed = 1;
  for (int ranks : {1, 2, 3, 4, 7, 33}) {
    for (int depth : {1, 2, 3}) {
      for (std::size_t slice_bytes : {std::size_t{0}, std::size_t{3}, std::size_t{64}}) {
        for (double bad : {0.0, 0.05}) {
          ++seed;
          std::mt19937 rng(seed);
          Case c;
          c.offsets.push_back(0);
          for (int p = 0; p < ranks; ++p) {
            // Some ranks own no rows (every third one, where there are several).
            const std::int64_t own = ranks > 1 && p % 3 == 1 ? 0 : 1 + rng() % 9;
            c.offsets.push_back(c.offsets.back() + own);
          }
          c.dims.push_back(c.offsets.back());
          for (int d = 1; d < depth; ++d) c.dims.push_back(2 + rng() % 4);
          c.rows = static_cast<std::int64_t>(rng() % 200);
          c.slice_bytes = slice_bytes;
          c.bad_fraction = bad;
          expect_routed<std::int32_t>(c, seed);
          expect_routed<std::int64_t>(c, seed);
        }
      }
    }
  }
}

TEST(RouteRows, AllRowsToOneOwnerKeepTheirOrderAndNoRowsRouteNothing) {
  Case c;
  c.offsets = {0, 0, 5, 5, 9};  // ranks 0 and 2 own nothing
  c.dims = {9};
  c.rows = 50;
  c.slice_bytes = 8;
  expect_routed<std::int64_t>(c, 5);
  c.rows = 0;
  expect_routed<std::int64_t>(c, 6);
}

TEST(RouteRows, DeepIndicesUseTheExecutorsGeometryTable) {
  Case c;
  c.offsets = {0, 3, 6};
  c.dims = {6, 2, 2, 2, 2, 2, 2, 2, 2, 2};  // depth 10 > kInlineDepth
  c.rows = 40;
  c.slice_bytes = 4;
  c.bad_fraction = 0.02;
  expect_routed<std::int32_t>(c, 9);
}

TEST(RouteRowsCUDA, MatchesTheReferenceOnTheDevice) {
  TENSORBUF_SKIP_WITHOUT_CUDA(Device::cuda(0));
  unsigned seed = 100;
  for (Where where : {Where::kGpuToHost, Where::kGpuToDevice}) {
    SCOPED_TRACE(where == Where::kGpuToHost ? "host destinations" : "device destinations");
    for (int ranks : {2, 5}) {
      for (std::size_t slice_bytes : {std::size_t{3}, std::size_t{256}}) {
        Case c;
        c.offsets = {0};
        for (int p = 0; p < ranks; ++p) c.offsets.push_back(c.offsets.back() + (p == 1 ? 0 : 1000));
        c.dims = {c.offsets.back(), 3};
        c.rows = 20000;
        c.slice_bytes = slice_bytes;
        c.bad_fraction = 0.001;
        expect_routed<std::int32_t>(c, ++seed, where);
        expect_routed<std::int64_t>(c, ++seed, where);
      }
    }
  }
}

}  // namespace
}  // namespace tensorbuf
