// The operations. Each runs on the CPU or on CUDA behind one call; see docs/ops.md.
#pragma once

#include <optional>

#include "tensorbuf/export.h"
#include "tensorbuf/string_tensor.hpp"
#include "tensorbuf/tensor_buffer.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf {

/// Options of the scatter ops. Unset `device`: the device where `tensor`'s freshest copy lives.
struct ScatterOptions {
  std::optional<Device> device{};
  OutOfBoundsPolicy out_of_bounds = OutOfBoundsPolicy::kDeviceDefault;
  bool deterministic = false;  // CUDA results equal the CPU's bit for bit
  Stream stream{};             // CUDA work goes here (null: the library's stream)
};

/// out = tensor; out[indices[r]] -= updates[r] for every row r (TensorFlow TensorScatterSub).
/// `indices`: int32/int64, shape [..., D], 1 <= D <= tensor.rank; updates.shape must equal
/// indices.shape[:-1] + tensor.shape[D:]. InvalidArgumentError for wrong dtypes or shapes, and
/// for an out-of-bounds row under kError (naming the first bad row). Inputs are not modified.
TENSORBUF_API TensorBuffer tensor_scatter_nd_sub(const TensorBuffer& tensor,
                                                 const TensorBuffer& indices,
                                                 const TensorBuffer& updates,
                                                 const ScatterOptions& = {});
/// Same, writing into `tensor`; on error nothing is written.
TENSORBUF_API void tensor_scatter_nd_sub_in_place(TensorBuffer& tensor, const TensorBuffer& indices,
                                                  const TensorBuffer& updates,
                                                  const ScatterOptions& = {});
/// += (TensorScatterAdd).
TENSORBUF_API TensorBuffer tensor_scatter_nd_add(const TensorBuffer& tensor,
                                                 const TensorBuffer& indices,
                                                 const TensorBuffer& updates,
                                                 const ScatterOptions& = {});
TENSORBUF_API void tensor_scatter_nd_add_in_place(TensorBuffer& tensor, const TensorBuffer& indices,
                                                  const TensorBuffer& updates,
                                                  const ScatterOptions& = {});
/// = (TensorScatterUpdate); also bool. Duplicates: the last row wins on the CPU.
TENSORBUF_API TensorBuffer tensor_scatter_nd_update(const TensorBuffer& tensor,
                                                    const TensorBuffer& indices,
                                                    const TensorBuffer& updates,
                                                    const ScatterOptions& = {});
TENSORBUF_API void tensor_scatter_nd_update_in_place(TensorBuffer& tensor,
                                                     const TensorBuffer& indices,
                                                     const TensorBuffer& updates,
                                                     const ScatterOptions& = {});
/// min (NaN propagates).
TENSORBUF_API TensorBuffer tensor_scatter_nd_min(const TensorBuffer& tensor,
                                                 const TensorBuffer& indices,
                                                 const TensorBuffer& updates,
                                                 const ScatterOptions& = {});
TENSORBUF_API void tensor_scatter_nd_min_in_place(TensorBuffer& tensor, const TensorBuffer& indices,
                                                  const TensorBuffer& updates,
                                                  const ScatterOptions& = {});
/// max (NaN propagates).
TENSORBUF_API TensorBuffer tensor_scatter_nd_max(const TensorBuffer& tensor,
                                                 const TensorBuffer& indices,
                                                 const TensorBuffer& updates,
                                                 const ScatterOptions& = {});
TENSORBUF_API void tensor_scatter_nd_max_in_place(TensorBuffer& tensor, const TensorBuffer& indices,
                                                  const TensorBuffer& updates,
                                                  const ScatterOptions& = {});
/// *= (ONNX ScatterND reduction "mul"); integers wrap. Not on bool.
TENSORBUF_API TensorBuffer tensor_scatter_nd_mul(const TensorBuffer& tensor,
                                                 const TensorBuffer& indices,
                                                 const TensorBuffer& updates,
                                                 const ScatterOptions& = {});
TENSORBUF_API void tensor_scatter_nd_mul_in_place(TensorBuffer& tensor, const TensorBuffer& indices,
                                                  const TensorBuffer& updates,
                                                  const ScatterOptions& = {});

/// Options of boolean_mask_update.
struct BooleanMaskUpdateOptions {
  std::optional<Device> device{};
  int axis = 0;            // negative counts from the end
  bool broadcast = true;   // NumPy broadcasting of `updates` to the target shape
  Stream stream{};
};

/// NumPy `out[(slice(None),)*axis + (mask,)] = updates` on a copy of `tensor`.
/// InvalidArgumentError: scalar or non-bool mask, mask shape != tensor.shape[axis:axis+K],
/// bad axis, updates of another dtype or not broadcastable (or not equal, broadcast=false) to
/// the target shape.
/// Host sync on CUDA: none, unless `updates` has a dim of size n (the count of true mask
/// entries) that is not 1, or broadcast=false: then n is read back once to check the shape
/// before anything is written (docs/boolean_mask_update.md).
TENSORBUF_API TensorBuffer boolean_mask_update(const TensorBuffer& tensor, const TensorBuffer& mask,
                                               const TensorBuffer& updates,
                                               const BooleanMaskUpdateOptions& = {});
/// Same, writing into `tensor`; on error nothing is written.
TENSORBUF_API void boolean_mask_update_in_place(TensorBuffer& tensor, const TensorBuffer& mask,
                                                const TensorBuffer& updates,
                                                const BooleanMaskUpdateOptions& = {});

/// Options of boolean_mask and boolean_mask_into.
struct BooleanMaskOptions {
  std::optional<Device> device{};
  int axis = 0;  // negative counts from the end
  Stream stream{};
};

/// NumPy `tensor[(slice(None),)*axis + (mask,)]`, TensorFlow tf.boolean_mask: the slices of
/// `tensor` where `mask` is true, in row-major order of the mask; shape
/// tensor.shape[:axis] + [n] + tensor.shape[axis+K:] (n: the count of true entries). Mask rules
/// as boolean_mask_update's: bool, rank K >= 1, shape tensor.shape[axis:axis+K].
/// Host sync on CUDA: one, to read n back for the output's shape (boolean_mask_into has none).
TENSORBUF_API TensorBuffer boolean_mask(const TensorBuffer& tensor, const TensorBuffer& mask,
                                        const BooleanMaskOptions& = {});
/// boolean_mask into a caller-sized `out` (tensor's dtype, shape tensor.shape[:axis] + [C] +
/// tensor.shape[axis+K:]; C is the capacity) and n into `count` (int64, one element), with no
/// host wait: capturable in a CUDA graph. The first min(n, C) selected slices are written, the
/// rest of `out` is left as it was; the caller compares n with C.
TENSORBUF_API void boolean_mask_into(const TensorBuffer& tensor, const TensorBuffer& mask,
                                     TensorBuffer& out, TensorBuffer& count,
                                     const BooleanMaskOptions& = {});

/// Options of compress.
struct CompressOptions {
  std::optional<Device> device{};
  std::optional<int> axis{};  // unset: along the flattened input
  Stream stream{};
};

/// ONNX Compress: the slices of `input` along `axis` whose entry of the 1-D bool `condition` is
/// true (no axis: the elements of the flattened input). A condition shorter than the axis counts
/// as false past its end; a longer one may only be false there (else InvalidArgumentError: the
/// extra entries are read on the host, a host sync on CUDA). Host sync on CUDA: one, for n.
TENSORBUF_API TensorBuffer compress(const TensorBuffer& input, const TensorBuffer& condition,
                                    const CompressOptions& = {});

/// Options of gather_nd (spec/indexing.md 5b: the options of gather, gather_elements and
/// gather_nd; each op reads the fields it has, gather_nd ignores `axis`).
struct GatherOptions {
  std::optional<Device> device{};
  OutOfBoundsPolicy out_of_bounds = OutOfBoundsPolicy::kDeviceDefault;
  int axis = 0;        // gather, gather_elements
  int batch_dims = 0;  // gather_nd: leading dims shared by params and indices
  Stream stream{};
};

/// TensorFlow GatherNd / ONNX GatherND: with b = batch_dims and D = indices.shape[-1],
/// out[i..., :] = params[i[:b]..., indices[i...], :], shape indices.shape[:-1] +
/// params.shape[b+D:]. `indices`: int32/int64; 0 <= b < indices.rank; 1 <= D <= params.rank - b;
/// params.shape[:b] == indices.shape[:b]. Any params dtype. Negative index components are out
/// of range (TensorFlow's rule, not ONNX's wrap). InvalidArgumentError for wrong dtypes, shapes
/// or batch_dims, and under kError for an out-of-range row (the first one, named as the scatter
/// ops name it: "indices[0,1] = [7] does not index into shape [3]"); under kDrop its output
/// slice is zeros. Host sync on CUDA: one under kError (the first bad row is read back), none
/// under kDrop (the CUDA default).
TENSORBUF_API TensorBuffer gather_nd(const TensorBuffer& params, const TensorBuffer& indices,
                                     const GatherOptions& = {});

/// ONNX Gather / np.take / tf.gather: with a = axis (negative counts from the end) and
/// b = batch_dims, out[p[:a], i[b:]..., p[a+1:]] = params[p[:a], indices[p[:b], i[b:]...],
/// p[a+1:]], shape params.shape[:a] + indices.shape[b:] + params.shape[a+1:]. `indices`:
/// int32/int64, any rank (a scalar drops the axis); 0 <= b <= min(indices.rank, a);
/// params.shape[:b] == indices.shape[:b]; params of rank >= 1 and any dtype. An index i with
/// -s <= i < 0 means i + s (s = params.shape[a], ONNX); InvalidArgumentError for wrong dtypes,
/// axis, batch_dims or shapes, and under kError for an index outside [-s, s) (the first in
/// row-major order: "indices[1,0] = 7 is out of range for axis 1 of shape [3,3]"); under kDrop
/// its output slice is zeros. Host sync on CUDA: one under kError, none under kDrop.
TENSORBUF_API TensorBuffer gather(const TensorBuffer& params, const TensorBuffer& indices,
                                  const GatherOptions& = {});

/// ONNX GatherElements / torch.gather: out[p] = params[p with p[axis] = indices[p]], shape
/// indices.shape. `indices`: int32/int64 of params' rank with indices.shape[d] <= params.shape[d]
/// for d != axis (negative axis counts from the end); params of rank >= 1 and any dtype. Index
/// wrap, errors and policies as gather's (the bad index named at its position in indices).
/// Host sync on CUDA: one under kError, none under kDrop.
TENSORBUF_API TensorBuffer gather_elements(const TensorBuffer& params, const TensorBuffer& indices,
                                           const GatherOptions& = {});

/// How scatter_elements combines an update with the element it lands on.
enum class Reduction { kNone, kAdd, kMul, kMin, kMax };

/// Options of scatter_elements.
struct ScatterElementsOptions {
  std::optional<Device> device{};
  OutOfBoundsPolicy out_of_bounds = OutOfBoundsPolicy::kDeviceDefault;
  bool deterministic = false;  // CUDA results equal the CPU's bit for bit
  int axis = 0;                // negative counts from the end
  Reduction reduction = Reduction::kNone;
  Stream stream{};
};

/// ONNX ScatterElements / torch scatter_reduce_ (include_self): out = tensor; for each position
/// p of indices in row-major order, q = p with q[axis] = indices[p] (-s <= i < 0 means i + s),
/// out[q] = combine(out[q], updates[p]): kNone assigns (duplicates: the last wins on the CPU),
/// kAdd / kMul (integers wrap), kMin / kMax (NaN propagates); not kAdd..kMax on bool.
/// `indices` int32/int64 and `updates` (tensor's dtype) have the same shape, of tensor's rank,
/// with indices.shape[d] <= tensor.shape[d] for d != axis. InvalidArgumentError for wrong dtypes
/// or shapes, and under kError for an index outside [-s, s) (the first in row-major order:
/// "indices[1,0] = 7 is out of range for axis 1 of shape [3,3]"); kDrop skips it. Host sync on
/// CUDA: one under kError (before anything is written), none under kDrop.
TENSORBUF_API TensorBuffer scatter_elements(const TensorBuffer& tensor, const TensorBuffer& indices,
                                            const TensorBuffer& updates,
                                            const ScatterElementsOptions& = {});
/// Same, writing into `tensor`; on error nothing is written.
TENSORBUF_API void scatter_elements_in_place(TensorBuffer& tensor, const TensorBuffer& indices,
                                             const TensorBuffer& updates,
                                             const ScatterElementsOptions& = {});

/// Options of substr.
struct SubstrOptions {
  std::optional<Device> device{};
  SubstrUnit unit = SubstrUnit::kByte;
  OutOfBoundsPolicy out_of_bounds = OutOfBoundsPolicy::kDeviceDefault;
  Stream stream{};
};

/// Substrings (TensorFlow Substr): for each element of the broadcast of input and pos, the
/// substring starting at pos (negative: from the end) of at most len units (negative: to the
/// end). pos and len: int32 or int64, same dtype and shape. InvalidArgumentError for bad dtypes
/// or shapes, and for an out-of-range pos under kError; under kDrop that element is "".
TENSORBUF_API StringTensor substr(const StringTensor& input, const TensorBuffer& pos,
                                  const TensorBuffer& len, const SubstrOptions& = {});

}  // namespace tensorbuf

#include "tensorbuf/processing.hpp"  // normalize, quantize, dequantize, cast
#include "tensorbuf/quantize_linear.hpp"  // quantize_linear, dequantize_linear
