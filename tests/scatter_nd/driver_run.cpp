// The one copy of the scatter driver's instantiations the tests share (driver_helpers.hpp).
#include "core/dtype_dispatch.hpp"
#include "core/op_table.hpp"
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
#define TENSORBUF_TEST_DRIVER_CASE(name, op, what) \
  case core::ScatterOp::op:                        \
    return run_driver_op<core::ScatterOp::op>(executor, plan, buffers);
    TENSORBUF_SCATTER_COMBINES(TENSORBUF_TEST_DRIVER_CASE)
#undef TENSORBUF_TEST_DRIVER_CASE
  }
  return {};
}

}  // namespace tensorbuf::testing::scatter
