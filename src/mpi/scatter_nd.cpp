// Distributed scatter ops (spec/distributed.md D3), PETSc SF / Tpetra Distributor style:
//  1. agree on the device and policy, all-gather the operands' descriptors and validate them
//     as the single-process op on the concatenated inputs (same error on every rank);
//  2. read the local indices once: bad rows (kError: the global first one, named on every
//     rank; kDrop: dropped here), the owner of each row, the rows per owner; all-to-all of
//     counts;
//  3. a second read buckets the rows by owner (a stable counting sort): each row's index, in
//     the owner's rows, and its slice go straight to the send buffer, or, for this rank's own
//     rows, to their place in the receive buffer; one Alltoallv of indices and one of slices
//     move the rest (exchange.hpp);
//  4. each owner applies what it received, from the receive buffer, with the local op, in
//     (source rank, source row) order: duplicates fold exactly as in the single-process op.
// On one rank the single-process op runs on the caller's buffers: nothing needs to move.
// CUDA runs route and bucket on the device (src/kernels/route_rows.hpp): only the send
// buffers, every owner's rows this rank's included, cross to pinned host memory for MPI; the
// received rows land in the pinned host copies of new buffers, which the local op uploads.
// With a CUDA-aware MPI, when asked (cuda_aware.hpp), MPI reads and writes those buffers'
// device copies instead and nothing crosses to the host.
#include <algorithm>
#include <cstddef>
#include <chrono>
#include <climits>
#include <cstring>
#include <ctime>
#include <optional>

#include "core/backend_run.hpp"
#include "core/dispatch.hpp"
#include "core/dtype_dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/op_errors.hpp"
#include "core/plan_scatter_nd.hpp"
#include "core/route_rows_backend.hpp"
#include "cpu/streaming_copy.hpp"
#include "mpi/agreement.hpp"
#include "mpi/collective.hpp"
#include "mpi/cuda_aware.hpp"
#include "mpi/exchange.hpp"
#include "mpi/scatter_phases.hpp"
#include "mpi/validate.hpp"
#include "tensorbuf/runtime.hpp"

namespace tensorbuf::dist {
namespace {

using core::ScatterOp;
using LocalOp = void (*)(TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                         const ScatterOptions&);

// The single-process in-place op of each combine, in the table's (and ScatterOp's) order.
constexpr LocalOp kLocalOps[] = {
#define TENSORBUF_LOCAL_SCATTER(name, op, what) &tensorbuf::tensor_scatter_nd_##name##_in_place,
    TENSORBUF_SCATTER_COMBINES(TENSORBUF_LOCAL_SCATTER)
#undef TENSORBUF_LOCAL_SCATTER
};

LocalOp local_op(ScatterOp op) { return kLocalOps[static_cast<std::size_t>(op)]; }

// This rank's rows after one read of its indices (step 2): the rows per owner and the first
// bad row with its components (the device routing's result type too); on the host, each row's
// owner (-1: out of bounds) in the scratch `owner`.
using Routed = core::RoutedRows;

Routed route(const core::ScatterNdPlan& plan, const RowLayout& layout, const TensorBuffer& indices,
             std::int64_t rows, std::vector<int>& owner) {
  Routed out;
  out.counts.assign(static_cast<std::size_t>(layout.ranks()), 0);
  owner.resize(static_cast<std::size_t>(rows));
  const int depth = plan.depth;
  core::dispatch_index_type(indices.data_type(), [&](auto tag) {
    using I = typename decltype(tag)::type;
    const I* idx = indices.host<I>();  // staged to the host if the indices live on the device
    for (std::int64_t r = 0; r < rows; ++r) {
      const I* c = idx + r * depth;
      bool bad = false;
      for (int i = 0; i < depth; ++i) {
        const auto v = static_cast<std::int64_t>(c[i]);
        bad = bad || v < 0 || v >= plan.tensor_dims[static_cast<std::size_t>(i)];
      }
      if (bad) {
        owner[static_cast<std::size_t>(r)] = -1;
        if (out.first_bad < 0) {
          out.first_bad = r;
          out.bad_components.assign(c, c + depth);
        }
        continue;
      }
      // The last rank whose first row is <= the row (RowLayout::owner, unchecked: in bounds).
      const auto o = std::upper_bound(layout.offsets.begin(), layout.offsets.end(),
                                      static_cast<std::int64_t>(c[0])) -
                     layout.offsets.begin() - 1;
      owner[static_cast<std::size_t>(r)] = static_cast<int>(o);
      ++out.counts[static_cast<std::size_t>(o)];
    }
  });
  return out;
}

// Steps 2 and 3 of a CUDA run, on the device: the routed rows of every owner, this rank's
// included, in `send_index` and `send_slices` (made here): in their pinned host copies, or
// `for_mpi_on_device` in their device copies (written in stream order: wait before MPI).
Routed route_on_device(const core::ScatterNdPlan& plan, const RowLayout& layout,
                       const TensorBuffer& indices, const TensorBuffer& updates, std::int64_t rows,
                       std::size_t slice_bytes, Device device, Stream stream,
                       bool for_mpi_on_device, TensorBuffer& send_index,
                       TensorBuffer& send_slices) {
  const std::int64_t depth = plan.depth;
  send_index = TensorBuffer::create_uninitialized(Shape{rows, depth}, DataType::kInt64);
  send_slices = TensorBuffer::create_uninitialized(
      Shape{rows * static_cast<std::int64_t>(slice_bytes)}, DataType::kUInt8);
  core::BackendRun backend(device, stream);
  auto destination = [&](TensorBuffer& buffer) -> void* {
    if (buffer.size_bytes() == 0) return nullptr;
    return for_mpi_on_device ? backend.overwrite(buffer) : buffer.overwrite_host_bytes();
  };
  core::RouteRowsPlan route{plan, rows, layout.offsets, slice_bytes, for_mpi_on_device};
  core::RouteRowsBuffers buffers;
  buffers.send_index = static_cast<std::int64_t*>(destination(send_index));
  buffers.send_slices = destination(send_slices);
  buffers.indices = backend.read(indices);
  buffers.slices = backend.read(updates);
  Routed routed = cuda::route_rows(route, buffers, backend.cuda());
  backend.finish();
  return routed;
}

// Under kError: the first bad row over all ranks, raised on every rank with the single-process
// message (global row position, global shape). Collective.
void raise_first_bad(const Comm& comm, const core::ScatterNdPlan& plan, const Routed& routed,
                     const std::vector<std::int64_t>& row_starts) {
  const std::int64_t mine =
      routed.first_bad >= 0 ? row_starts[comm.rank()] + routed.first_bad : INT64_MAX;
  detail::raise_first_rejection(comm, mine, [&](std::int64_t first) {
    core::ScatterNdResult named;
    named.first_bad_index = first;
    named.bad_components = routed.bad_components;
    named.bad_components.resize(static_cast<std::size_t>(plan.depth));
    return core::rejection_message(plan, named);
  });
}

// Where each owner's rows go (step 3): the send buffer, grouped by owner in rank order without
// a group for this rank, whose rows go straight to their place in the receive buffer.
struct Destinations {
  std::vector<std::byte*> index;   // per owner: its first index row (8 bytes per component)
  std::vector<std::byte*> slices;  // per owner: its first slice
};

// One pass over this rank's rows in order (so each owner's rows stay in row order): each kept
// row's index, in the owner's rows and as int64, and its slice to the owner's destination.
void bucket(const core::ScatterNdPlan& plan, const RowLayout& layout, const TensorBuffer& indices,
            const TensorBuffer& updates, std::int64_t rows, const std::vector<int>& owner,
            Destinations& to, std::size_t slice_bytes) {
  const int depth = plan.depth;
  const std::size_t index_bytes = static_cast<std::size_t>(depth) * 8;
  const auto* slices = static_cast<const std::byte*>(updates.host_bytes());  // staged
  // Buckets far beyond the caches, of rows of whole lines: non-temporal stores spare the read of
  // each destination line before it is written (a third memory stream).
  const bool stream = static_cast<std::int64_t>(static_cast<std::size_t>(rows) * slice_bytes) >=
                          cpu::kStreamOutputBytes &&
                      static_cast<std::int64_t>(slice_bytes) >= cpu::kStreamCopyBytes;
  core::dispatch_index_type(indices.data_type(), [&](auto tag) {
    using I = typename decltype(tag)::type;
    const I* idx = indices.host<I>();
    for (std::int64_t r = 0; r < rows; ++r) {
      const int o = owner[static_cast<std::size_t>(r)];
      if (o < 0) continue;
      const I* c = idx + r * depth;
      for (int i = 0; i < depth; ++i) {
        const std::int64_t v = static_cast<std::int64_t>(c[i]) - (i == 0 ? layout.offsets[o] : 0);
        std::memcpy(to.index[o] + static_cast<std::size_t>(i) * 8, &v, 8);
      }
      to.index[o] += index_bytes;
      if (slice_bytes != 0) {
        const std::byte* from = slices + static_cast<std::size_t>(r) * slice_bytes;
        if (stream) {
          cpu::copy_streaming(to.slices[o], from, slice_bytes);
        } else {
          std::memcpy(to.slices[o], from, slice_bytes);
        }
        to.slices[o] += slice_bytes;
      }
    }
  });
  if (stream) cpu::streaming_fence();  // before MPI and the local op read the bytes
}

detail::PhaseTime now() {
  timespec cpu{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
  return {
      std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(),
      static_cast<double>(cpu.tv_sec) + static_cast<double>(cpu.tv_nsec) * 1e-9};
}

// Per thread: callers on several threads (MPI_THREAD_MULTIPLE, other communicators) never race.
thread_local detail::ScatterPhases g_phases;

void run(ScatterOp op, const ShardedTensor& source, ShardedTensor& target,
         const TensorBuffer& indices, const TensorBuffer& updates, const ScatterOptions& options) {
  g_phases = {};
  detail::PhaseTime mark = now();
  auto lap = [&](detail::PhaseTime& phase) {
    const detail::PhaseTime t = now();
    phase = {t.wall - mark.wall, t.cpu - mark.cpu};
    mark = t;
  };
  const Comm& comm = source.comm();
  detail::Call call{detail::scatter_op_id(op)};
  const detail::Resolved agreed = detail::resolve_call(call, options, source.local());
  const Device device = agreed.device;
  const OutOfBoundsPolicy policy = agreed.policy;
  call.settings.push_back(detail::flag_setting("deterministic flag", options.deterministic));
  call.operands = {
      {"tensor", detail::describe(source.local()), detail::Spread::kSharded, &source.layout()},
      {"indices", detail::describe(indices), detail::Spread::kPerRank},
      {"updates", detail::describe(updates), detail::Spread::kPerRank}};
  // From here to the exchange every check runs on data every rank has: the same error.
  const auto all = detail::agree_call(comm, call);
  std::vector<std::int64_t> row_starts;
  core::ScatterNdPlan plan =
      detail::check_scatter(op, source.global_shape(), all[0][0].dtype, all[1], all[2], row_starts);
  const std::int64_t rows = row_starts[comm.rank() + 1] - row_starts[comm.rank()];
  ScatterOptions local = agreed.local(options);
  lap(g_phases.validate);
  if (comm.size() == 1) {
    // The one rank owns every row from offset 0: the single-process op on the caller's own
    // buffers is the op (its errors are the single-process ones), and nothing moves.
    detail::agree(comm, [&] { local_op(op)(target.local(), indices, updates, local); });
    lap(g_phases.apply);
    return;
  }

  detail::Scratch& scratch = detail::CommAccess::scratch(comm);
  const std::size_t slice_bytes = static_cast<std::size_t>(plan.slice_size) * updates.type_size();
  TensorBuffer device_sent_index = TensorBuffer::create_dynamic(DataType::kInt64);
  TensorBuffer device_sent_slices = TensorBuffer::create_dynamic(DataType::kUInt8);
  // Device pointers go to MPI only when it is CUDA-aware and the user asked (cuda_aware.hpp).
  const bool mpi_on_device = device.is_cuda() && detail::mpi_takes_device_pointers();
  std::optional<Routed> routed_here;
  detail::agree(comm, [&] {
    if (device.is_cuda()) {
      routed_here.emplace(route_on_device(plan, source.layout(), indices, updates, rows,
                                          slice_bytes, device, options.stream, mpi_on_device,
                                          device_sent_index, device_sent_slices));
    } else {
      routed_here.emplace(route(plan, source.layout(), indices, rows, scratch.owner));
    }
  });
  const Routed& routed = *routed_here;
  lap(g_phases.route);
  if (policy == OutOfBoundsPolicy::kError) raise_first_bad(comm, plan, routed, row_starts);
  const std::vector<std::int64_t>& send_counts = routed.counts;
  const std::vector<std::int64_t> recv_counts = detail::exchange_counts(comm, send_counts);
  lap(g_phases.counts);

  const int size = comm.size();
  const int rank = comm.rank();
  const std::size_t depth = static_cast<std::size_t>(plan.depth);
  const std::vector<std::int64_t> recv_starts = detail::source_starts(recv_counts);
  const std::int64_t received = recv_starts.back();
  // Send buffers kept with the Comm. The received rows go to the local op without a copy:
  // on the CPU they land in buffers kept with the Comm too (load_buffer references them); for
  // a CUDA run in the host copies of new buffers, pinned, which the local op uploads.
  std::vector<std::int64_t> slice_dims(plan.tensor_dims.begin() + plan.depth,
                                       plan.tensor_dims.end());
  slice_dims.insert(slice_dims.begin(), received);
  const Shape index_shape{received, static_cast<std::int64_t>(depth)};
  const std::size_t index_bytes = static_cast<std::size_t>(received) * depth * 8;
  const std::size_t rows_bytes = static_cast<std::size_t>(received) * slice_bytes;
  TensorBuffer index = TensorBuffer::create_dynamic(DataType::kInt64);
  TensorBuffer rows_in = TensorBuffer::create_dynamic(plan.dtype);
  std::byte* send_index = nullptr;
  std::byte* send_slices = nullptr;
  std::byte* recv_index = nullptr;
  std::byte* recv_slices = nullptr;
  detail::agree(comm, [&] {
    if (device.is_cuda()) {  // routed on the device: every owner's rows, this rank's too
      index = TensorBuffer::create_uninitialized(index_shape, DataType::kInt64);
      rows_in = TensorBuffer::create_uninitialized(Shape(slice_dims), plan.dtype);
      // The bytes MPI reads (keep) or writes: the host copies, or the device ones.
      std::optional<core::BackendRun> mpi_side;
      if (mpi_on_device) mpi_side.emplace(device, options.stream);
      auto bytes_for_mpi = [&](TensorBuffer& buffer, bool keep) -> std::byte* {
        if (buffer.size_bytes() == 0) return nullptr;
        if (mpi_side) {
          return static_cast<std::byte*>(keep ? mpi_side->mutate(buffer)
                                              : mpi_side->overwrite(buffer));
        }
        return static_cast<std::byte*>(keep ? buffer.mutable_host_bytes()
                                            : buffer.overwrite_host_bytes());
      };
      recv_index = bytes_for_mpi(index, false);
      recv_slices = bytes_for_mpi(rows_in, false);
      send_index = bytes_for_mpi(device_sent_index, true);
      send_slices = bytes_for_mpi(device_sent_slices, true);
      if (mpi_side) {
        mpi_side->finish();
        // MPI reads and writes device memory outside any stream of ours: the routing's writes
        // and the receive buffers' allocations are complete first.
        tensorbuf::synchronize(device, options.stream);
      }
      return;
    }
    recv_index = detail::room(scratch.recv_index, index_bytes);
    recv_slices = detail::room(scratch.recv_slices, rows_bytes);
    std::int64_t to_others = 0;
    for (int p = 0; p < size; ++p) to_others += p != rank ? send_counts[p] : 0;
    send_index = detail::room(scratch.send_index, static_cast<std::size_t>(to_others) * depth * 8);
    send_slices =
        detail::room(scratch.send_slices, static_cast<std::size_t>(to_others) * slice_bytes);
    Destinations to;
    std::int64_t at = 0;  // rows before owner p's group in the send buffer
    for (int p = 0; p < size; ++p) {
      const bool mine = p == rank;
      const auto first = static_cast<std::size_t>(mine ? recv_starts[p] : at);
      to.index.push_back((mine ? recv_index : send_index) + first * depth * 8);
      to.slices.push_back((mine ? recv_slices : send_slices) + first * slice_bytes);
      at += mine ? 0 : send_counts[p];
    }
    bucket(plan, source.layout(), indices, updates, rows, scratch.owner, to, slice_bytes);
  });
  lap(g_phases.bucket);
  detail::or_abort(comm, [&] {
    const bool self_placed = !device.is_cuda();
    detail::exchange_rows(comm, send_index, send_counts, recv_index, recv_counts, depth * 8,
                          self_placed);
    detail::exchange_rows(comm, send_slices, send_counts, recv_slices, recv_counts, slice_bytes,
                          self_placed);
    lap(g_phases.exchange);
    if (!device.is_cuda()) {
      index.load_buffer({recv_index, index_bytes}, index_shape);
      rows_in.load_buffer({recv_slices, rows_bytes}, Shape(slice_dims));
    }
    // Every received row was checked on its sender and is in bounds: kDrop drops none of them
    // and spares the local op its check pass (kError's).
    local.out_of_bounds = OutOfBoundsPolicy::kDrop;
    local_op(op)(target.local(), index, rows_in, local);
  });
  lap(g_phases.apply);
}

ShardedTensor run_out_of_place(ScatterOp op, const ShardedTensor& tensor,
                               const TensorBuffer& indices, const TensorBuffer& updates,
                               const ScatterOptions& options) {
  ScatterOptions resolved = options;
  // The copy lives on the host; run where the original would have.
  if (!resolved.device) resolved.device = tensor.local().residence();
  ShardedTensor out(tensor.comm(), tensor.layout(), tensor.local().clone());
  run(op, out, out, indices, updates, resolved);
  return out;
}

}  // namespace

const detail::ScatterPhases& detail::last_scatter_phases() { return g_phases; }

#define TENSORBUF_DEFINE_DIST_SCATTER(name, op, what)                                      \
  void tensor_scatter_nd_##name##_in_place(ShardedTensor& tensor, const TensorBuffer& indices, \
                                           const TensorBuffer& updates,                        \
                                           const ScatterOptions& options) {                    \
    run(ScatterOp::op, tensor, tensor, indices, updates, options);                             \
  }                                                                                            \
  ShardedTensor tensor_scatter_nd_##name(const ShardedTensor& tensor,                          \
                                         const TensorBuffer& indices,                          \
                                         const TensorBuffer& updates,                          \
                                         const ScatterOptions& options) {                      \
    return run_out_of_place(ScatterOp::op, tensor, indices, updates, options);                 \
  }

TENSORBUF_SCATTER_COMBINES(TENSORBUF_DEFINE_DIST_SCATTER)

#undef TENSORBUF_DEFINE_DIST_SCATTER

}  // namespace tensorbuf::dist
