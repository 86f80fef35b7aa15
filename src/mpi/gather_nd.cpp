// Distributed gather_nd (spec/indexing.md 6): the inverse of the distributed scatter's route.
//  1. agree on the device, policy and batch_dims, all-gather the indices' descriptors and
//     validate them as the single-process op on the concatenated indices (same error
//     everywhere);
//  2. one read of the local indices: each row's owner (the rank holding the params row its
//     request starts in) and bounds; under kError the first bad row over all ranks is raised on
//     every rank before anything moves; an all-to-all of the counts per owner;
//  3. a second read writes each row's request, the full coordinate into params as int64
//     (batch coordinates, then the D components; dim 0 made owner-local), grouped by owner in
//     rank order, each owner's in row order: this rank's own requests apart, the others'
//     through one Alltoallv;
//  4. each owner answers with the local single-process gather_nd (batch_dims 0, depth
//     batch_dims + D) on its shard: once for the other ranks' requests, in source order, once
//     for its own; the answers go back with one Alltoallv (the request exchange reversed);
//  5. one pass over the local rows in order puts each answer in its row of the result (a
//     dropped bad row: zeros).
// On one rank the single-process op runs on the caller's buffers: nothing needs to move.
#include <algorithm>
#include <climits>
#include <cstring>
#include <optional>
#include <utility>

#include "core/dispatch.hpp"
#include "core/dtype_dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/nd_indices.hpp"
#include "core/plan_gather_nd.hpp"
#include "mpi/agreement.hpp"
#include "mpi/collective.hpp"
#include "mpi/exchange.hpp"
#include "mpi/validate.hpp"

namespace tensorbuf::dist {
namespace {

// Where a row's request starts in params, as the owner needs it: the global row of params'
// dim 0 (batch_dims 0: the first component; else the row's batch's first coordinate) and,
// for batch_dims >= 1, the batch's other coordinates.
struct RowGeometry {
  const core::GatherNdPlan& plan;
  std::int64_t first_row = 0;  // this rank's first row in the concatenated indices
  // params.shape[1:b] product: how many batches one params row of dim 0 holds.
  std::int64_t batches_per_row = 1;

  explicit RowGeometry(const core::GatherNdPlan& p, std::int64_t first)
      : plan(p), first_row(first) {
    for (int i = 1; i < plan.batch_dims; ++i) batches_per_row *= plan.params_dims[i];
  }
  // The flat batch of local row r (batch_dims >= 1).
  std::int64_t batch_of(std::int64_t r) const {
    return plan.rows_per_batch == 0 ? 0 : (first_row + r) / plan.rows_per_batch;
  }
  template <class I>
  std::int64_t params_row(std::int64_t r, const I* c) const {
    if (plan.batch_dims == 0) return static_cast<std::int64_t>(c[0]);
    return batch_of(r) / batches_per_row;
  }
};

template <class I>
bool in_bounds(const core::GatherNdPlan& plan, const I* c) {
  bool ok = true;
  for (int i = 0; i < plan.depth; ++i) {
    const auto v = static_cast<std::int64_t>(c[i]);
    ok = ok && v >= 0 && v < plan.index_bounds[i];
  }
  return ok;
}

struct Routed {
  std::vector<std::int64_t> counts;  // requests per owner, in rank order
  std::int64_t first_bad = -1;       // local row, or -1
  std::vector<std::int64_t> bad_components;
};

// Step 2: owners (-1: out of bounds) into `owner`, the counts per owner, the first bad row.
Routed route(const core::GatherNdPlan& plan, const RowGeometry& geometry, const RowLayout& layout,
             const TensorBuffer& indices, std::int64_t rows, std::vector<int>& owner) {
  Routed out;
  out.counts.assign(static_cast<std::size_t>(layout.ranks()), 0);
  owner.resize(static_cast<std::size_t>(rows));
  core::dispatch_index_type(indices.data_type(), [&](auto tag) {
    using I = typename decltype(tag)::type;
    const I* idx = rows == 0 ? nullptr : indices.host<I>();  // staged if on the device
    for (std::int64_t r = 0; r < rows; ++r) {
      const I* c = idx + r * plan.depth;
      if (!in_bounds(plan, c)) {
        owner[static_cast<std::size_t>(r)] = -1;
        if (out.first_bad < 0) {
          out.first_bad = r;
          out.bad_components.assign(c, c + plan.depth);
        }
        continue;
      }
      const std::int64_t row = geometry.params_row(r, c);
      const auto o = std::upper_bound(layout.offsets.begin(), layout.offsets.end(), row) -
                     layout.offsets.begin() - 1;
      owner[static_cast<std::size_t>(r)] = static_cast<int>(o);
      ++out.counts[static_cast<std::size_t>(o)];
    }
  });
  return out;
}

// Under kError: the first bad row over all ranks, raised on every rank with the single-process
// message (global row position, global indices shape). Collective.
void raise_first_bad(const Comm& comm, const core::GatherNdPlan& plan, const Routed& routed,
                     const std::vector<std::int64_t>& row_starts) {
  const std::int64_t mine =
      routed.first_bad >= 0 ? row_starts[comm.rank()] + routed.first_bad : INT64_MAX;
  detail::raise_first_rejection(comm, mine, [&](std::int64_t first) {
    core::GatherNdResult named;
    named.first_bad_index = first;
    named.bad_components = routed.bad_components;
    named.bad_components.resize(static_cast<std::size_t>(plan.depth));
    return core::rejection_message(plan, named);
  });
}

// Step 3: each kept row's request (batch_dims + depth int64 words) to its owner's destination.
void write_requests(const core::GatherNdPlan& plan, const RowGeometry& geometry,
                    const RowLayout& layout, const TensorBuffer& indices, std::int64_t rows,
                    const std::vector<int>& owner, std::vector<std::byte*>& to) {
  const int b = plan.batch_dims;
  const std::size_t words = static_cast<std::size_t>(b + plan.depth);
  core::dispatch_index_type(indices.data_type(), [&](auto tag) {
    using I = typename decltype(tag)::type;
    const I* idx = rows == 0 ? nullptr : indices.host<I>();
    std::vector<std::int64_t> request(words);
    for (std::int64_t r = 0; r < rows; ++r) {
      const int o = owner[static_cast<std::size_t>(r)];
      if (o < 0) continue;
      const I* c = idx + r * plan.depth;
      // The batch's coordinates over params.shape[:b], last first.
      std::int64_t batch = b == 0 ? 0 : geometry.batch_of(r);
      for (int i = b - 1; i >= 0; --i) {
        request[static_cast<std::size_t>(i)] = i == 0 ? batch : batch % plan.params_dims[i];
        batch = i == 0 ? batch : batch / plan.params_dims[i];
      }
      for (int i = 0; i < plan.depth; ++i) {
        request[static_cast<std::size_t>(b + i)] = static_cast<std::int64_t>(c[i]);
      }
      request[0] -= layout.offsets[static_cast<std::size_t>(o)];
      std::memcpy(to[static_cast<std::size_t>(o)], request.data(), words * 8);
      to[static_cast<std::size_t>(o)] += words * 8;
    }
  });
}

// The local single-process gather of `count` requests at `requests` (int64, `words` each).
TensorBuffer answer(const TensorBuffer& shard, std::byte* requests, std::int64_t count,
                    std::size_t words, const GatherOptions& local) {
  TensorBuffer index = TensorBuffer::create_dynamic(DataType::kInt64);
  index.load_buffer({requests, static_cast<std::size_t>(count) * words * 8},
                    Shape{count, static_cast<std::int64_t>(words)});
  return tensorbuf::gather_nd(shard, index, local);
}

}  // namespace

TensorBuffer gather_nd(const ShardedTensor& params, const TensorBuffer& indices,
                       const GatherOptions& options) {
  const Comm& comm = params.comm();
  detail::Call call{detail::OpId::kGatherNd};
  const detail::Resolved agreed = detail::resolve_call(call, options, params.local());
  const OutOfBoundsPolicy policy = agreed.policy;
  call.settings.push_back(detail::number_setting("batch_dims", options.batch_dims));
  call.operands = {
      {"params", detail::describe(params.local()), detail::Spread::kSharded, &params.layout()},
      {"indices", detail::describe(indices), detail::Spread::kPerRank}};
  const auto all = detail::agree_call(comm, call);
  std::vector<std::int64_t> row_starts;
  const core::GatherNdPlan plan = detail::check_gather_nd(
      params.global_shape(), all[0][0].dtype, options.batch_dims, all[1], row_starts);
  const GatherOptions local = agreed.local(options);
  if (comm.size() == 1) {
    // The one rank holds all of params: the single-process op is the op.
    std::optional<TensorBuffer> out;
    detail::agree(comm, [&] { out.emplace(tensorbuf::gather_nd(params.local(), indices, local)); });
    return std::move(*out);
  }

  const int rank = comm.rank();
  const int size = comm.size();
  const std::int64_t rows = row_starts[rank + 1] - row_starts[rank];
  const RowGeometry geometry(plan, row_starts[rank]);
  detail::Scratch& scratch = detail::CommAccess::scratch(comm);
  std::optional<Routed> routed_here;
  detail::agree(comm, [&] {
    routed_here.emplace(route(plan, geometry, params.layout(), indices, rows, scratch.owner));
  });
  const Routed& routed = *routed_here;
  if (policy == OutOfBoundsPolicy::kError) raise_first_bad(comm, plan, routed, row_starts);

  // This rank's own requests never pass through MPI: both exchanges count none for it.
  std::vector<std::int64_t> asked = routed.counts;  // requests this rank sends to each owner
  const std::int64_t own = asked[static_cast<std::size_t>(rank)];
  asked[static_cast<std::size_t>(rank)] = 0;
  const std::vector<std::int64_t> to_answer = detail::exchange_counts(comm, asked);
  const std::size_t words = static_cast<std::size_t>(plan.batch_dims + plan.depth);
  const std::size_t slice_bytes = static_cast<std::size_t>(plan.slice_size) * plan.element_size;
  const std::vector<std::int64_t> request_starts = detail::source_starts(to_answer);
  const std::vector<std::int64_t> answer_starts = detail::source_starts(asked);
  std::int64_t sent = 0;
  for (const std::int64_t n : asked) sent += n;
  const std::int64_t received = request_starts.back();

  std::byte* send_index = nullptr;
  std::byte* own_index = nullptr;
  std::byte* recv_index = nullptr;
  std::byte* recv_answers = nullptr;
  std::optional<TensorBuffer> out;
  detail::agree(comm, [&] {
    send_index = detail::room(scratch.send_index, static_cast<std::size_t>(sent) * words * 8);
    own_index = detail::room(scratch.own_index, static_cast<std::size_t>(own) * words * 8);
    recv_index = detail::room(scratch.recv_index, static_cast<std::size_t>(received) * words * 8);
    recv_answers = detail::room(scratch.recv_slices, static_cast<std::size_t>(sent) * slice_bytes);
    std::vector<std::int64_t> result_dims(plan.indices_dims.begin(), plan.indices_dims.end() - 1);
    result_dims[0] = indices.shape()[0];
    result_dims.insert(result_dims.end(), plan.params_dims.begin() + plan.batch_dims + plan.depth,
                       plan.params_dims.end());
    out.emplace(TensorBuffer::create_fixed_size(Shape(result_dims), plan.dtype));
    std::vector<std::byte*> to(static_cast<std::size_t>(size));
    std::int64_t at = 0;
    for (int p = 0; p < size; ++p) {
      to[static_cast<std::size_t>(p)] =
          p == rank ? own_index : send_index + static_cast<std::size_t>(at) * words * 8;
      at += asked[static_cast<std::size_t>(p)];
    }
    write_requests(plan, geometry, params.layout(), indices, rows, scratch.owner, to);
  });
  TensorBuffer& result = *out;
  detail::or_abort(comm, [&] {
    detail::exchange_rows(comm, send_index, asked, recv_index, to_answer, words * 8);
    // Every request was checked on its sender: kDrop drops none and spares the check pass.
    GatherOptions answering = local;
    answering.out_of_bounds = OutOfBoundsPolicy::kDrop;
    answering.batch_dims = 0;
    const TensorBuffer theirs = answer(params.local(), recv_index, received, words, answering);
    const TensorBuffer mine = answer(params.local(), own_index, own, words, answering);
    detail::exchange_rows(comm, received == 0 || slice_bytes == 0 ? nullptr : theirs.host_bytes(),
                          to_answer, recv_answers, asked, slice_bytes);
    if (result.size_bytes() == 0) return;
    // Step 5: each row's answer, in row order; each owner's answers came in row order.
    auto* dst = static_cast<std::byte*>(result.overwrite_host_bytes());
    std::vector<const std::byte*> from(static_cast<std::size_t>(size));
    for (int p = 0; p < size; ++p) {
      from[static_cast<std::size_t>(p)] =
          p == rank ? static_cast<const std::byte*>(own == 0 ? nullptr : mine.host_bytes())
                    : recv_answers +
                          static_cast<std::size_t>(answer_starts[static_cast<std::size_t>(p)]) *
                              slice_bytes;
    }
    for (std::int64_t r = 0; r < rows; ++r, dst += slice_bytes) {
      const int o = scratch.owner[static_cast<std::size_t>(r)];
      if (o < 0) {
        std::memset(dst, 0, slice_bytes);  // kDrop: a bad row reads zeros
        continue;
      }
      std::memcpy(dst, from[static_cast<std::size_t>(o)], slice_bytes);
      from[static_cast<std::size_t>(o)] += slice_bytes;
    }
  });
  return std::move(result);
}

}  // namespace tensorbuf::dist
