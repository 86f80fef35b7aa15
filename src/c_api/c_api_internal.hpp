// The C API's side of the boundary: the handles, argument conversion, and `guarded`, the
// one place exceptions are turned into statuses. Validation stays in the C++ API (src/core):
// this layer checks only what C adds (NULL pointers, enum values, struct_size, byte counts of
// raw copies) and what C++ never sees.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <optional>
#include <tuple>
#include <type_traits>
#include <vector>

#include "tensorbuf/c_api.h"
#include "tensorbuf/errors.hpp"
#include "tensorbuf/tensor_buffer.hpp"

namespace tensorbuf {
class Processor;
struct ProcessOptions;
}  // namespace tensorbuf

namespace tensorbuf::c_api {

// Runs `body` (which returns void) and turns every exception into a status and the
// thread-local message "<function>: <what>". Never throws.
tb_status guarded_call(const char* function, void (*body)(void*), void* context) noexcept;
template <class Body>
tb_status guarded(const char* function, Body&& body) noexcept {
  using Callable = std::remove_reference_t<Body>;
  return guarded_call(
      function, [](void* c) { (*static_cast<Callable*>(c))(); },
      const_cast<void*>(static_cast<const void*>(&body)));
}

// Test hook: the next guarded call on this thread throws `error` inside its body (kind: an
// ErrorCode, or kBadAlloc, kForeign for a non-std exception, kLogicError for std::logic_error).
enum class InjectedFault {
  kNone,
  kInvalidArgument,
  kOutOfRange,
  kUnavailable,
  kResourceExhausted,
  kInternal,
  kBadAlloc,
  kLogicError,
  kForeign
};
void inject_fault_for_testing(InjectedFault fault) noexcept;

// InvalidArgumentError "<name> is NULL" when `pointer` is null.
void require(const void* pointer, const char* name);

// Handles (c_api_handles.cpp). A tb_buffer* is never a pointer to memory: its value names a
// slot of a process-wide table and the slot's generation, which destroy bumps, so a destroyed
// handle (also once its slot holds a new buffer) and any value no call returned are refused
// without being dereferenced.
//
// The buffer of a live handle, held for as long as the caller keeps the result (a destroy on
// another thread meanwhile ends the handle, not the buffer). InvalidArgumentError "<name> is
// NULL" or "<name> is a destroyed or invalid handle".
std::shared_ptr<const TensorBuffer> buffer_of(const tb_buffer* handle, const char* name);
std::shared_ptr<TensorBuffer> buffer_of(tb_buffer* handle, const char* name);
// Ends a live handle (the error above otherwise, nothing changed); its buffer is freed once no
// running call holds it.
void destroy_handle(tb_buffer* handle, const char* name);

// A handle being made. The constructor does everything that can fail (a table slot and the
// buffer's holder), so that a borrow or import, which takes ownership of caller memory, runs
// only once nothing can fail after it: set() stores its buffer and publish() returns the
// handle, neither throwing. Dropped unpublished, it gives its slot back.
class NewHandle {
 public:
  NewHandle();
  ~NewHandle();
  NewHandle(const NewHandle&) = delete;
  NewHandle& operator=(const NewHandle&) = delete;

  void set(TensorBuffer buffer) noexcept;
  tb_buffer* publish() noexcept;

 private:
  std::shared_ptr<std::optional<TensorBuffer>> holder_;
  std::uint32_t slot_ = 0;
  bool published_ = false;
};

// Processors (c_api_handles.cpp), in a table of their own with the same rules. A tb_buffer
// handle given as a processor, or a processor handle as a buffer, is InvalidArgumentError
// "<name> is a tb_buffer handle, not a tb_processor" (and the reverse).
std::shared_ptr<const Processor> processor_of(const tb_processor* handle, const char* name);
// A new handle holding `processor` (ResourceExhaustedError when the table is full).
tb_processor* publish_processor(Processor processor);
void destroy_processor_handle(tb_processor* handle, const char* name);

// An op's result as a new handle in *out: `out` checked (after the caller's inputs), the result
// made, then published.
template <class MakeResult>
void publish_result(tb_buffer** out, MakeResult&& make) {
  require(out, "out");
  NewHandle handle;
  handle.set(make());
  *out = handle.publish();
}

// An op's handle argument and its name in the error text ("tensor is NULL").
template <class Buffer>  // tb_buffer (written by the op) or const tb_buffer
struct Arg {
  Buffer* handle;
  const char* name;
};
template <class Buffer>
Arg(Buffer*, const char*) -> Arg<Buffer>;

// The body of every op's C function, inside `guarded`: each argument's buffer held, in order,
// for the call (a destroy on another thread cannot free it under the op; the braces fix the
// order, so the first bad handle is the one reported), then `op(buffers...)`.
// call_op_publishing: `op` returns the result, published in *out (checked after the inputs).
// `op` converts the options itself, after every argument check.
template <class Op, class... Buffers>
tb_status call_op(const char* function, Op&& op, Arg<Buffers>... args) noexcept {
  return guarded(function, [&] {
    const std::tuple<decltype(buffer_of(args.handle, args.name))...> held{
        buffer_of(args.handle, args.name)...};
    std::apply([&](const auto&... buffer) { op(*buffer...); }, held);
  });
}
template <class Op, class... Buffers>
tb_status call_op_publishing(const char* function, tb_buffer** out, Op&& op,
                             Arg<Buffers>... args) noexcept {
  return call_op(
      function, [&](auto&... buffer) { publish_result(out, [&] { return op(buffer...); }); },
      args...);
}

// The int a C caller stored in an enum-typed argument or field. Read through memcpy, not as the
// enum type: a C caller may pass any int, and a C++ load of a value outside the enumeration's
// range is undefined behaviour (UBSan's -fsanitize=enum reports it).
template <class Enum>
int raw_value(const Enum& value) {
  static_assert(sizeof(Enum) == sizeof(int), "C enums are ints");
  int raw;
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}

DataType to_data_type(int dtype);
tb_dtype to_tb_dtype(DataType type);
Device to_device(tb_device device);
OutOfBoundsPolicy to_policy(int oob);
// `ndim` dims from `dims` (NULL allowed when ndim is 0).
Shape to_shape(int ndim, const std::int64_t* dims);
// Writes a shape of rank <= TB_MAX_NDIM (OutOfRangeError otherwise, nothing written).
void write_shape(const Shape& shape, int* ndim, std::int64_t* dims);
// An options struct's struct_size: one of the older layouts' sizes (`older`: each the offset
// of the first field added after it), or at least `current` (sizeof the struct). Otherwise
// InvalidArgumentError; a size ending inside a field is no layout.
void require_struct_size(std::size_t given, std::initializer_list<std::size_t> older,
                         std::size_t current, const char* name);
// Whether a caller's struct of `struct_size` bytes holds `member` (ABI v1 structs grow at the
// end: a field the size does not cover takes its default).
#define TENSORBUF_C_HAS_FIELD(c, Type, member) \
  ((c)->struct_size >= offsetof(Type, member) + sizeof(Type::member))
// The device of an op's options: unset (where its first input lives) for a NULL `device`.
std::optional<Device> to_optional_device(const tb_device* device);
// The stream and device of an op's options struct `c` (the device where its struct_size covers
// it: appended to the older structs).
template <class C, class Options>
void take_stream_and_device(const C* c, Options& options) {
  options.stream = Stream{c->stream};
  if (TENSORBUF_C_HAS_FIELD(c, C, device)) options.device = to_optional_device(c->device);
}
// tb_process_options as ProcessOptions (NULL: the defaults); c_api_processing.cpp.
ProcessOptions process_options(const tb_process_options* c);

}  // namespace tensorbuf::c_api
