// The C API of tensorbuf::Processor: steps from an array of tb_process_step (each made by the
// C++ step function, which validates it), processor handles (c_api_handles.cpp), and thin
// calls of run / run_into inside `guarded`.
#include <cstring>
#include <vector>

#include "c_api/c_api_internal.hpp"
#include "core/error_macros.hpp"
#include "tensorbuf/processing.hpp"

namespace tensorbuf::c_api {
namespace {

// The per-channel arrays of a step, copied (the caller may free them once create returns).
std::vector<float> channel_values(const float* values, std::int64_t channels, const char* name) {
  if (channels == 0) return {};
  require(values, name);
  return std::vector<float>(values, values + channels);
}

ProcessStep make_step(const tb_process_step& c) {
  switch (raw_value(c.kind)) {
    case TB_STEP_NORMALIZE:
      return normalize_op(c.mean, c.stddev);
    case TB_STEP_NORMALIZE_CHANNELS:
      TENSORBUF_EXPECTS(c.channels >= 0, InvalidArgumentError,
                        core::str_cat("channels is negative: ", c.channels));
      return normalize_op(channel_values(c.means, c.channels, "means"),
                          channel_values(c.stddevs, c.channels, "stddevs"));
    case TB_STEP_QUANTIZE:
      return quantize_op(c.zero_point, c.scale);
    case TB_STEP_DEQUANTIZE:
      return dequantize_op(c.zero_point, c.scale);
    case TB_STEP_CAST:
      return cast_op(to_data_type(raw_value(c.dtype)));
    default:
      throw InvalidArgumentError(core::str_cat("unknown tb_step_kind ", raw_value(c.kind)));
  }
}

// The steps of a C array whose stride is its elements' struct_size (the caller's
// sizeof(tb_process_step), which a later header may grow). Each element is copied out with
// memcpy: the library reads only the fields it knows, and never through a misaligned pointer.
std::vector<ProcessStep> make_steps(const tb_process_step* steps, std::int64_t count) {
  TENSORBUF_EXPECTS(count >= 0, InvalidArgumentError,
                    core::str_cat("count is negative: ", count));
  std::vector<ProcessStep> made;
  if (count == 0) return made;
  require(steps, "steps");
  const std::size_t stride = steps->struct_size;
  require_struct_size(stride, {}, sizeof(tb_process_step), "steps");
  const auto* bytes = reinterpret_cast<const unsigned char*>(steps);
  made.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    tb_process_step step;
    std::memcpy(&step, bytes + static_cast<std::size_t>(i) * stride, sizeof step);
    TENSORBUF_EXPECTS(step.struct_size == stride, InvalidArgumentError,
                      core::str_cat("steps[", i, "].struct_size is ", step.struct_size,
                                    "; steps[0]'s is ", stride,
                                    " (one array: every step has the same struct_size)"));
    try {
      made.push_back(make_step(step));
    } catch (const InvalidArgumentError& e) {
      // Which step: the C++ message names the op, not its place in the caller's array.
      throw InvalidArgumentError(core::str_cat("steps[", i, "]: ", e.what()));
    }
  }
  return made;
}

}  // namespace
}  // namespace tensorbuf::c_api

using namespace tensorbuf;
using namespace tensorbuf::c_api;

extern "C" {

tb_status tb_processor_create(const tb_process_step* steps, int64_t count,
                              tb_processor** out) noexcept {
  return guarded(__func__, [&] {
    Processor processor(make_steps(steps, count));
    require(out, "out");
    *out = publish_processor(std::move(processor));
  });
}

tb_status tb_processor_run(const tb_processor* processor, const tb_buffer* x,
                           const tb_process_options* options, tb_buffer** out) noexcept {
  return guarded(__func__, [&] {
    // Both held for the call: a destroy on another thread cannot free them under the run.
    const std::shared_ptr<const Processor> p = processor_of(processor, "processor");
    const std::shared_ptr<const TensorBuffer> in = buffer_of(x, "x");
    publish_result(out, [&] { return p->run(*in, process_options(options)); });
  });
}

tb_status tb_processor_run_into(const tb_processor* processor, const tb_buffer* x,
                                tb_buffer* out, const tb_process_options* options) noexcept {
  return guarded(__func__, [&] {
    const std::shared_ptr<const Processor> p = processor_of(processor, "processor");
    const std::shared_ptr<const TensorBuffer> in = buffer_of(x, "x");
    const std::shared_ptr<TensorBuffer> into = buffer_of(out, "out");
    p->run_into(*in, *into, process_options(options));
  });
}

tb_status tb_processor_output_dtype(const tb_processor* processor, tb_dtype input,
                                    tb_dtype* out) noexcept {
  return guarded(__func__, [&] {
    const std::shared_ptr<const Processor> p = processor_of(processor, "processor");
    const DataType type = p->output_type(to_data_type(raw_value(input)));
    require(out, "out");
    *out = to_tb_dtype(type);
  });
}

tb_status tb_processor_step_count(const tb_processor* processor, int64_t* out) noexcept {
  return guarded(__func__, [&] {
    const std::shared_ptr<const Processor> p = processor_of(processor, "processor");
    require(out, "out");
    *out = static_cast<int64_t>(p->steps().size());
  });
}

void tb_processor_destroy(tb_processor* processor) noexcept {
  if (processor == nullptr) return;
  (void)guarded(__func__, [&] { destroy_processor_handle(processor, "processor"); });
}

}  // extern "C"
