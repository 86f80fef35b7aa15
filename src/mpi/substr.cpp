// ShardedStrings and the distributed substr (spec/distributed.md D3): validated on the global
// shapes, run locally on each rank's rows with its part of pos and len, and an out-of-range
// pos under kError named by its global flat index (the first over all ranks).
#include <climits>

#include "core/dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/op_errors.hpp"
#include "core/op_substr.hpp"
#include "core/plan_substr.hpp"
#include "core/shape_product.hpp"
#include "core/string_tensor_access.hpp"
#include "mpi/agreement.hpp"
#include "mpi/collective.hpp"
#include "mpi/row_part.hpp"
#include "mpi/validate.hpp"
#include "tensorbuf/spellings.hpp"

namespace tensorbuf::dist {
namespace {

constexpr std::string_view kName = spelling(OpFamily::kSubstr);

// A StringTensor's shape and residence, in the descriptors' form (dtype: its chars').
detail::BufferDesc describe_strings(const StringTensor& s) {
  return detail::BufferDesc{DataType::kUInt8, s.shape().dims(), s.residence().kind};
}

}  // namespace

ShardedStrings::ShardedStrings(Comm comm, RowLayout layout, StringTensor local)
    : comm_(std::move(comm)), layout_(std::move(layout)), local_(std::move(local)) {
  detail::check_new_shard("ShardedStrings", comm_, layout_, describe_strings(local_));
}

Shape ShardedStrings::global_shape() const {
  std::vector<std::int64_t> dims = local_.shape().dims();
  dims[0] = layout_.rows();
  return Shape(std::move(dims));
}

ShardedStrings substr(const ShardedStrings& input, const TensorBuffer& pos, const TensorBuffer& len,
                      const SubstrOptions& options) {
  const Comm& comm = input.comm();
  detail::Call call{detail::OpId::kSubstr};
  const detail::Resolved agreed = detail::resolve_call(call, options, input.local().offsets());
  call.settings.push_back(detail::unit_setting(options.unit));
  call.operands = {
      {"input", describe_strings(input.local()), detail::Spread::kSharded, &input.layout()},
      {"pos", detail::describe(pos), detail::Spread::kReplicated},
      {"len", detail::describe(len), detail::Spread::kReplicated}};
  detail::agree_call(comm, call);
  // The single-process checks on the global shapes (a shape-only stand-in of the input).
  const Shape global = input.global_shape();
  const StringTensor stand_in = core::StringTensorAccess::make_unchecked(
      TensorBuffer::create_uninitialized(Shape{global.num_elements() + 1}, DataType::kInt64),
      TensorBuffer::create_uninitialized(Shape{0}, DataType::kUInt8), global);
  const core::SubstrPlan plan = core::plan_substr(stand_in, pos, len, options);
  TENSORBUF_EXPECTS(plan.out_shape.rank() == global.rank() && plan.out_shape[0] == global[0],
                    InvalidArgumentError,
                    core::str_cat(kName, ": pos and len of shape ", pos.shape().to_string(),
                                  " broadcast against the input shape ", global.to_string(),
                                  " give ", plan.out_shape.to_string(),
                                  "; dim 0 must stay the input's (its rows are sharded)"));

  const int rank = comm.rank();
  const std::int64_t first_row = input.layout().offsets[rank];
  const std::int64_t rows = input.layout().rows_of(rank);
  TensorBuffer pos_view = TensorBuffer::create_dynamic(pos.data_type());
  TensorBuffer len_view = TensorBuffer::create_dynamic(len.data_type());
  std::optional<core::SubstrRun> run;
  detail::agree(comm, [&] {
    const int target_rank = global.rank();
    const TensorBuffer& pos_part =
        detail::row_part(pos, target_rank, true, first_row, rows, pos_view);
    const TensorBuffer& len_part =
        detail::row_part(len, target_rank, true, first_row, rows, len_view);
    run = core::run_substr(input.local(), pos_part, len_part, agreed.local(options));
  });
  // kError: the first bad element over all ranks; its rank formats the message (its string's
  // bytes are there) with the global index, and every rank throws it.
  const std::int64_t row_elems =
      core::dims_product(plan.out_shape.dims(), 1, plan.out_shape.dims().size());
  const std::int64_t mine =
      run->out ? INT64_MAX : first_row * row_elems + run->result.first_bad_index;
  detail::raise_first_rejection(comm, mine, [&](std::int64_t first) {
    core::SubstrResult named = run->result;
    named.first_bad_index = first;
    return core::rejection_message(input.local(), named);
  });
  return ShardedStrings(comm, input.layout(), std::move(*run->out));
}

}  // namespace tensorbuf::dist
