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
#include "core/plan_boolean_mask_update.hpp"
#include "dist/collective.hpp"
#include "dist/row_part.hpp"
#include "dist/validate.hpp"

namespace tensorbuf::dist {
namespace {

constexpr std::string_view kName = "boolean_mask_update";

std::string device_text(std::int64_t kind) { return kind == 1 ? "cuda" : "cpu"; }
std::string number_text(std::int64_t v) { return std::to_string(v); }
std::string flag_text(std::int64_t flag) { return flag != 0 ? "true" : "false"; }

// The operands' descriptors from every rank, checked to agree, and the agreed device.
struct Agreed {
  Device device;
  std::vector<detail::BufferDesc> tensors, masks;
};

Agreed agree_operands(const ShardedTensor& tensor, const TensorBuffer& mask_local,
                      const TensorBuffer& updates, const BooleanMaskUpdateOptions& options) {
  const Comm& comm = tensor.comm();
  Agreed out;
  detail::agree(comm, [&] { out.device = core::resolve_device(options.device, tensor.local()); });
  detail::Record record;
  record.add(out.device.is_cuda() ? 1 : 0);
  record.add(options.axis);
  record.add(options.broadcast ? 1 : 0);
  record.add(detail::describe(tensor.local()));
  record.add(detail::describe(mask_local));
  record.add(detail::describe(updates));
  std::vector<std::int64_t> devices, axes, flags;
  std::vector<detail::BufferDesc> all_updates;
  for (const auto& words : detail::allgather(comm, record.words())) {
    detail::RecordReader reader(words);
    devices.push_back(reader.next());
    axes.push_back(reader.next());
    flags.push_back(reader.next());
    out.tensors.push_back(reader.next_desc());
    out.masks.push_back(reader.next_desc());
    all_updates.push_back(reader.next_desc());
  }
  detail::check_shards(kName, tensor.layout(), out.tensors);
  detail::check_agreed(kName, "device", devices, &device_text);
  detail::check_agreed(kName, "axis", axes, &number_text);
  detail::check_agreed(kName, "broadcast flag", flags, &flag_text);
  for (std::size_t q = 1; q < all_updates.size(); ++q) {
    const detail::BufferDesc& u = all_updates[q];
    TENSORBUF_EXPECTS(u.dtype == all_updates[0].dtype && u.dims == all_updates[0].dims,
                      InvalidArgumentError,
                      core::str_cat(kName, ": rank ", q, " passes updates ", detail::desc_text(u),
                                    ", rank 0 ", detail::desc_text(all_updates[0]),
                                    " (updates are replicated: the same on every rank)"));
  }
  return out;
}

std::int64_t count_true(const TensorBuffer& mask) {
  if (mask.data_type() != DataType::kBool) return 0;  // the plan rejects it on every rank
  const auto* bytes = mask.host<std::uint8_t>();
  std::int64_t n = 0;
  for (std::int64_t i = 0; i < mask.flat_size(); ++i) n += bytes[i] != 0 ? 1 : 0;
  return n;
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
  detail::agree(comm, [&] {
    detail::check_same_distribution(kName, comm, tensor.layout(), mask.comm(), mask.layout());
  });
  const Agreed agreed = agree_operands(tensor, mask.local(), updates, options);
  detail::check_shards(kName, mask.layout(), agreed.masks);
  const std::int64_t mine = count_true(mask.local());
  const std::int64_t n = detail::allreduce_sum(comm, mine);
  const std::int64_t first = detail::exscan_sum(comm, mine);
  // Shape-only stand-ins of the global tensor and mask (nothing allocated).
  const TensorBuffer global_tensor =
      TensorBuffer::create_uninitialized(tensor.global_shape(), tensor.local().data_type());
  std::vector<std::int64_t> mask_dims = agreed.masks[0].dims;
  mask_dims[0] = mask.layout().rows();
  const TensorBuffer global_mask =
      TensorBuffer::create_uninitialized(Shape(mask_dims), agreed.masks[0].dtype);
  const core::BooleanMaskUpdatePlan plan =
      core::plan_boolean_mask_update(global_tensor, global_mask, updates, options, n);
  TENSORBUF_EXPECTS(plan.axis == 0, InvalidArgumentError,
                    core::str_cat(kName, ": a sharded mask goes along axis 0, got axis ",
                                  options.axis, " (pass a replicated mask for axis >= 1)"));
  if (plan.required_count >= 0 && plan.required_count != n) {
    core::raise_mask_update_shape_error(plan, n);
  }
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
  const Agreed agreed = agree_operands(tensor, mask, updates, options);
  const TensorBuffer global_tensor =
      TensorBuffer::create_uninitialized(tensor.global_shape(), tensor.local().data_type());
  // The mask is replicated: its own count is the global n, and the single-process checks
  // (which count it for their messages) give the same text on every rank.
  const core::BooleanMaskUpdatePlan plan =
      core::plan_boolean_mask_update(global_tensor, mask, updates, options);
  TENSORBUF_EXPECTS(plan.axis >= 1, InvalidArgumentError,
                    core::str_cat(kName, ": a replicated mask goes along axis >= 1, got axis ",
                                  options.axis, " (shard the mask for axis 0)"));
  const std::int64_t n = count_true(mask);
  if (plan.required_count >= 0 && plan.required_count != n) {
    core::raise_mask_update_shape_error(plan, n);
  }
  const int target_rank = plan.tensor_shape.rank() - plan.mask_rank + 1;
  TensorBuffer view = TensorBuffer::create_dynamic(updates.data_type());
  const int rank = comm.rank();
  const TensorBuffer& part =
      detail::row_part(updates, target_rank, plan.broadcast, tensor.layout().offsets[rank],
                       tensor.layout().rows_of(rank), view);
  apply_local(comm, tensor.local(), mask, part, agreed.device, options, plan.axis);
}

}  // namespace tensorbuf::dist
