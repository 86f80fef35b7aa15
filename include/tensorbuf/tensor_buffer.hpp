// TensorBuffer: a typed, shaped buffer owning host and device memory, synced lazily.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "tensorbuf/export.h"
#include "tensorbuf/types.hpp"

namespace tensorbuf {

namespace core {
class Storage;
struct BufferAccess;
}

/// How a TensorBuffer borrows memory it does not own (docs/interop.md).
struct BorrowOptions {
  /// Every write through tensorbuf (mutable_* / overwrite_* accessors, loads, in-place ops)
  /// throws InvalidArgumentError and leaves the memory byte-identical.
  bool read_only = false;
  /// The caller's stream the data is ready on: tensorbuf's first use waits on it (an event on
  /// the device; the host waits only for a host read of host memory).
  Stream ready_stream{};
  /// Called exactly once, when the last TensorBuffer or DLPack export referring to the memory
  /// is gone, with the stream of tensorbuf's last use (null: none) so the owner can free in
  /// stream order. Never called when borrow() throws. May run on any thread; must not throw
  /// or block.
  std::function<void(Stream last_use)> release{};
  /// Keep the other side's copy (the mirror) across calls until note_external_write().
  bool cache_mirror = false;
};

/// A typed, shaped buffer with up to two copies of its bytes (host and device) and a validity
/// bit for each. Reading a stale side copies from the other; writing a side marks the other
/// stale; nothing is copied otherwise. Behaviour of TensorFlow Lite Support's TensorBuffer
/// (see docs/tensor_buffer.md), for every DataType.
///
/// Thread safety: concurrent const calls (reads, including reads that sync a stale side) are
/// safe; a non-const call must not run concurrently with any other call on the same buffer.
/// Move-only; `clone()` makes a deep copy.
class TENSORBUF_API TensorBuffer {
 public:
  /// An empty dynamic buffer: shape {0}, flat size 0. Loads may change its shape.
  static TensorBuffer create_dynamic(DataType type);
  /// A zero-filled buffer whose shape never changes. `{}` is a scalar (one element).
  /// Throws InvalidArgumentError for a negative dim or an element/byte count overflowing int64.
  static TensorBuffer create_fixed_size(const Shape& shape, DataType type);
  /// A fixed-size buffer whose contents are undefined until written; nothing is allocated
  /// until the first write (`overwrite_host` / `overwrite_device`), so an op's output gets
  /// memory only on the side it is computed on. Same errors as create_fixed_size.
  static TensorBuffer create_uninitialized(const Shape& shape, DataType type);
  /// Deep copy of `src`, converted to `type` (rules of docs/tensor_buffer.md); dynamic iff
  /// `src` is.
  static TensorBuffer create_from(const TensorBuffer& src, DataType type);
  /// Deep copy: same dtype, shape, dynamic flag and contents (on the host).
  TensorBuffer clone() const;

  /// A fixed-size buffer over caller memory on `device` (host: Device::cpu(); CUDA: cuda:i),
  /// without a copy: that memory is the buffer's home and in-place ops write it. Element
  /// aligned; null only when the shape has no elements. InvalidArgumentError for misaligned or
  /// null data, UnavailableError for CUDA memory without CUDA (docs/interop.md, I1).
  static TensorBuffer borrow(void* data, const Shape& shape, DataType type, Device device,
                             BorrowOptions options = {});
  /// Same, always read-only.
  static TensorBuffer borrow(const void* data, const Shape& shape, DataType type, Device device,
                             BorrowOptions options = {});
  bool is_borrowed() const;
  bool is_read_only() const;
  /// True while the contents are caller bytes referenced by load_buffer: exports of them are
  /// read-only (tensorbuf never writes them), and the first write through this buffer copies.
  bool is_copy_on_write() const;
  /// The owner wrote the home memory on `producer` (null: the library's stream): tensorbuf's
  /// next use waits on that work (an event), and the mirror is dropped.
  void wait_for(Stream producer);
  /// The owner wrote the home memory: the mirror is dropped (needed with cache_mirror).
  void note_external_write();
  /// Frees the copy on `device` (back to the caching pools). InvalidArgumentError when the other
  /// side is not valid, or `device` holds the home of borrowed or exported memory.
  void evict(Device device);
  /// Bytes this buffer holds (owned or referenced) on `device` now; 0 if none.
  std::size_t bytes_on(Device device) const;

  TensorBuffer(TensorBuffer&&) noexcept;
  TensorBuffer& operator=(TensorBuffer&&) noexcept;
  TensorBuffer(const TensorBuffer&) = delete;
  TensorBuffer& operator=(const TensorBuffer&) = delete;
  ~TensorBuffer();

  DataType data_type() const { return type_; }
  /// A copy of the shape.
  Shape shape() const { return shape_; }
  std::int64_t flat_size() const { return shape_.num_elements(); }
  std::size_t type_size() const;
  /// flat_size() * type_size().
  std::size_t size_bytes() const;
  bool is_dynamic() const { return dynamic_; }

  /// Loads `values` (converted, saturating) with shape `shape`. Throws InvalidArgumentError if
  /// the count differs from the shape's, or a fixed-size buffer is given another shape. On any
  /// error the buffer is unchanged.
  void load_array(std::span<const float> values, const Shape& shape);
  void load_array(std::span<const std::int32_t> values, const Shape& shape);
  /// Same as above with the current shape.
  void load_array(std::span<const float> values);
  void load_array(std::span<const std::int32_t> values);
  /// References `bytes` (native byte order) without copying; the caller keeps them alive and
  /// unchanged while referenced. The first write through this buffer copies them first:
  /// tensorbuf never writes into caller memory (TensorBuffer::borrow does). Throws InvalidArgumentError when the byte
  /// count is not type_size() * count(shape) or a fixed-size buffer is given another shape.
  void load_buffer(std::span<const std::byte> bytes, const Shape& shape);
  void load_buffer(std::span<const std::byte> bytes);

  /// All elements converted to float / int32 (saturating; NaN -> 0).
  std::vector<float> get_float_array() const;
  std::vector<std::int32_t> get_int_array() const;
  /// Element `index` of the row-major order; OutOfRangeError outside [0, flat_size()).
  float get_float_value(std::int64_t index) const;
  std::int32_t get_int_value(std::int64_t index) const;

  /// Typed access by intent. T must be the element type (DataTypeOf<T>; std::uint8_t for
  /// bool), else InvalidArgumentError. Pointers stay valid until the next non-const call.
  ///  host / device: read; syncs that side first if it is stale.
  ///  mutable_*: read and write; syncs first, then marks the other side stale.
  ///  overwrite_*: the caller writes every element; no copy, then the other side is stale.
  /// Device accessors use the buffer's device (cuda:0 unless synced elsewhere) and throw
  /// UnavailableError without a usable CUDA device.
  /// On a borrowed buffer, a write through the other side's accessor (mutable_host() of CUDA
  /// memory) reaches the home memory at the next sync_to(home) or use there; loads and ops
  /// write it back before they return.
  template <class T> const T* host() const { return static_cast<const T*>(host_data(DataTypeOf<T>::value)); }
  template <class T> T* mutable_host() { return static_cast<T*>(mutable_host_data(DataTypeOf<T>::value)); }
  template <class T> T* overwrite_host() { return static_cast<T*>(overwrite_host_data(DataTypeOf<T>::value)); }
  template <class T> const T* device() const { return static_cast<const T*>(device_data(DataTypeOf<T>::value)); }
  template <class T> T* mutable_device() { return static_cast<T*>(mutable_device_data(DataTypeOf<T>::value)); }
  template <class T> T* overwrite_device() { return static_cast<T*>(overwrite_device_data(DataTypeOf<T>::value)); }

  /// Makes the copy on `device` valid (copying if stale). Const: it changes where the bytes
  /// are, never what they are.
  void sync_to(Device device) const;
  /// Whether the copy on `device` holds the current contents.
  bool is_valid_on(Device device) const;
  /// Where the freshest copy lives: the home of borrowed (or exported) memory while it is
  /// current, else CUDA if only the device copy is valid, else the CPU. Ops run there.
  Device residence() const;

  /// Untyped forms of the accessors above (no element-type check).
  const void* host_bytes() const;
  void* mutable_host_bytes();
  void* overwrite_host_bytes();
  const void* device_bytes() const;
  void* mutable_device_bytes();
  void* overwrite_device_bytes();


 private:
  friend struct core::BufferAccess;  // the library's ops reach the storage through it
  TensorBuffer(DataType type, Shape shape, bool dynamic, std::shared_ptr<core::Storage> storage);
  void check_element_type(DataType requested) const;
  const void* host_data(DataType requested) const;
  void* mutable_host_data(DataType requested);
  void* overwrite_host_data(DataType requested);
  const void* device_data(DataType requested) const;
  void* mutable_device_data(DataType requested);
  void* overwrite_device_data(DataType requested);
  void check_loadable_shape(const Shape& shape) const;
  template <class Source> void load_converted(std::span<const Source> values, const Shape& shape);

  DataType type_;
  Shape shape_;
  bool dynamic_;
  std::shared_ptr<core::Storage> storage_;  // shared with DLPack exports
};

}  // namespace tensorbuf
