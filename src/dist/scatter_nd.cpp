// Distributed scatter ops (spec/distributed.md D3), PETSc SF / Tpetra Distributor style:
//  1. agree on the device and policy, all-gather the operands' descriptors and validate them
//     as the single-process op on the concatenated inputs (same error on every rank);
//  2. read the local indices once: bad rows (kError: the global first one, named on every
//     rank; kDrop: dropped here), the owner of each row and its index in the owner's rows;
//  3. bucket the rows by owner (stable), all-to-all of counts, one Alltoallv of indices and
//     one of update slices (exchange.hpp);
//  4. each owner applies what it received with the local op, in (source rank, source row)
//     order: duplicates fold exactly as in the single-process op.
// GPU shards are staged through the buffers' host copies (pinned when CUDA is usable); the
// local op copies the received rows to the device.
#include <climits>
#include <cstring>
#include <optional>

#include "core/dispatch.hpp"
#include "core/dtype_dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/plan_scatter_nd.hpp"
#include "dist/collective.hpp"
#include "dist/exchange.hpp"
#include "dist/validate.hpp"

namespace tensorbuf::dist {
namespace {

using core::ScatterOp;
using LocalOp = void (*)(TensorBuffer&, const TensorBuffer&, const TensorBuffer&,
                         const ScatterOptions&);

LocalOp local_op(ScatterOp op) {
  switch (op) {
    case ScatterOp::kSub:
      return &tensorbuf::tensor_scatter_nd_sub_in_place;
    case ScatterOp::kAdd:
      return &tensorbuf::tensor_scatter_nd_add_in_place;
    case ScatterOp::kUpdate:
      return &tensorbuf::tensor_scatter_nd_update_in_place;
    case ScatterOp::kMin:
      return &tensorbuf::tensor_scatter_nd_min_in_place;
    case ScatterOp::kMax:
      break;
  }
  return &tensorbuf::tensor_scatter_nd_max_in_place;
}

std::string device_text(std::int64_t kind) { return kind == 1 ? "cuda" : "cpu"; }
std::string policy_text(std::int64_t policy) {
  return policy == static_cast<std::int64_t>(OutOfBoundsPolicy::kDrop) ? "drop" : "error";
}
std::string flag_text(std::int64_t flag) { return flag != 0 ? "true" : "false"; }

// This rank's rows after step 2: for each kept row, its owner, its index in the owner's rows
// (int64, depth components) and its position here (in `scratch`, reused between calls); the
// first bad row and its components.
struct Routed {
  std::vector<int>& owner;
  std::vector<std::int64_t>& local_index;
  std::vector<std::int64_t>& kept_rows;
  std::int64_t first_bad = -1;
  std::vector<std::int64_t> bad_components;
};

Routed route(const core::ScatterNdPlan& plan, const RowLayout& layout, const TensorBuffer& indices,
             std::int64_t rows, detail::Scratch& scratch) {
  Routed out{scratch.owner, scratch.local_index, scratch.kept_rows};
  out.owner.clear();
  out.local_index.clear();
  out.kept_rows.clear();
  const int depth = plan.depth;
  core::dispatch_index_type(indices.data_type(), [&](auto tag) {
    using I = typename decltype(tag)::type;
    const I* idx = indices.host<I>();  // staged to the host if the indices live on the device
    std::vector<std::int64_t> c(static_cast<std::size_t>(depth));
    for (std::int64_t r = 0; r < rows; ++r) {
      bool bad = false;
      for (int i = 0; i < depth; ++i) {
        c[i] = static_cast<std::int64_t>(idx[r * depth + i]);
        bad = bad || c[i] < 0 || c[i] >= plan.index_dims[static_cast<std::size_t>(i)];
      }
      if (bad) {
        if (out.first_bad < 0) {
          out.first_bad = r;
          out.bad_components = c;
        }
        continue;
      }
      const int owner = layout.owner(c[0]);
      c[0] -= layout.offsets[owner];
      out.owner.push_back(owner);
      out.kept_rows.push_back(r);
      out.local_index.insert(out.local_index.end(), c.begin(), c.end());
    }
  });
  return out;
}

// Under kError: the first bad row over all ranks, raised on every rank with the single-process
// message (global row position, global shape). Collective.
void raise_first_bad(const Comm& comm, const core::ScatterNdPlan& plan, const Routed& routed,
                     const std::vector<std::int64_t>& row_starts) {
  const std::int64_t mine =
      routed.first_bad >= 0 ? row_starts[comm.rank()] + routed.first_bad : INT64_MAX;
  const std::int64_t first = detail::allreduce_min(comm, mine);
  if (first == INT64_MAX) return;
  int holder = 0;
  while (row_starts[holder + 1] <= first) ++holder;
  std::vector<std::int64_t> components = routed.bad_components;
  components.resize(static_cast<std::size_t>(plan.depth));
  MPI_Bcast(components.data(), plan.depth, MPI_INT64_T, holder, comm.get());
  throw InvalidArgumentError(core::bad_row_message(plan, first, components));
}

void run(ScatterOp op, const ShardedTensor& source, ShardedTensor& target,
         const TensorBuffer& indices, const TensorBuffer& updates, const ScatterOptions& options) {
  const Comm& comm = source.comm();
  const std::string_view name = core::scatter_op_name(op);
  Device device;
  OutOfBoundsPolicy policy = OutOfBoundsPolicy::kError;
  detail::agree(comm, [&] {
    device = core::resolve_device(options.device, source.local());
    policy = core::resolve_policy(options.out_of_bounds, device);
  });
  detail::Record record;
  record.add(device.is_cuda() ? 1 : 0);
  record.add(static_cast<std::int64_t>(policy));
  record.add(options.deterministic ? 1 : 0);
  record.add(detail::describe(source.local()));
  record.add(detail::describe(indices));
  record.add(detail::describe(updates));
  std::vector<std::int64_t> devices, policies, flags;
  std::vector<detail::BufferDesc> shards, all_indices, all_updates;
  for (const auto& words : detail::allgather(comm, record.words())) {
    detail::RecordReader reader(words);
    devices.push_back(reader.next());
    policies.push_back(reader.next());
    flags.push_back(reader.next());
    shards.push_back(reader.next_desc());
    all_indices.push_back(reader.next_desc());
    all_updates.push_back(reader.next_desc());
  }
  // From here to the exchange every check runs on data every rank has: the same error.
  detail::check_shards(name, source.layout(), shards);
  detail::check_agreed(name, "device", devices, &device_text);
  detail::check_agreed(name, "out-of-bounds policy", policies, &policy_text);
  detail::check_agreed(name, "deterministic flag", flags, &flag_text);
  std::vector<std::int64_t> row_starts;
  core::ScatterNdPlan plan = detail::check_scatter(op, source.global_shape(), shards[0].dtype,
                                                   all_indices, all_updates, row_starts);
  const std::int64_t rows = row_starts[comm.rank() + 1] - row_starts[comm.rank()];

  detail::Scratch& scratch = detail::CommAccess::scratch(comm);
  std::optional<Routed> routed_here;
  detail::agree(comm,
                [&] { routed_here.emplace(route(plan, source.layout(), indices, rows, scratch)); });
  const Routed& routed = *routed_here;
  if (policy == OutOfBoundsPolicy::kError) raise_first_bad(comm, plan, routed, row_starts);

  // Bucket by owner, stable: a counting sort of the kept rows.
  const int size = comm.size();
  const std::size_t depth = static_cast<std::size_t>(plan.depth);
  const std::size_t slice_bytes = static_cast<std::size_t>(plan.slice_size) * updates.type_size();
  std::vector<std::int64_t> send_counts(static_cast<std::size_t>(size), 0);
  for (const int o : routed.owner) ++send_counts[o];
  std::vector<std::int64_t> recv_counts = detail::exchange_counts(comm, send_counts);
  std::int64_t received = 0;
  for (const std::int64_t c : recv_counts) received += c;
  // Send buffers kept with the Comm. The received rows go to the local op without a copy:
  // on the CPU they land in buffers kept with the Comm too (load_buffer references them); for
  // a CUDA run in the host copies of new buffers, pinned, which the local op uploads.
  std::vector<std::int64_t> slice_dims(plan.tensor_shape.dims().begin() + plan.depth,
                                       plan.tensor_shape.dims().end());
  slice_dims.insert(slice_dims.begin(), received);
  const Shape index_shape{received, static_cast<std::int64_t>(depth)};
  const std::size_t index_bytes = static_cast<std::size_t>(received) * depth * 8;
  const std::size_t rows_bytes = static_cast<std::size_t>(received) * slice_bytes;
  TensorBuffer index = TensorBuffer::create_dynamic(DataType::kInt64);
  TensorBuffer rows_in = TensorBuffer::create_dynamic(plan.dtype);
  std::byte* send_index = nullptr;
  std::byte* send_slices = nullptr;
  void* recv_index = nullptr;
  void* recv_slices = nullptr;
  detail::agree(comm, [&] {
    const std::size_t kept = routed.owner.size();
    send_index = detail::room(scratch.send_index, kept * depth * 8);
    send_slices = detail::room(scratch.send_slices, kept * slice_bytes);
    if (device.is_cuda()) {
      index = TensorBuffer::create_uninitialized(index_shape, DataType::kInt64);
      rows_in = TensorBuffer::create_uninitialized(Shape(slice_dims), plan.dtype);
      recv_index = index_bytes != 0 ? index.overwrite_host_bytes() : nullptr;
      recv_slices = rows_bytes != 0 ? rows_in.overwrite_host_bytes() : nullptr;
    } else {
      recv_index = detail::room(scratch.recv_index, index_bytes);
      recv_slices = detail::room(scratch.recv_slices, rows_bytes);
    }
    std::vector<std::int64_t> next(static_cast<std::size_t>(size) + 1, 0);
    for (int p = 0; p < size; ++p) next[p + 1] = next[p] + send_counts[p];
    const auto* slices = static_cast<const std::byte*>(updates.host_bytes());  // staged
    for (std::size_t k = 0; k < kept; ++k) {
      const auto at = static_cast<std::size_t>(next[routed.owner[k]]++);
      std::memcpy(send_index + at * depth * 8, &routed.local_index[k * depth], depth * 8);
      if (slice_bytes != 0) {
        std::memcpy(send_slices + at * slice_bytes,
                    slices + static_cast<std::size_t>(routed.kept_rows[k]) * slice_bytes,
                    slice_bytes);
      }
    }
  });
  detail::or_abort(comm, [&] {
    detail::exchange_rows(comm, send_index, send_counts, recv_index, recv_counts, depth * 8);
    detail::exchange_rows(comm, send_slices, send_counts, recv_slices, recv_counts, slice_bytes);
    if (!device.is_cuda()) {
      index.load_buffer({static_cast<const std::byte*>(recv_index), index_bytes}, index_shape);
      rows_in.load_buffer({static_cast<const std::byte*>(recv_slices), rows_bytes},
                          Shape(slice_dims));
    }
    ScatterOptions local = options;
    local.device = device;
    local.out_of_bounds = policy;
    local_op(op)(target.local(), index, rows_in, local);
  });
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

#define TENSORBUF_DEFINE_DIST_SCATTER(name, op)                                      \
  void name##_in_place(ShardedTensor& tensor, const TensorBuffer& indices,           \
                       const TensorBuffer& updates, const ScatterOptions& options) { \
    run(op, tensor, tensor, indices, updates, options);                              \
  }                                                                                  \
  ShardedTensor name(const ShardedTensor& tensor, const TensorBuffer& indices,       \
                     const TensorBuffer& updates, const ScatterOptions& options) {   \
    return run_out_of_place(op, tensor, indices, updates, options);                  \
  }

TENSORBUF_DEFINE_DIST_SCATTER(tensor_scatter_nd_sub, ScatterOp::kSub)
TENSORBUF_DEFINE_DIST_SCATTER(tensor_scatter_nd_add, ScatterOp::kAdd)
TENSORBUF_DEFINE_DIST_SCATTER(tensor_scatter_nd_update, ScatterOp::kUpdate)
TENSORBUF_DEFINE_DIST_SCATTER(tensor_scatter_nd_min, ScatterOp::kMin)
TENSORBUF_DEFINE_DIST_SCATTER(tensor_scatter_nd_max, ScatterOp::kMax)

#undef TENSORBUF_DEFINE_DIST_SCATTER

}  // namespace tensorbuf::dist
