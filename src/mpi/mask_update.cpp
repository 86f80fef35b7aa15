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
#include "mpi/row_part.hpp"
#include "mpi/validate.hpp"

namespace tensorbuf::dist {
namespace {

constexpr std::string_view kName = "boolean_mask_update";

std::int64_t count_true(const TensorBuffer& mask) {
  if (mask.data_type() != DataType::kBool) return 0;  // the plan rejects it on every rank
  const auto* bytes = mask.host<std::uint8_t>();
  std::int64_t n = 0;
  for (std::int64_t i = 0; i < mask.flat_size(); ++i) n += bytes[i] != 0 ? 1 : 0;
  return n;
}

// The agreement step (agreement.hpp) of either overload: `sharded` is the mask of the axis-0
// overload (null: `mask` is replicated). Returns the agreed device and every rank's mask.
struct Agreed {
  Device device;
  std::vector<detail::BufferDesc> masks;
  std::int64_t replicated_count = 0;  // a replicated mask's true entries: the global n
};
Agreed agree_operands(const ShardedTensor& tensor, const ShardedTensor* sharded,
                      const TensorBuffer& mask, const TensorBuffer& updates,
                      const BooleanMaskUpdateOptions& options) {
  Agreed out;
  detail::Call call{sharded != nullptr ? detail::OpId::kMaskUpdateShardedMask
                                       : detail::OpId::kMaskUpdateReplicatedMask};
  call.failure = detail::attempt([&] {
    out.device = core::resolve_device(options.device, tensor.local());
    if (sharded != nullptr) {
      detail::check_same_distribution(kName, tensor.comm(), tensor.layout(), sharded->comm(),
                                      sharded->layout());
    } else {
      out.replicated_count = count_true(mask);  // staged if on the device
    }
  });
  call.settings = {detail::device_setting(out.device), detail::number_setting("axis", options.axis),
                   detail::flag_setting("broadcast flag", options.broadcast)};
  if (sharded == nullptr) {
    call.settings.push_back(
        detail::number_setting("replicated mask's true count", out.replicated_count));
  }
  call.operands = {
      {"tensor", detail::describe(tensor.local()), detail::Spread::kSharded, &tensor.layout()},
      {"mask", detail::describe(mask),
       sharded != nullptr ? detail::Spread::kSharded : detail::Spread::kReplicated,
       sharded != nullptr ? &sharded->layout() : nullptr},
      {"updates", detail::describe(updates), detail::Spread::kReplicated}};
  out.masks = std::move(detail::agree_call(tensor.comm(), call)[1]);
  return out;
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
  const Agreed agreed = agree_operands(tensor, &mask, mask.local(), updates, options);
  const std::vector<detail::BufferDesc>& masks = agreed.masks;
  const std::int64_t mine = count_true(mask.local());
  const std::int64_t n = detail::allreduce_sum(comm, mine);
  const std::int64_t first = detail::exscan_sum(comm, mine);
  // Shape-only stand-ins of the global tensor and mask (nothing allocated).
  const TensorBuffer global_tensor =
      TensorBuffer::create_uninitialized(tensor.global_shape(), tensor.local().data_type());
  std::vector<std::int64_t> mask_dims = masks[0].dims;
  mask_dims[0] = mask.layout().rows();
  const TensorBuffer global_mask =
      TensorBuffer::create_uninitialized(Shape(mask_dims), masks[0].dtype);
  const core::BooleanMaskUpdatePlan plan =
      core::plan_boolean_mask_update(global_tensor, global_mask, updates, options, n);
  TENSORBUF_EXPECTS(plan.axis == 0, InvalidArgumentError,
                    core::str_cat(kName, ": a sharded mask goes along axis 0, got axis ",
                                  options.axis, " (pass a replicated mask for axis >= 1)"));
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
  const Agreed agreed = agree_operands(tensor, nullptr, mask, updates, options);
  const TensorBuffer global_tensor =
      TensorBuffer::create_uninitialized(tensor.global_shape(), tensor.local().data_type());
  // The mask is replicated: its own count is the global n, and the single-process checks
  // (which count it for their messages) give the same text on every rank.
  const core::BooleanMaskUpdatePlan plan =
      core::plan_boolean_mask_update(global_tensor, mask, updates, options);
  TENSORBUF_EXPECTS(plan.axis >= 1, InvalidArgumentError,
                    core::str_cat(kName, ": a replicated mask goes along axis >= 1, got axis ",
                                  options.axis, " (shard the mask for axis 0)"));
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
