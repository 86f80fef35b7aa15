// Pre- and post-processing ops of TensorFlow Lite Support (NormalizeOp, QuantizeOp,
// DequantizeOp, CastOp): spec/processing.md 1-3, decisions in docs/processing.md.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "tensorbuf/export.h"
#include "tensorbuf/tensor_buffer.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf {

namespace core {
struct ProcessStepAccess;
struct ProcessChain;
}  // namespace core

/// Options of normalize, quantize, dequantize and cast. Unset `device`: where `x`'s freshest
/// copy lives; the result is valid there.
struct ProcessOptions {
  std::optional<Device> device{};
  Stream stream{};
};

/// NormalizeOp(mean, stddev), scalar form: y = (float32(x) - mean) / stddev in float32, output
/// float32 with x's shape (dynamic when x is). mean == 0 with stddev 0 or +-inf is the identity
/// (unpopulated metadata); any other zero stddev is InvalidArgumentError. The identity returns
/// a buffer sharing x's memory, whatever x's dtype.
TENSORBUF_API TensorBuffer normalize(const TensorBuffer& x, float mean, float stddev,
                                     const ProcessOptions& = {});
/// NormalizeOp(means, stddevs), per channel over the last axis: equal non-zero lengths, no zero
/// stddev, and (unless all means are 0 and all stddevs 1: the identity) one channel or
/// x.shape[-1] == the channel count; else InvalidArgumentError. Note: `{0.f}` as an argument
/// picks the scalar form; pass std::vector<float>{0.f} for a one-element array.
TENSORBUF_API TensorBuffer normalize(const TensorBuffer& x, const std::vector<float>& means,
                                     const std::vector<float>& stddevs, const ProcessOptions& = {});
/// QuantizeOp: normalize(x, -zero_point * scale, scale) (the product rounded to float32).
TENSORBUF_API TensorBuffer quantize(const TensorBuffer& x, float zero_point, float scale,
                                    const ProcessOptions& = {});
/// DequantizeOp: normalize(x, zero_point, 1 / scale) (the quotient rounded to float32).
TENSORBUF_API TensorBuffer dequantize(const TensorBuffer& x, float zero_point, float scale,
                                      const ProcessOptions& = {});
/// CastOp: x itself (shared memory) when `type` is x's dtype, else TensorBuffer::create_from
/// (tensor_buffer.md's conversion). Every pair of the ten dtypes (TFLite Support: uint8 and
/// float32 targets only).
TENSORBUF_API TensorBuffer cast(const TensorBuffer& x, DataType type, const ProcessOptions& = {});

/// One step of a Processor: made by normalize_op, quantize_op, dequantize_op or cast_op, which
/// validate it as the single op's constructor does (same errors, same messages). A value type.
class TENSORBUF_API ProcessStep {
 public:
  enum class Kind { kNormalize, kCast };
  /// kNormalize for normalize_op, quantize_op and dequantize_op (all three are normalizations).
  Kind kind() const noexcept { return kind_; }
  /// "normalize", "quantize", "dequantize" or "cast": the op the step was made by.
  std::string_view name() const noexcept { return name_; }
  /// A normalization's means and stddevs as applied (quantize: {-zero_point * scale}, {scale};
  /// dequantize: {zero_point}, {1 / scale}; the scalar 0/inf bypass already applied): one
  /// element for the scalar form, one per channel for the array form. Empty for a cast.
  const std::vector<float>& means() const noexcept { return means_; }
  const std::vector<float>& stddevs() const noexcept { return stddevs_; }
  /// A cast's target dtype (float32 for a normalization, its output dtype).
  DataType cast_type() const noexcept { return type_; }
  /// A normalization with every mean 0 and every stddev 1: x itself, whatever its dtype.
  bool is_identity() const noexcept { return identity_; }

 private:
  friend struct core::ProcessStepAccess;
  ProcessStep() = default;
  Kind kind_ = Kind::kCast;
  std::string_view name_;
  std::vector<float> means_;
  std::vector<float> stddevs_;
  DataType type_ = DataType::kFloat32;
  bool identity_ = false;
};

/// normalize(x, mean, stddev) as a step; InvalidArgumentError as normalize's scalar form.
TENSORBUF_API ProcessStep normalize_op(float mean, float stddev);
/// normalize(x, means, stddevs) as a step (per channel); InvalidArgumentError as normalize's
/// array form (the channel count is checked against x's last axis when the chain runs).
TENSORBUF_API ProcessStep normalize_op(const std::vector<float>& means,
                                       const std::vector<float>& stddevs);
/// quantize(x, zero_point, scale) as a step.
TENSORBUF_API ProcessStep quantize_op(float zero_point, float scale);
/// dequantize(x, zero_point, scale) as a step.
TENSORBUF_API ProcessStep dequantize_op(float zero_point, float scale);
/// cast(x, type) as a step; InvalidArgumentError for a value that is not one of the ten dtypes.
TENSORBUF_API ProcessStep cast_op(DataType type);

/// TFLite Support's TensorProcessor: an ordered chain of steps, built once, run on many inputs.
/// `run(x)` equals applying the steps one by one (normalize / quantize / dequantize / cast)
/// bit for bit, but in one pass over memory: each element is loaded once, carried through every
/// step in registers and cache-resident blocks, rounded to each step's output dtype where the
/// single op rounds, and stored once (docs/processing.md, "Processor"). Identity steps drop out.
/// On the host or on CUDA (one kernel pass, no host wait: capturable in a CUDA graph).
/// Immutable after construction, so one Processor may run on many threads;
/// copies share the compiled chain. A moved-from Processor raises InvalidArgumentError.
class TENSORBUF_API Processor {
 public:
  /// Keeps the steps in order. InvalidArgumentError when two steps normalize over different
  /// channel counts (> 1): no input's last axis fits both.
  explicit Processor(std::vector<ProcessStep> steps);

  const std::vector<ProcessStep>& steps() const noexcept { return steps_; }
  /// The dtype `run` gives for an input of dtype `input`.
  DataType output_type(DataType input) const;

  /// The chain applied to x: a new buffer of x's shape (dynamic when x is, as the single ops'
  /// results), or x itself (shared memory, as the single ops' identities) when every step is an
  /// identity for x. Errors: a per-channel step whose channel count is not x's last axis
  /// (InvalidArgumentError, normalize's message after the step's index in steps() and name:
  /// "Processor step 1 (normalize): 3 means (stddevs) for a last axis of shape [2,4]: ..."), the
  /// first in chain order; a CUDA device without CUDA (UnavailableError). x is unchanged.
  TensorBuffer run(const TensorBuffer& x, const ProcessOptions& options = {}) const;
  /// The chain applied to x, written into `out`, which must have x's shape and the chain's
  /// output dtype for x (InvalidArgumentError otherwise, after run's checks). `out` may be x or
  /// share memory with it. On any error `out` is unchanged.
  void run_into(const TensorBuffer& x, TensorBuffer& out, const ProcessOptions& options = {}) const;

 private:
  const core::ProcessChain& chain() const;
  std::vector<ProcessStep> steps_;
  std::shared_ptr<const core::ProcessChain> chain_;  // the steps compiled (core/processor.cpp)
};

}  // namespace tensorbuf
