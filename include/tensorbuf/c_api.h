/* The tensorbuf C API (C99): opaque buffer handles, one status per call, a thread-local error
 * message. The contract is spec/interop.md section I4; docs/c_api.md has examples.
 *
 * Rules for every function below:
 *  - No C++ exception crosses this boundary. A failure returns its status (the C++ error class:
 *    InvalidArgumentError is TB_INVALID_ARGUMENT, ...; an out-of-memory std::bad_alloc is
 *    TB_RESOURCE_EXHAUSTED, anything else unexpected TB_INTERNAL) and sets tb_last_error().
 *  - Outputs (`out` pointers, the buffer an in-place op writes) are untouched on failure.
 *  - A NULL handle or a NULL pointer argument that is not documented as optional is
 *    TB_INVALID_ARGUMENT, never a crash.
 *  - A handle that was destroyed (also after a new buffer took its place) or was never returned
 *    by this library is TB_INVALID_ARGUMENT ("<argument> is a destroyed or invalid handle"),
 *    and the call touches nothing: handles are checked in a table, never dereferenced.
 *  - Handles are not thread-safe objects: concurrent const calls on one buffer are fine, a call
 *    that writes a buffer must not run concurrently with any other call on it (as in C++).
 *  - `void* stream` arguments are a cudaStream_t (NULL: the library's stream of the device).
 * ABI: tb_abi_version() is TB_ABI_VERSION of the header the library was built with. Within one
 * ABI version, functions, enumerator values and struct layouts only ever grow at the end;
 * option structs carry `struct_size` so older callers keep working.
 *
 * Option structs: set `struct_size` to sizeof the struct and zero what you do not set (C's
 * `= {0}`, or designated initialisers); zero is every field's default. The library also takes
 * the size of each older layout of the struct (its fields up to a field marked "added"), and
 * then uses the default of every field the caller's size does not cover; any other size is
 * TB_INVALID_ARGUMENT. */
#ifndef TENSORBUF_C_API_H_
#define TENSORBUF_C_API_H_

#include <stddef.h>
#include <stdint.h>

#include "tensorbuf/export.h"

#ifdef __cplusplus
#define TB_NOEXCEPT noexcept
extern "C" {
#else
#define TB_NOEXCEPT
#endif

/** The ABI version this header describes (compare with tb_abi_version() at run time). */
#define TB_ABI_VERSION 1u
/** tb_buffer_shape and tb_substr report at most this many dims. */
#define TB_MAX_NDIM 8

/** An owning handle to one tensorbuf::TensorBuffer. Free with tb_buffer_destroy. */
typedef struct tb_buffer tb_buffer;

/** DLPack's types appear only as struct pointers: this header compiles beside any dlpack.h. */
struct DLManagedTensorVersioned;

/** The C++ error classes, in tensorbuf::ErrorCode's order (TB_OK aside). */
typedef enum {
  TB_OK = 0,
  TB_INVALID_ARGUMENT = 1,
  TB_OUT_OF_RANGE = 2,
  TB_UNAVAILABLE = 3,
  TB_RESOURCE_EXHAUSTED = 4,
  TB_INTERNAL = 5
} tb_status;

/** tensorbuf::DataType, in its order. A bool element is one byte; nonzero is true. */
typedef enum {
  TB_BOOL,
  TB_UINT8,
  TB_INT8,
  TB_INT16,
  TB_INT32,
  TB_INT64,
  TB_FLOAT16,
  TB_BFLOAT16,
  TB_FLOAT32,
  TB_FLOAT64
} tb_dtype;

/** kind: 0 CPU (index ignored), 1 CUDA device `index`. Other kinds: TB_INVALID_ARGUMENT. */
typedef struct {
  int kind;
  int index;
} tb_device;

/** tensorbuf::OutOfBoundsPolicy: DEFAULT is ERROR on the CPU, DROP on CUDA. */
typedef enum { TB_OOB_DEFAULT = 0, TB_OOB_ERROR = 1, TB_OOB_DROP = 2 } tb_oob;

/** tensorbuf::SubstrUnit. */
typedef enum { TB_UNIT_BYTE = 0, TB_UNIT_UTF8_CHAR = 1 } tb_substr_unit;

/** The ABI version of the library (TB_ABI_VERSION of the header it was built with). */
TENSORBUF_API uint32_t tb_abi_version(void) TB_NOEXCEPT;

/** The message of this thread's last failed call ("" if none). Valid until this thread's next
 * failing call; a successful call does not clear it (read it only after a failure). */
TENSORBUF_API const char* tb_last_error(void) TB_NOEXCEPT;

/* ---- Buffers ---------------------------------------------------------------------------- */

/** A zero-filled fixed-size host buffer of `shape` (ndim dims; shape may be NULL when ndim is
 * 0: a scalar). Errors: negative ndim or dims, an overflowing size (TB_INVALID_ARGUMENT). */
TENSORBUF_API tb_status tb_buffer_create(tb_dtype dtype, int ndim, const int64_t* shape,
                                         tb_buffer** out) TB_NOEXCEPT;

/** Caller memory on `device`, used in place (TensorBuffer::borrow): in-place ops write `data`.
 * The caller keeps `data` alive until tb_buffer_destroy (use tb_buffer_borrow_ex for a release
 * callback). `read_only` nonzero: every write fails with TB_INVALID_ARGUMENT. `ready_stream`:
 * the stream `data` is ready on (CUDA; NULL: none). Errors as TensorBuffer::borrow (misaligned
 * or NULL data with elements: TB_INVALID_ARGUMENT; CUDA memory without CUDA: TB_UNAVAILABLE). */
TENSORBUF_API tb_status tb_buffer_borrow(void* data, tb_dtype dtype, int ndim, const int64_t* shape,
                                         tb_device device, int read_only, void* ready_stream,
                                         tb_buffer** out) TB_NOEXCEPT;

/** tb_buffer_borrow with everything BorrowOptions has. `release(release_ctx, last_use_stream)`
 * (optional) runs exactly once, when the last buffer or DLPack export using the memory is
 * gone, on any thread; it must not block. It is NOT called when this function fails. */
typedef struct {
  size_t struct_size; /**< sizeof(tb_borrow_desc) */
  void* data;
  tb_dtype dtype;
  int ndim;
  const int64_t* shape;
  tb_device device;
  int read_only;
  void* ready_stream;
  void (*release)(void* ctx, void* last_use_stream);
  void* release_ctx;
  int cache_mirror; /**< added in ABI v1: nonzero keeps the mirror across calls (BorrowOptions) */
} tb_borrow_desc;
TENSORBUF_API tb_status tb_buffer_borrow_ex(const tb_borrow_desc* desc,
                                            tb_buffer** out) TB_NOEXCEPT;
/** The owner wrote its borrowed memory: a mirror kept by `cache_mirror` is dropped, so the next
 * use on the other side copies from the home again (TensorBuffer::note_external_write). For
 * any other buffer nothing changes. A write to the buffer (see the threads rule above). */
TENSORBUF_API tb_status tb_buffer_note_external_write(tb_buffer* buffer) TB_NOEXCEPT;

/** Frees the handle (NULL: nothing). Borrowed memory is released as described above. A
 * destroyed or invalid handle: nothing happens and tb_last_error() says so ("tb_buffer_destroy:
 * buffer is a destroyed or invalid handle"). */
TENSORBUF_API void tb_buffer_destroy(tb_buffer* buffer) TB_NOEXCEPT;

/** Copies the whole buffer to host memory `dst` (syncing from the device if needed). `bytes`
 * must equal the buffer's byte size (elements * element size), else TB_INVALID_ARGUMENT. */
TENSORBUF_API tb_status tb_buffer_copy_to_host(const tb_buffer* buffer, void* dst,
                                               size_t bytes) TB_NOEXCEPT;
/** Copies `bytes` (the buffer's byte size, else TB_INVALID_ARGUMENT) from host memory `src`
 * into the buffer; a borrowed buffer's own memory is written. Read-only: TB_INVALID_ARGUMENT. */
TENSORBUF_API tb_status tb_buffer_copy_from_host(tb_buffer* buffer, const void* src,
                                                 size_t bytes) TB_NOEXCEPT;

TENSORBUF_API tb_status tb_buffer_dtype(const tb_buffer* buffer, tb_dtype* out) TB_NOEXCEPT;
/** `*ndim` = rank, shape[0..rank) = dims (row-major). `shape` needs TB_MAX_NDIM entries; a
 * buffer of higher rank is TB_OUT_OF_RANGE (nothing written). */
TENSORBUF_API tb_status tb_buffer_shape(const tb_buffer* buffer, int* ndim,
                                        int64_t* shape) TB_NOEXCEPT;

/** Blocks until the device work enqueued so far on `stream` of `device` has finished
 * (tensorbuf::synchronize). CPU: returns at once. */
TENSORBUF_API tb_status tb_synchronize(tb_device device, void* stream) TB_NOEXCEPT;

/* ---- tensor_scatter_nd_{sub,add,update,min,max,mul} ------------------------------------- */
/* spec/tensor_scatter_nd.md (mul: spec/indexing.md 1). Out of place: *out is a new buffer. In
 * place: `tensor` is written (unchanged on failure). Ops run where `tensor` lives, or on
 * options->device. */

/** struct_size: sizeof(tb_scatter_options), or the size of an older layout (see "Option
 * structs" above). */
typedef struct {
  size_t struct_size;
  tb_oob oob;
  int deterministic; /**< nonzero: CUDA results equal the CPU's bit for bit */
  void* stream;
  const tb_device* device; /**< added in ABI v1: NULL is where `tensor` lives */
} tb_scatter_options;

/* Each combine has the same four functions (the library defines them from its op table, which
 * checks at compile time that each is declared here). */
TENSORBUF_API tb_status tb_tensor_scatter_nd_sub_in_place(tb_buffer* tensor,
                                                          const tb_buffer* indices,
                                                          const tb_buffer* updates, tb_oob oob,
                                                          void* stream) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_sub(const tb_buffer* tensor, const tb_buffer* indices,
                                                 const tb_buffer* updates, tb_oob oob, void* stream,
                                                 tb_buffer** out) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_sub_in_place_ex(
    tb_buffer* tensor, const tb_buffer* indices, const tb_buffer* updates,
    const tb_scatter_options* options) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_sub_ex(const tb_buffer* tensor,
                                                    const tb_buffer* indices,
                                                    const tb_buffer* updates,
                                                    const tb_scatter_options* options,
                                                    tb_buffer** out) TB_NOEXCEPT;

TENSORBUF_API tb_status tb_tensor_scatter_nd_add_in_place(tb_buffer* tensor,
                                                          const tb_buffer* indices,
                                                          const tb_buffer* updates, tb_oob oob,
                                                          void* stream) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_add(const tb_buffer* tensor, const tb_buffer* indices,
                                                 const tb_buffer* updates, tb_oob oob, void* stream,
                                                 tb_buffer** out) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_add_in_place_ex(
    tb_buffer* tensor, const tb_buffer* indices, const tb_buffer* updates,
    const tb_scatter_options* options) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_add_ex(const tb_buffer* tensor,
                                                    const tb_buffer* indices,
                                                    const tb_buffer* updates,
                                                    const tb_scatter_options* options,
                                                    tb_buffer** out) TB_NOEXCEPT;

TENSORBUF_API tb_status tb_tensor_scatter_nd_update_in_place(tb_buffer* tensor,
                                                             const tb_buffer* indices,
                                                             const tb_buffer* updates, tb_oob oob,
                                                             void* stream) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_update(const tb_buffer* tensor,
                                                    const tb_buffer* indices,
                                                    const tb_buffer* updates, tb_oob oob,
                                                    void* stream, tb_buffer** out) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_update_in_place_ex(
    tb_buffer* tensor, const tb_buffer* indices, const tb_buffer* updates,
    const tb_scatter_options* options) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_update_ex(const tb_buffer* tensor,
                                                       const tb_buffer* indices,
                                                       const tb_buffer* updates,
                                                       const tb_scatter_options* options,
                                                       tb_buffer** out) TB_NOEXCEPT;

TENSORBUF_API tb_status tb_tensor_scatter_nd_min_in_place(tb_buffer* tensor,
                                                          const tb_buffer* indices,
                                                          const tb_buffer* updates, tb_oob oob,
                                                          void* stream) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_min(const tb_buffer* tensor, const tb_buffer* indices,
                                                 const tb_buffer* updates, tb_oob oob, void* stream,
                                                 tb_buffer** out) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_min_in_place_ex(
    tb_buffer* tensor, const tb_buffer* indices, const tb_buffer* updates,
    const tb_scatter_options* options) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_min_ex(const tb_buffer* tensor,
                                                    const tb_buffer* indices,
                                                    const tb_buffer* updates,
                                                    const tb_scatter_options* options,
                                                    tb_buffer** out) TB_NOEXCEPT;

TENSORBUF_API tb_status tb_tensor_scatter_nd_max_in_place(tb_buffer* tensor,
                                                          const tb_buffer* indices,
                                                          const tb_buffer* updates, tb_oob oob,
                                                          void* stream) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_max(const tb_buffer* tensor, const tb_buffer* indices,
                                                 const tb_buffer* updates, tb_oob oob, void* stream,
                                                 tb_buffer** out) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_max_in_place_ex(
    tb_buffer* tensor, const tb_buffer* indices, const tb_buffer* updates,
    const tb_scatter_options* options) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_max_ex(const tb_buffer* tensor,
                                                    const tb_buffer* indices,
                                                    const tb_buffer* updates,
                                                    const tb_scatter_options* options,
                                                    tb_buffer** out) TB_NOEXCEPT;

TENSORBUF_API tb_status tb_tensor_scatter_nd_mul_in_place(tb_buffer* tensor,
                                                          const tb_buffer* indices,
                                                          const tb_buffer* updates, tb_oob oob,
                                                          void* stream) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_mul(const tb_buffer* tensor, const tb_buffer* indices,
                                                 const tb_buffer* updates, tb_oob oob, void* stream,
                                                 tb_buffer** out) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_mul_in_place_ex(
    tb_buffer* tensor, const tb_buffer* indices, const tb_buffer* updates,
    const tb_scatter_options* options) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_tensor_scatter_nd_mul_ex(const tb_buffer* tensor,
                                                    const tb_buffer* indices,
                                                    const tb_buffer* updates,
                                                    const tb_scatter_options* options,
                                                    tb_buffer** out) TB_NOEXCEPT;

/* ---- boolean_mask_update (spec/boolean_mask_update.md) ----------------------------------- */

/** The plain forms broadcast updates; _ex takes all options. struct_size as above. Ops run
 * where `tensor` lives, or on options->device. */
typedef struct {
  size_t struct_size;
  int axis;
  int broadcast; /**< nonzero: updates broadcast (the plain forms' behaviour) */
  void* stream;
  const tb_device* device; /**< added in ABI v1: NULL is where `tensor` lives */
} tb_mask_update_options;

TENSORBUF_API tb_status tb_boolean_mask_update_in_place(tb_buffer* tensor, const tb_buffer* mask,
                                                        const tb_buffer* updates, int axis,
                                                        void* stream) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_boolean_mask_update(const tb_buffer* tensor, const tb_buffer* mask,
                                               const tb_buffer* updates, int axis, void* stream,
                                               tb_buffer** out) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_boolean_mask_update_in_place_ex(
    tb_buffer* tensor, const tb_buffer* mask, const tb_buffer* updates,
    const tb_mask_update_options* options) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_boolean_mask_update_ex(const tb_buffer* tensor, const tb_buffer* mask,
                                                  const tb_buffer* updates,
                                                  const tb_mask_update_options* options,
                                                  tb_buffer** out) TB_NOEXCEPT;

/* ---- boolean_mask, boolean_mask_into, compress (spec/indexing.md 5) ---------------------- */
/* docs/boolean_mask.md. options may be NULL (defaults: axis 0, the library's stream, the device
 * where `tensor` lives); struct_size as above. tb_boolean_mask and tb_compress read the count
 * back on CUDA; tb_boolean_mask_into never waits (out is caller-sized, count one int64). */
typedef struct {
  size_t struct_size;
  int axis;
  void* stream;
  const tb_device* device; /**< NULL: where `tensor` lives */
} tb_boolean_mask_options;

typedef struct {
  size_t struct_size;
  int has_axis; /**< zero: along the flattened input (axis is ignored) */
  int axis;
  void* stream;
  const tb_device* device; /**< NULL: where `input` lives */
} tb_compress_options;

TENSORBUF_API tb_status tb_boolean_mask(const tb_buffer* tensor, const tb_buffer* mask,
                                        const tb_boolean_mask_options* options,
                                        tb_buffer** out) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_boolean_mask_into(const tb_buffer* tensor, const tb_buffer* mask,
                                             tb_buffer* out, tb_buffer* count,
                                             const tb_boolean_mask_options* options) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_compress(const tb_buffer* input, const tb_buffer* condition,
                                    const tb_compress_options* options,
                                    tb_buffer** out) TB_NOEXCEPT;

/* ---- gather_nd (spec/indexing.md 3) ------------------------------------------------------ */
/* docs/gather_nd.md. tensorbuf::GatherOptions, the options of the whole gather family: gather_nd
 * reads oob and batch_dims and ignores axis (for gather and gather_elements). options may be NULL
 * (defaults: TB_OOB_DEFAULT, batch_dims 0, the library's stream, the device where `params`
 * lives); struct_size as above. With TB_OOB_ERROR on CUDA the first bad row is read back (one
 * host wait); TB_OOB_DROP (CUDA's default) writes zeros for bad rows and never waits. */
typedef struct {
  size_t struct_size;
  tb_oob oob;
  int axis;       /**< gather, gather_elements; ignored by tb_gather_nd */
  int batch_dims; /**< leading dims shared by params and indices */
  void* stream;
  const tb_device* device; /**< NULL: where `params` lives */
} tb_gather_options;

TENSORBUF_API tb_status tb_gather_nd(const tb_buffer* params, const tb_buffer* indices,
                                     const tb_gather_options* options, tb_buffer** out) TB_NOEXCEPT;

/* ---- gather, gather_elements, scatter_elements (spec/indexing.md 2, 4) -------------------- */
/* docs/elements.md. Indices are int32/int64; -s <= i < 0 means i + s (s the indexed axis'
 * size); a negative axis counts from the end. tb_gather reads oob, axis and batch_dims of
 * tb_gather_options, tb_gather_elements oob and axis (batch_dims ignored). options may be NULL:
 * TB_OOB_DEFAULT (CPU: error, CUDA: drop), axis 0, batch_dims 0, the library's stream, the
 * device where `params` / `tensor` lives. An index outside [-s, s) under TB_OOB_ERROR is
 * TB_INVALID_ARGUMENT ("indices[1,0] = 7 is out of range for axis 1 of shape [3,3]"), read back
 * on CUDA (one host wait); TB_OOB_DROP writes zeros (gathers) or skips the position (scatter). */
TENSORBUF_API tb_status tb_gather(const tb_buffer* params, const tb_buffer* indices,
                                  const tb_gather_options* options, tb_buffer** out) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_gather_elements(const tb_buffer* params, const tb_buffer* indices,
                                           const tb_gather_options* options,
                                           tb_buffer** out) TB_NOEXCEPT;

/** tensorbuf::Reduction: how tb_scatter_elements combines an update with its element. */
typedef enum {
  TB_REDUCTION_NONE = 0, /**< assign (duplicates: the last wins on the CPU) */
  TB_REDUCTION_ADD = 1,
  TB_REDUCTION_MUL = 2,
  TB_REDUCTION_MIN = 3, /**< NaN propagates */
  TB_REDUCTION_MAX = 4
} tb_reduction;

/** tensorbuf::ScatterElementsOptions. struct_size as above; options may be NULL (TB_OOB_DEFAULT,
 * axis 0, TB_REDUCTION_NONE, not deterministic, the library's stream, where `tensor` lives). */
typedef struct {
  size_t struct_size;
  tb_oob oob;
  int axis;
  tb_reduction reduction;
  int deterministic; /**< nonzero: CUDA results equal the CPU's bit for bit */
  void* stream;
  const tb_device* device; /**< NULL: where `tensor` lives */
} tb_scatter_elements_options;

/** Out of place: *out is a new buffer. In place: `tensor` is written (unchanged on failure).
 * `indices` and `updates` (tensor's dtype) have one shape, of tensor's rank. */
TENSORBUF_API tb_status tb_scatter_elements(const tb_buffer* tensor, const tb_buffer* indices,
                                            const tb_buffer* updates,
                                            const tb_scatter_elements_options* options,
                                            tb_buffer** out) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_scatter_elements_in_place(
    tb_buffer* tensor, const tb_buffer* indices, const tb_buffer* updates,
    const tb_scatter_elements_options* options) TB_NOEXCEPT;

/* ---- substr (spec/substr.md) ------------------------------------------------------------- */

/** struct_size: sizeof(tb_substr_options), or an older layout's (see "Option structs"). */
typedef struct {
  size_t struct_size;
  tb_substr_unit unit;
  tb_oob oob;
  void* stream;
  const tb_device* device; /**< added in ABI v1: NULL is where `offsets` lives */
} tb_substr_options;

/** A string tensor is Apache Arrow's large_string layout: `offsets` (int64, n + 1 elements,
 * from 0, non-decreasing, last == the chars' size) and `chars` (uint8), string i being
 * chars[offsets[i], offsets[i + 1]), with the row-major shape (ndim, shape) of n elements.
 * Both may be borrowed (an Arrow array's own buffers): they are read in place, not copied.
 * `options` may be NULL (bytes, the device's default policy, the library's stream). On success
 * *out_offsets and *out_chars are new buffers of that layout and out_ndim / out_shape (>=
 * TB_MAX_NDIM entries) the result's shape (the broadcast of the three shapes); a result of
 * higher rank is TB_OUT_OF_RANGE. Errors: the offsets rules above and substr's own. */
TENSORBUF_API tb_status tb_substr(const tb_buffer* offsets, const tb_buffer* chars, int ndim,
                                  const int64_t* shape, const tb_buffer* pos, const tb_buffer* len,
                                  const tb_substr_options* options, tb_buffer** out_offsets,
                                  tb_buffer** out_chars, int* out_ndim,
                                  int64_t* out_shape) TB_NOEXCEPT;

/* ---- processing: normalize, quantize, dequantize, cast, quantize_linear, dequantize_linear  */
/* spec/processing.md, docs/processing.md. options may be NULL (the library's stream, the device
 * where `x` lives); struct_size as above. The errors are the C++ ops' (TB_INVALID_ARGUMENT for a
 * zero stddev, a channel count that is not x's last axis, a dtype out of range ...). Each result
 * is a new buffer in *out, or, for an identity (mean 0 and stddev 1, a cast to x's dtype), a new
 * handle sharing x's memory. */
typedef struct {
  size_t struct_size;
  void* stream;
  const tb_device* device; /**< NULL: where `x` lives */
} tb_process_options;

typedef struct {
  size_t struct_size;
  int axis; /**< the per-axis form's axis (negative counts from the end); ONNX's default is 1 */
  void* stream;
  const tb_device* device; /**< NULL: where `x` lives */
} tb_quantize_linear_options;

/** NormalizeOp's scalar form: (float32(x) - mean) / stddev (mean 0 with stddev 0 or +-inf is
 * the identity). */
TENSORBUF_API tb_status tb_normalize(const tb_buffer* x, float mean, float stddev,
                                     const tb_process_options* options,
                                     tb_buffer** out) TB_NOEXCEPT;
/** NormalizeOp's per-channel form over x's last axis: `channels` means and stddevs. */
TENSORBUF_API tb_status tb_normalize_channels(const tb_buffer* x, const float* means,
                                              const float* stddevs, int64_t channels,
                                              const tb_process_options* options,
                                              tb_buffer** out) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_quantize(const tb_buffer* x, float zero_point, float scale,
                                    const tb_process_options* options, tb_buffer** out) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_dequantize(const tb_buffer* x, float zero_point, float scale,
                                      const tb_process_options* options,
                                      tb_buffer** out) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_cast(const tb_buffer* x, tb_dtype dtype,
                                const tb_process_options* options, tb_buffer** out) TB_NOEXCEPT;
/** ONNX QuantizeLinear / DequantizeLinear (opset 13): scale and zero_point buffers of one
 * element (per tensor) or 1-D along options->axis (NULL options: axis 1). */
TENSORBUF_API tb_status tb_quantize_linear(const tb_buffer* x, const tb_buffer* scale,
                                           const tb_buffer* zero_point,
                                           const tb_quantize_linear_options* options,
                                           tb_buffer** out) TB_NOEXCEPT;
TENSORBUF_API tb_status tb_dequantize_linear(const tb_buffer* x, const tb_buffer* scale,
                                             const tb_buffer* zero_point,
                                             const tb_quantize_linear_options* options,
                                             tb_buffer** out) TB_NOEXCEPT;

/* ---- Processor: the fused chain (docs/processing.md "Processor", "From C") ----------------- */

/** An owning handle to one tensorbuf::Processor: an ordered chain of processing steps, built
 * once and run on many inputs in one pass over memory, bit-equal to the single ops above run
 * one after another. Immutable: one processor may run on many threads at once. Its handles
 * follow the tb_buffer rules (a table, never dereferenced; a tb_buffer handle given as a
 * processor, or the reverse, is TB_INVALID_ARGUMENT "<argument> is a tb_buffer handle, not a
 * tb_processor"). Free with tb_processor_destroy. */
typedef struct tb_processor tb_processor;

/** What a tb_process_step does, and which of its fields it reads. */
typedef enum {
  TB_STEP_NORMALIZE = 0,          /**< tb_normalize: mean, stddev */
  TB_STEP_NORMALIZE_CHANNELS = 1, /**< tb_normalize_channels: means, stddevs, channels */
  TB_STEP_QUANTIZE = 2,           /**< tb_quantize: zero_point, scale */
  TB_STEP_DEQUANTIZE = 3,         /**< tb_dequantize: zero_point, scale */
  TB_STEP_CAST = 4                /**< tb_cast: dtype */
} tb_step_kind;

/** One step, as the single op's arguments; the fields its kind does not read are ignored. The
 * steps are an array: every element's struct_size is sizeof(tb_process_step) (the array's
 * stride; a later header may append fields). means / stddevs are read by tb_processor_create
 * only (copied). */
typedef struct {
  size_t struct_size;
  tb_step_kind kind;
  float mean;            /**< TB_STEP_NORMALIZE */
  float stddev;          /**< TB_STEP_NORMALIZE */
  float zero_point;      /**< TB_STEP_QUANTIZE, TB_STEP_DEQUANTIZE */
  float scale;           /**< TB_STEP_QUANTIZE, TB_STEP_DEQUANTIZE */
  const float* means;    /**< TB_STEP_NORMALIZE_CHANNELS: `channels` values */
  const float* stddevs;  /**< TB_STEP_NORMALIZE_CHANNELS: `channels` values */
  int64_t channels;      /**< TB_STEP_NORMALIZE_CHANNELS */
  tb_dtype dtype;        /**< TB_STEP_CAST: the target dtype */
} tb_process_step;

/** A processor of `count` steps (steps may be NULL when count is 0: the identity chain).
 * Errors (TB_INVALID_ARGUMENT, *out untouched): a negative count, a step's struct_size, kind or
 * dtype, a NULL means / stddevs with channels > 0, the single op's argument errors after the
 * step's index ("tb_processor_create: steps[1]: normalize: stddev cannot be zero"), and two
 * per-channel steps of different channel counts (> 1) ("Processor: step 2 (normalize) has 2
 * channels and step 0 (normalize) 3: no last axis fits both"). */
TENSORBUF_API tb_status tb_processor_create(const tb_process_step* steps, int64_t count,
                                            tb_processor** out) TB_NOEXCEPT;
/** The chain applied to x: a new buffer of x's shape and tb_processor_output_dtype(x's dtype),
 * or, when every step is an identity for x, a new handle sharing x's memory. Runs where x lives
 * or on options->device (options may be NULL; tb_process_options as the single ops). Errors:
 * a per-channel step whose channel count is not x's last axis ("Processor step 1 (normalize):
 * 3 means (stddevs) for a last axis of shape [2,4]: ..."), CUDA without CUDA (TB_UNAVAILABLE). */
TENSORBUF_API tb_status tb_processor_run(const tb_processor* processor, const tb_buffer* x,
                                         const tb_process_options* options,
                                         tb_buffer** out) TB_NOEXCEPT;
/** The chain applied to x, written into `out`, which must have x's shape and the chain's
 * output dtype for x (TB_INVALID_ARGUMENT otherwise: "Processor::run_into: out has dtype
 * float16; the chain gives float32 for a uint8 input"). `out` may be x or share memory with
 * it; on failure it is unchanged. A write to `out` (see the threads rule above). */
TENSORBUF_API tb_status tb_processor_run_into(const tb_processor* processor, const tb_buffer* x,
                                              tb_buffer* out,
                                              const tb_process_options* options) TB_NOEXCEPT;
/** *out = the dtype tb_processor_run gives for an input of dtype `input`. */
TENSORBUF_API tb_status tb_processor_output_dtype(const tb_processor* processor, tb_dtype input,
                                                  tb_dtype* out) TB_NOEXCEPT;
/** *out = the number of steps the processor was created with (identities included). */
TENSORBUF_API tb_status tb_processor_step_count(const tb_processor* processor,
                                                int64_t* out) TB_NOEXCEPT;
/** Frees the handle (NULL: nothing; a destroyed or invalid handle: nothing happens and
 * tb_last_error() says so). A run already going on another thread finishes on it first. */
TENSORBUF_API void tb_processor_destroy(tb_processor* processor) TB_NOEXCEPT;

/* ---- DLPack (spec/interop.md I2) --------------------------------------------------------- */

/** A zero-copy export (tensorbuf::to_dlpack_versioned); the consumer calls its deleter once.
 * `consumer_stream` (NULL: none) waits on the buffer's last write. */
TENSORBUF_API tb_status
tb_buffer_to_dlpack_versioned(const tb_buffer* buffer, void* consumer_stream,
                              struct DLManagedTensorVersioned** out) TB_NOEXCEPT;
/** A zero-copy import (tensorbuf::from_dlpack). Consumes `tensor` even on failure (its deleter
 * runs exactly once); `stream` is the producer's stream (NULL: none). */
TENSORBUF_API tb_status tb_buffer_from_dlpack_versioned(struct DLManagedTensorVersioned* tensor,
                                                        void* stream, tb_buffer** out) TB_NOEXCEPT;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TENSORBUF_C_API_H_ */
