// Runs a processing plan (core/processing_plan.hpp) from x into out on either backend: the
// fused Processor's runs, and the single ops normalize / quantize / dequantize / cast on CUDA.
#pragma once

#include <memory>
#include <vector>

#include "core/export_for_mpi.hpp"
#include "core/processing_plan.hpp"
#include "tensorbuf/processing.hpp"
#include "tensorbuf/tensor_buffer.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core {

// out (x's element count, the plan's output dtype) = the plan applied to x, on `device`
// (resolved) and, for CUDA, `stream`, in stream order with no host wait.
void execute_process(const ProcessPlan& plan, const TensorBuffer& x, TensorBuffer& out,
                     Device device, Stream stream);

// A new buffer of x's shape (dynamic when x is) holding the plan applied to x.
TensorBuffer process_new(const ProcessPlan& plan, const TensorBuffer& x, Device device,
                         Stream stream);

// A Processor's plan for x (its checks included), with the compiled chain its stages point
// into: what Processor::run executes (tests run the CUDA driver on it).
struct ProcessorRun {
  std::shared_ptr<const ProcessChain> chain;
  ProcessPlan plan;
};
TENSORBUF_INTERNAL_FOR_MPI ProcessorRun plan_processor_run(const std::vector<ProcessStep>& steps,
                                                        const TensorBuffer& x);

}  // namespace tensorbuf::core
