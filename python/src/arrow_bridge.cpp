#include "arrow_bridge.hpp"

#include <cstring>
#include <string>
#include <vector>

#include "gil.hpp"
#include "tensorbuf/errors.hpp"

namespace tensorbuf::python {

namespace py = pybind11;

namespace {

// The moved-in array, released once by the last buffer borrowing it (with the GIL: a
// producer written in Python releases through Python).
struct HeldArray {
  ArrowArray array{};
  ~HeldArray() {
    if (array.release != nullptr) with_gil([this] { array.release(&array); });
  }
};

template <class Struct>
Struct* capsule_pointer(py::handle capsule, const char* name) {
  auto* pointer = static_cast<Struct*>(PyCapsule_GetPointer(capsule.ptr(), name));
  if (pointer == nullptr) throw py::error_already_set();
  return pointer;
}

std::int64_t count_nulls(const ArrowArray& array) {
  const auto* validity = static_cast<const std::uint8_t*>(array.buffers[0]);
  if (validity == nullptr || array.null_count == 0) return 0;
  std::int64_t nulls = 0;
  for (std::int64_t i = array.offset; i < array.offset + array.length; ++i) {
    nulls += ((validity[i / 8] >> (i % 8)) & 1) == 0 ? 1 : 0;
  }
  return nulls;
}

// The offsets [offset, offset + length] as int64 from 0: borrowed when they already are.
template <class Offset>
TensorBuffer offsets_of(const ArrowArray& array, std::shared_ptr<HeldArray> held,
                        std::int64_t* first, std::int64_t* last) {
  const Shape shape{array.length + 1};
  if (array.buffers[1] == nullptr) {  // allowed for an empty array
    if (array.length != 0) throw InvalidArgumentError("strings: Arrow array without offsets");
    *first = *last = 0;
    return TensorBuffer::create_fixed_size(shape, DataType::kInt64);
  }
  const auto* offsets = static_cast<const Offset*>(array.buffers[1]) + array.offset;
  *first = offsets[0];
  *last = offsets[array.length];
  if constexpr (std::is_same_v<Offset, std::int64_t>) {
    if (*first == 0) {
      BorrowOptions borrow;
      borrow.release = [held](Stream) mutable { held.reset(); };
      return TensorBuffer::borrow(static_cast<const void*>(offsets), shape, DataType::kInt64,
                                  Device::cpu(), std::move(borrow));
    }
  }
  TensorBuffer widened = TensorBuffer::create_uninitialized(shape, DataType::kInt64);
  auto* out = widened.overwrite_host<std::int64_t>();
  for (std::int64_t i = 0; i <= array.length; ++i) out[i] = static_cast<std::int64_t>(offsets[i]) - *first;
  return widened;
}

void release_schema(ArrowSchema* schema) {
  schema->release = nullptr;
}
struct ExportedArray {
  std::shared_ptr<const StringTensor> strings;
  const void* buffers[3];
};
void release_array(ArrowArray* array) {
  delete static_cast<ExportedArray*>(array->private_data);
  array->release = nullptr;
}

}  // namespace

StringTensor import_arrow(py::handle object) {
  py::tuple capsules = object.attr("__arrow_c_array__")();
  if (capsules.size() != 2) throw InvalidArgumentError("__arrow_c_array__ must return (schema, array)");
  auto* schema = capsule_pointer<ArrowSchema>(capsules[0], "arrow_schema");
  auto* source = capsule_pointer<ArrowArray>(capsules[1], "arrow_array");
  const std::string format = schema->format == nullptr ? "" : schema->format;
  const bool large = format == "U" || format == "Z";
  if (!large && format != "u" && format != "z") {
    throw InvalidArgumentError("strings: Arrow format '" + format + "' is not a string or binary "
                               "type (tensorbuf takes string, binary, large_string, large_binary)");
  }
  if (source->release == nullptr) throw InvalidArgumentError("strings: the Arrow array was released");
  // Move the array out of its capsule (the capsule's destructor then leaves it alone).
  auto held = std::make_shared<HeldArray>();
  held->array = *source;
  source->release = nullptr;
  const ArrowArray& array = held->array;
  if (array.n_buffers != 3 || array.length < 0 || array.offset < 0) {
    throw InvalidArgumentError("strings: malformed Arrow string array (" +
                               std::to_string(array.n_buffers) + " buffers, length " +
                               std::to_string(array.length) + ")");
  }
  if (const std::int64_t nulls = count_nulls(array); nulls != 0) {
    throw InvalidArgumentError("strings: the Arrow array has " + std::to_string(nulls) +
                               " null(s); tensorbuf strings cannot be null (fill them first)");
  }
  std::int64_t first = 0, last = 0;
  TensorBuffer offsets = large ? offsets_of<std::int64_t>(array, held, &first, &last)
                               : offsets_of<std::int32_t>(array, held, &first, &last);
  if (first < 0 || last < first) {
    throw InvalidArgumentError("strings: Arrow offsets must be non-decreasing from >= 0");
  }
  const Shape chars_shape{last - first};
  const auto* chars = static_cast<const std::byte*>(array.buffers[2]);
  TensorBuffer chars_buffer = TensorBuffer::create_fixed_size(Shape{0}, DataType::kUInt8);
  if (last > first) {
    BorrowOptions borrow;
    borrow.release = [held](Stream) mutable { held.reset(); };
    chars_buffer = TensorBuffer::borrow(static_cast<const void*>(chars + first), chars_shape,
                                        DataType::kUInt8, Device::cpu(), std::move(borrow));
  }
  return StringTensor::from_buffers(std::move(offsets), std::move(chars_buffer), Shape{array.length});
}

py::tuple export_arrow(std::shared_ptr<const StringTensor> strings, py::handle requested_schema) {
  const char* format = "Z";
  if (!requested_schema.is_none()) {
    auto* requested = capsule_pointer<ArrowSchema>(requested_schema, "arrow_schema");
    const std::string asked = requested->format == nullptr ? "" : requested->format;
    if (asked == "U") {
      format = "U";
    } else if (asked != "Z") {
      throw py::value_error("__arrow_c_array__: tensorbuf exports large_binary ('Z') or "
                            "large_string ('U'), not '" + asked + "'");
    }
  }
  strings->sync_to(Device::cpu());
  auto* schema = new ArrowSchema{};
  schema->format = format;
  schema->name = "";
  schema->flags = 2;  // ARROW_FLAG_NULLABLE, as Arrow's own exports say (there are no nulls)
  schema->release = &release_schema;
  py::capsule schema_capsule(schema, "arrow_schema", [](PyObject* capsule) {
    auto* s = static_cast<ArrowSchema*>(PyCapsule_GetPointer(capsule, "arrow_schema"));
    if (s->release != nullptr) s->release(s);
    delete s;
  });
  static const std::int64_t kNoChars = 0;  // Arrow wants a data pointer even for no chars
  const void* chars = strings->num_chars() == 0 ? &kNoChars : strings->chars().host_bytes();
  auto* exported = new ExportedArray{strings, {nullptr, strings->offsets().host_bytes(), chars}};
  auto* array = new ArrowArray{};
  array->length = strings->size();
  array->n_buffers = 3;
  array->buffers = exported->buffers;
  array->private_data = exported;
  array->release = &release_array;
  py::capsule array_capsule(array, "arrow_array", [](PyObject* capsule) {
    auto* a = static_cast<ArrowArray*>(PyCapsule_GetPointer(capsule, "arrow_array"));
    if (a->release != nullptr) a->release(a);
    delete a;
  });
  return py::make_tuple(schema_capsule, array_capsule);
}

}  // namespace tensorbuf::python
