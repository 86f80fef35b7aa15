// Distributed boolean_mask_update (spec/distributed.md D3). No payload moves between ranks:
//  - axis 0, mask sharded like the tensor: rank q with t_q local true entries takes rows
//    [s_q, s_q + t_q) of the (replicated) updates, s_q = MPI_Exscan(t_q); n = sum of t_q;
//  - axis >= 1, mask replicated: rank q takes the rows of `updates` (broadcast to the global
//    target shape, aligned from the right) that fall in its tensor rows.
// Either way the part is a zero-copy view of `updates`' host bytes, or `updates` itself when
// it is broadcast along dim 0; the local op does the rest. Validation first, on the global
// shapes and the global n, the same on every rank.
#include "core/dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/op_errors.hpp"
#include "core/plan_boolean_mask_update.hpp"
#include "mpi/agreement.hpp"
#include "mpi/collective.hpp"
#include "mpi/mask_agreement.hpp"
#include "mpi/row_part.hpp"
#include "mpi/validate.hpp"
#include "tensorbuf/spellings.hpp"

namespace tensorbuf::dist {
namespace {

constexpr std::string_view kName = spelling(OpFamily::kBooleanMaskUpdate);

// The agreement step (mask_agreement.hpp) of either overload: `sharded` is the mask of the
// axis-0 overload (null: `mask` is replicated).
detail::MaskCall agree_operands(const ShardedTensor& tensor, const ShardedTensor* sharded,
                                const TensorBuffer& mask, const TensorBuffer& updates,
                                const BooleanMaskUpdateOptions& options) {
  return detail::agree_mask_call(
      kName,
      sharded != nullptr ? detail::OpId::kMaskUpdateShardedMask
                         : detail::OpId::kMaskUpdateReplicatedMask,
      tensor, sharded, mask, options, {detail::flag_setting("broadcast flag", options.broadcast)},
      {{"updates", detail::describe(updates), detail::Spread::kReplicated}});
}

void apply_local(const Comm& comm, TensorBuffer& local, const TensorBuffer& mask,
                 const TensorBuffer& part, const Device& device,
                 const BooleanMaskUpdateOptions& options, int axis) {
  BooleanMaskUpdateOptions local_options = options;
  local_options.device = device;
  local_options.axis = axis;
  // The ranks were validated together; a failure here is a resource or CUDA failure, and the
  // other ranks may have written: end the job rather than leave a partial result (D3).
  detail::or_abort(
      comm, [&] { tensorbuf::boolean_mask_update_in_place(local, mask, part, local_options); });
}

}  // namespace

void boolean_mask_update_in_place(ShardedTensor& tensor, const ShardedTensor& mask,
                                  const TensorBuffer& updates,
                                  const BooleanMaskUpdateOptions& options) {
  const Comm& comm = tensor.comm();
  const detail::MaskCall agreed = agree_operands(tensor, &mask, mask.local(), updates, options);
  const std::int64_t mine = detail::count_true(mask.local());
  const std::int64_t n = detail::allreduce_sum(comm, mine);
  const std::int64_t first = detail::exscan_sum(comm, mine);
  const core::BooleanMaskUpdatePlan plan = core::plan_boolean_mask_update(
      detail::global_tensor_stand_in(tensor), detail::global_mask_stand_in(agreed, &mask),
      updates, options, n);
  detail::check_mask_axis(kName, true, plan.axis, options.axis);
  core::raise_if_rejected(plan, core::counted_mask_result(n, plan.required_count));
  const int target_rank = plan.tensor_shape.rank() - plan.mask_rank + 1;
  TensorBuffer view = TensorBuffer::create_dynamic(updates.data_type());
  const TensorBuffer& part =
      detail::row_part(updates, target_rank, plan.broadcast, first, mine, view);
  apply_local(comm, tensor.local(), mask.local(), part, agreed.device, options, 0);
}

void boolean_mask_update_in_place(ShardedTensor& tensor, const TensorBuffer& mask,
                                  const TensorBuffer& updates,
                                  const BooleanMaskUpdateOptions& options) {
  const Comm& comm = tensor.comm();
  const detail::MaskCall agreed = agree_operands(tensor, nullptr, mask, updates, options);
  // The mask is replicated: its own count is the global n, and the single-process checks
  // (which count it for their messages) give the same text on every rank.
  const core::BooleanMaskUpdatePlan plan = core::plan_boolean_mask_update(
      detail::global_tensor_stand_in(tensor), mask, updates, options);
  detail::check_mask_axis(kName, false, plan.axis, options.axis);
  const std::int64_t n = agreed.replicated_count;
  core::raise_if_rejected(plan, core::counted_mask_result(n, plan.required_count));
  const int target_rank = plan.tensor_shape.rank() - plan.mask_rank + 1;
  TensorBuffer view = TensorBuffer::create_dynamic(updates.data_type());
  const int rank = comm.rank();
  const TensorBuffer& part =
      detail::row_part(updates, target_rank, plan.broadcast, tensor.layout().offsets[rank],
                       tensor.layout().rows_of(rank), view);
  apply_local(comm, tensor.local(), mask, part, agreed.device, options, plan.axis);
}

}  // namespace tensorbuf::dist
