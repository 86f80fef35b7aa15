// The error classes and what each surface makes of them, in one table (DESIGN.md, "The op
// table"): the C API's status, the Python exception, the command line's exit status and the
// code the ranks of tensorbuf::mpi agree on. Each surface looks its mapping up here; none
// writes it. Not in tensorbuf.hpp: it brings the C API's header (for tb_status).
//
// A new error class: its ErrorCode enumerator and C++ class (tensorbuf/errors.hpp), its
// tb_status appended in tensorbuf/c_api.h (the values are ABI), and one row below.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include "tensorbuf/c_api.h"
#include "tensorbuf/errors.hpp"
#include "tensorbuf/export.h"

namespace tensorbuf {

namespace detail {
template <class ErrorClassType>
void raise_as(const std::string& message) {
  throw ErrorClassType(message);
}
}  // namespace detail

/// One error class as every surface sees it.
struct ErrorClass {
  ErrorCode code;
  std::string_view name;         // "InvalidArgument": to_string(ErrorCode), the CLI's prefix
  std::string_view class_name;   // "InvalidArgumentError": the C++ class and tensorbuf.<the same>
  std::string_view python_base;  // "ValueError": the built-in the Python class derives from too
  std::string_view summary;      // one line: the Python class's docstring
  tb_status c_status;            // TB_INVALID_ARGUMENT
  int cli_exit;                  // spec/api.md "Command line": 2 invalid inputs, 1 any other
  std::int64_t mpi_code;         // what a failing rank sends the others (tensorbuf::mpi)
  void (*raise)(const std::string& message);  // throws the C++ class with `message`
};

/// Every error class, in ErrorCode's order (error_class indexes it).
inline constexpr std::array<ErrorClass, 5> kErrorClasses = {{
    {ErrorCode::kInvalidArgument, "InvalidArgument", "InvalidArgumentError", "ValueError",
     "A wrong argument: dtype, shape, rank, index, axis, read-only memory for an in-place op, ...",
     TB_INVALID_ARGUMENT, 2, 0, &detail::raise_as<InvalidArgumentError>},
    {ErrorCode::kOutOfRange, "OutOfRange", "OutOfRangeError", "IndexError",
     "An element index outside [0, flat_size).", TB_OUT_OF_RANGE, 2, 1,
     &detail::raise_as<OutOfRangeError>},
    {ErrorCode::kUnavailable, "Unavailable", "UnavailableError", "RuntimeError",
     "CUDA was asked for but cannot be used.", TB_UNAVAILABLE, 1, 2,
     &detail::raise_as<UnavailableError>},
    {ErrorCode::kResourceExhausted, "ResourceExhausted", "ResourceExhaustedError", "MemoryError",
     "An allocation failed.", TB_RESOURCE_EXHAUSTED, 1, 3,
     &detail::raise_as<ResourceExhaustedError>},
    {ErrorCode::kInternal, "Internal", "InternalError", "RuntimeError",
     "A CUDA runtime call failed.", TB_INTERNAL, 1, 4, &detail::raise_as<InternalError>},
}};

namespace detail {
constexpr bool error_classes_in_code_order() {
  for (std::size_t i = 0; i < kErrorClasses.size(); ++i) {
    if (kErrorClasses[i].code != static_cast<ErrorCode>(i)) return false;
  }
  return true;
}
}  // namespace detail
static_assert(detail::error_classes_in_code_order(), "kErrorClasses must follow ErrorCode's order");

/// The row of `code`; the Internal row for a value outside ErrorCode (an int cast to it).
constexpr const ErrorClass& error_class(ErrorCode code) {
  const auto index = static_cast<std::size_t>(code);
  return index < kErrorClasses.size()
             ? kErrorClasses[index]
             : kErrorClasses[static_cast<std::size_t>(ErrorCode::kInternal)];
}

/// The class any exception is reported as: a tensorbuf Error's own code, std::bad_alloc
/// ResourceExhausted, anything else Internal.
TENSORBUF_API ErrorCode error_code_of(const std::exception& error) noexcept;

/// The row whose mpi_code is `code`; the Internal row for a code no row has.
TENSORBUF_API const ErrorClass& error_class_of_mpi_code(std::int64_t code) noexcept;

/// Throws `code`'s C++ class with `message` (InternalError for a value outside ErrorCode).
[[noreturn]] TENSORBUF_API void throw_error(ErrorCode code, const std::string& message);

}  // namespace tensorbuf
