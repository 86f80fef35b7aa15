#include "core/op_errors.hpp"

#include <cstdint>
#include <string>
#include <vector>

#include "core/axis_indices.hpp"
#include "core/error_macros.hpp"
#include "core/nd_indices.hpp"
#include "core/elements_plan.hpp"
#include "core/gather_plan.hpp"

namespace tensorbuf::core {

std::string rejection_message(const ScatterNdPlan& plan, const ScatterNdResult& result) {
  return bad_index_message(plan.indices_dims, result.first_bad_index, result.bad_components,
                           plan.tensor_dims.to_vector());
}

std::string rejection_message(const GatherPlan& plan, const AxisIndexResult& result) {
  return bad_axis_index_message(plan.indices_dims, result.first_bad_index, result.bad_value,
                                plan.axis, plan.params_dims);
}

std::string rejection_message(const GatherElementsPlan& plan, const AxisIndexResult& result) {
  return bad_axis_index_message(plan.layout.indices_dims, result.first_bad_index,
                                result.bad_value, plan.layout.axis, plan.layout.tensor_dims);
}

std::string rejection_message(const ScatterElementsPlan& plan, const AxisIndexResult& result) {
  return bad_axis_index_message(plan.layout.indices_dims, result.first_bad_index,
                                result.bad_value, plan.layout.axis, plan.layout.tensor_dims);
}

}  // namespace tensorbuf::core
