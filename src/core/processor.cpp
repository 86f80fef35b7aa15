// The fused Processor: steps validated by the single ops' rules (core/processing_rules.hpp),
// compiled once (identities dropped, per-channel means and stddevs laid out for whole blocks),
// planned per input dtype and shape (every check before anything is written), run in one pass
// by the CPU backend or the CUDA one (core/process_execute.hpp).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/buffer_access.hpp"
#include "core/dispatch.hpp"
#include "core/error_macros.hpp"
#include "core/in_place.hpp"
#include "core/process_execute.hpp"
#include "core/process_memos.hpp"
#include "core/processing_plan.hpp"
#include "core/processing_rules.hpp"
#include "tensorbuf/processing.hpp"

namespace tensorbuf {
namespace core {

struct ProcessStepAccess {
  static ProcessStep normalization(std::string_view name, Normalization norm) {
    ProcessStep step;
    step.kind_ = ProcessStep::Kind::kNormalize;
    step.name_ = name;
    step.means_ = std::move(norm.means);
    step.stddevs_ = std::move(norm.stddevs);
    step.type_ = DataType::kFloat32;
    step.identity_ = norm.identity;
    return step;
  }
  static ProcessStep cast(DataType type) {
    ProcessStep step;
    step.kind_ = ProcessStep::Kind::kCast;
    step.name_ = "cast";
    step.type_ = type;
    return step;
  }
};

// One step that is not an identity, ready for planning.
struct ChainStep {
  std::size_t index = 0;  // in Processor::steps(), for error messages
  bool normalize = false;
  DataType cast_type = DataType::kFloat32;
  std::int64_t channels = 1;
  std::int64_t period = 1;
  std::vector<float> means;  // repeated over `period` elements (ProcessStage's layout)
  std::vector<float> stddevs;
};

struct ProcessChain {
  std::vector<ChainStep> steps;
  // What the backends derive from the steps once, for every run (a Processor is immutable;
  // the memos are built by its first runs, core/process_memos.hpp).
  mutable ProcessMemos memos;
};

}  // namespace core

namespace {

std::vector<float> repeated(const std::vector<float>& values, std::int64_t period) {
  std::vector<float> out(static_cast<std::size_t>(period));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = values[i % values.size()];
  return out;
}

// Elements over which a block starting at any channel reads its means without wrapping (or
// the channels alone when they are longer than a block: the backend then wraps). A scalar is
// repeated over a block too, so that vector loops read it as they read channels.
std::int64_t period_for(std::int64_t channels) {
  if (channels > core::kProcessBlock) return channels;
  const std::int64_t repeats = (core::kProcessBlock + channels - 1 + channels - 1) / channels;
  return repeats * channels;
}

std::shared_ptr<const core::ProcessChain> compile(const std::vector<ProcessStep>& steps) {
  auto chain = std::make_shared<core::ProcessChain>();
  // The first per-channel step (> 1 channel): every later one must have as many channels.
  std::int64_t first_channels = 1;
  std::size_t first_index = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const ProcessStep& step = steps[i];
    if (step.is_identity()) continue;  // x itself, whatever its dtype: nothing to do
    core::ChainStep compiled;
    compiled.index = i;
    if (step.kind() == ProcessStep::Kind::kCast) {
      compiled.cast_type = step.cast_type();
    } else {
      compiled.normalize = true;
      compiled.channels = static_cast<std::int64_t>(step.means().size());
      compiled.period = period_for(compiled.channels);
      compiled.means = repeated(step.means(), compiled.period);
      compiled.stddevs = repeated(step.stddevs(), compiled.period);
      if (compiled.channels > 1 && first_channels == 1) {
        first_channels = compiled.channels;
        first_index = i;
      }
      TENSORBUF_EXPECTS(
          compiled.channels == 1 || compiled.channels == first_channels, InvalidArgumentError,
          core::str_cat("Processor: step ", i, " (", step.name(), ") has ", compiled.channels,
                        " channels and step ", first_index, " (", steps[first_index].name(), ") ",
                        first_channels, ": no last axis fits both"));
    }
    chain->steps.push_back(std::move(compiled));
  }
  return chain;
}

// The stages for an input of dtype `in` (identity casts dropped: they depend on the dtype).
core::ProcessPlan plan_for(const core::ProcessChain& chain, DataType in) {
  core::ProcessPlan plan;
  plan.in_type = in;
  DataType type = in;
  for (const core::ChainStep& step : chain.steps) {
    if (!step.normalize) {
      if (step.cast_type != type) {
        plan.stages.push_back({core::ProcessStageKind::kConvert, type, step.cast_type});
        type = step.cast_type;
      }
      continue;
    }
    // float32(x) is tensor_buffer.md's conversion; the normalize stage itself reads uint8
    // (exact in float32) and float32 (bool is not uint8: any nonzero byte is 1).
    if (type != DataType::kUInt8 && type != DataType::kFloat32) {
      plan.stages.push_back({core::ProcessStageKind::kConvert, type, DataType::kFloat32});
      type = DataType::kFloat32;
    }
    core::ProcessStage stage{core::ProcessStageKind::kNormalize, type, DataType::kFloat32};
    stage.means = step.means.data();
    stage.stddevs = step.stddevs.data();
    stage.channels = step.channels;
    stage.period = step.period;
    plan.stages.push_back(stage);
    type = DataType::kFloat32;
  }
  // A normalize followed by a cast to float16 (the spec's float16 pipeline) is one stage.
  for (std::size_t s = 0; s + 1 < plan.stages.size(); ++s) {
    core::ProcessStage& stage = plan.stages[s];
    const core::ProcessStage& next = plan.stages[s + 1];
    if (stage.kind == core::ProcessStageKind::kNormalize &&
        next.kind == core::ProcessStageKind::kConvert && next.to == DataType::kFloat16) {
      stage.to = DataType::kFloat16;
      plan.stages.erase(plan.stages.begin() + static_cast<std::ptrdiff_t>(s) + 1);
    }
  }
  plan.out_type = type;
  return plan;
}

// Every check of a run on x, in chain order, before anything is allocated or written.
core::ProcessPlan plan_run(const core::ProcessChain& chain, const std::vector<ProcessStep>& steps,
                           const TensorBuffer& x) {
  const Shape& shape = core::BufferAccess::shape(x);
  for (const core::ChainStep& step : chain.steps) {
    // (the step's name is formatted only for the error: a run makes no string)
    if (!step.normalize || core::channels_fit(step.channels, shape)) continue;
    core::check_channels(
        step.channels, shape,
        core::str_cat("Processor step ", step.index, " (", steps[step.index].name(), ")"));
  }
  core::ProcessPlan plan = plan_for(chain, x.data_type());
  plan.elements = shape.num_elements();
  plan.memos = &chain.memos;
  return plan;
}

}  // namespace

core::ProcessorRun core::plan_processor_run(const std::vector<ProcessStep>& steps,
                                            const TensorBuffer& x) {
  ProcessorRun run;
  run.chain = compile(steps);
  run.plan = plan_run(*run.chain, steps, x);
  return run;
}

ProcessStep normalize_op(float mean, float stddev) {
  return core::ProcessStepAccess::normalization("normalize",
                                                core::scalar_normalization(mean, stddev));
}

ProcessStep normalize_op(const std::vector<float>& means, const std::vector<float>& stddevs) {
  return core::ProcessStepAccess::normalization("normalize",
                                                core::channel_normalization(means, stddevs));
}

ProcessStep quantize_op(float zero_point, float scale) {
  return core::ProcessStepAccess::normalization("quantize",
                                                core::quantize_normalization(zero_point, scale));
}

ProcessStep dequantize_op(float zero_point, float scale) {
  return core::ProcessStepAccess::normalization("dequantize",
                                                core::dequantize_normalization(zero_point, scale));
}

ProcessStep cast_op(DataType type) {
  const auto value = static_cast<int>(type);
  TENSORBUF_EXPECTS(
      value >= static_cast<int>(DataType::kBool) && value <= static_cast<int>(DataType::kFloat64),
      InvalidArgumentError, core::str_cat("cast: ", value, " is not a DataType"));
  return core::ProcessStepAccess::cast(type);
}

Processor::Processor(std::vector<ProcessStep> steps)
    : steps_(std::move(steps)), chain_(compile(steps_)) {}

// A moved-from Processor has no chain: an error, not a null dereference.
const core::ProcessChain& Processor::chain() const {
  TENSORBUF_EXPECTS(chain_ != nullptr, InvalidArgumentError,
                    "Processor: used after it was moved from");
  return *chain_;
}

DataType Processor::output_type(DataType input) const { return plan_for(chain(), input).out_type; }

TensorBuffer Processor::run(const TensorBuffer& x, const ProcessOptions& options) const {
  const Device device = core::resolve_device(options.device, x);
  const core::ProcessPlan plan = plan_run(chain(), steps_, x);
  // Every step an identity for x: x itself, as the single ops return it.
  if (plan.stages.empty()) return core::BufferAccess::share(x);
  return core::process_new(plan, x, device, options.stream);
}

void Processor::run_into(const TensorBuffer& x, TensorBuffer& out,
                         const ProcessOptions& options) const {
  const Device device = core::resolve_device(options.device, x);
  const core::ProcessPlan plan = plan_run(chain(), steps_, x);
  TENSORBUF_EXPECTS(out.data_type() == plan.out_type, InvalidArgumentError,
                    core::str_cat("Processor::run_into: out has dtype ", to_string(out.data_type()),
                                  "; the chain gives ", to_string(plan.out_type), " for a ",
                                  to_string(x.data_type()), " input"));
  TENSORBUF_EXPECTS(core::BufferAccess::shape(out) == core::BufferAccess::shape(x),
                    InvalidArgumentError,
                    core::str_cat("Processor::run_into: out has shape ",
                                  core::BufferAccess::shape(out).to_string(), "; x has shape ",
                                  core::BufferAccess::shape(x).to_string()));
  // out sharing memory with x: the result goes to a new buffer, then into out.
  core::run_in_place(out, core::shares_memory(out, x), device, options.stream,
                     [&](TensorBuffer& target) {
                       core::execute_process(plan, x, target, device, options.stream);
                     });
}

}  // namespace tensorbuf
