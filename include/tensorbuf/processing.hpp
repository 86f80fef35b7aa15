// Pre- and post-processing ops of TensorFlow Lite Support (NormalizeOp, QuantizeOp,
// DequantizeOp, CastOp): spec/processing.md 1-3, decisions in docs/processing.md.
#pragma once

#include <optional>
#include <vector>

#include "tensorbuf/tensor_buffer.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf {

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
TensorBuffer normalize(const TensorBuffer& x, float mean, float stddev, const ProcessOptions& = {});
/// NormalizeOp(means, stddevs), per channel over the last axis: equal non-zero lengths, no zero
/// stddev, and (unless all means are 0 and all stddevs 1: the identity) one channel or
/// x.shape[-1] == the channel count; else InvalidArgumentError. Note: `{0.f}` as an argument
/// picks the scalar form; pass std::vector<float>{0.f} for a one-element array.
TensorBuffer normalize(const TensorBuffer& x, const std::vector<float>& means,
                       const std::vector<float>& stddevs, const ProcessOptions& = {});
/// QuantizeOp: normalize(x, -zero_point * scale, scale) (the product rounded to float32).
TensorBuffer quantize(const TensorBuffer& x, float zero_point, float scale,
                      const ProcessOptions& = {});
/// DequantizeOp: normalize(x, zero_point, 1 / scale) (the quotient rounded to float32).
TensorBuffer dequantize(const TensorBuffer& x, float zero_point, float scale,
                        const ProcessOptions& = {});
/// CastOp: x itself (shared memory) when `type` is x's dtype, else TensorBuffer::create_from
/// (tensor_buffer.md's conversion). Every pair of the ten dtypes (TFLite Support: uint8 and
/// float32 targets only).
TensorBuffer cast(const TensorBuffer& x, DataType type, const ProcessOptions& = {});

}  // namespace tensorbuf
