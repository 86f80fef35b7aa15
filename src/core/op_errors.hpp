// Where a backend's rejected run becomes the spec's error text: every op reads its result the
// same way (core::OpResult::applied()) and raises with raise_if_rejected (core/op_run.hpp does
// it for every op it runs); the distributed layer, which agrees on the first rejection over all
// ranks before it raises, asks rejection_message for the same text. One overload per op: here,
// or beside the op's plan where the text is the plan's own (core/plan_*.hpp). src/core
// only.
#pragma once

#include <string>

#include "core/export_for_mpi.hpp"
#include "core/scatter_nd_plan.hpp"
#include "tensorbuf/errors.hpp"

namespace tensorbuf::core {

struct AxisIndexResult;
struct GatherElementsPlan;
struct GatherPlan;
struct ScatterElementsPlan;

// Each takes what names the bad element and the backend's result (applied() false).
// Scatter (rules 7 and 9): "indices[1,0] = [9] does not index into shape [4]".
TENSORBUF_INTERNAL_FOR_MPI std::string rejection_message(const ScatterNdPlan& plan,
                                                         const ScatterNdResult& result);

// The axis-indexed ops (core/axis_indices.hpp):
// "indices[1,0] = 7 is out of range for axis 1 of shape [3,3]".
std::string rejection_message(const GatherPlan& plan, const AxisIndexResult& result);
std::string rejection_message(const GatherElementsPlan& plan, const AxisIndexResult& result);
std::string rejection_message(const ScatterElementsPlan& plan, const AxisIndexResult& result);

// Throws InvalidArgumentError(rejection_message(context, result)) when the backend rejected the
// run; `context` is the first argument of rejection_message for the op.
template <class Context, class Result>
void raise_if_rejected(const Context& context, const Result& result) {
  if (!result.applied()) throw InvalidArgumentError(rejection_message(context, result));
}

}  // namespace tensorbuf::core
