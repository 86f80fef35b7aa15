// The one copy of the scatter driver's instantiations the tests share (driver_helpers.hpp).
#include "core/dtype_dispatch.hpp"
#include "kernels/scatter_nd.hpp"
#include "scatter_nd/driver_helpers.hpp"

namespace tensorbuf::testing::scatter {
namespace {

template <core::ScatterOp Op>
core::ScatterNdResult run_driver_op(kernels::HostExecutor& executor,
                                    const core::ScatterNdPlan& plan,
                                    const core::ScatterNdBuffers& buffers) {
  return core::dispatch_type(plan.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return core::dispatch_index_type(plan.index_dtype, [&](auto index_tag) {
      using Index = typename decltype(index_tag)::type;
      return kernels::run_scatter_nd<Op, T, Index>(executor, plan, buffers);
    });
  });
}

}  // namespace

core::ScatterNdResult run_driver(kernels::HostExecutor& executor, const core::ScatterNdPlan& plan,
                                 const core::ScatterNdBuffers& buffers) {
  switch (plan.op) {
    case core::ScatterOp::kSub:
      return run_driver_op<core::ScatterOp::kSub>(executor, plan, buffers);
    case core::ScatterOp::kAdd:
      return run_driver_op<core::ScatterOp::kAdd>(executor, plan, buffers);
    case core::ScatterOp::kUpdate:
      return run_driver_op<core::ScatterOp::kUpdate>(executor, plan, buffers);
    case core::ScatterOp::kMin:
      return run_driver_op<core::ScatterOp::kMin>(executor, plan, buffers);
    case core::ScatterOp::kMax:
      return run_driver_op<core::ScatterOp::kMax>(executor, plan, buffers);
  }
  return {};
}

}  // namespace tensorbuf::testing::scatter
