#include "tensorbuf/error_classes.hpp"

#include <new>

namespace tensorbuf {

ErrorCode error_code_of(const std::exception& error) noexcept {
  if (const auto* e = dynamic_cast<const Error*>(&error)) return e->code();
  if (dynamic_cast<const std::bad_alloc*>(&error) != nullptr) return ErrorCode::kResourceExhausted;
  return ErrorCode::kInternal;
}

const ErrorClass& error_class_of_mpi_code(std::int64_t code) noexcept {
  for (const ErrorClass& c : kErrorClasses) {
    if (c.mpi_code == code) return c;
  }
  return error_class(ErrorCode::kInternal);
}

void throw_error(ErrorCode code, const std::string& message) {
  error_class(code).raise(message);
  throw InternalError(message);  // unreachable: every row's raise throws
}

}  // namespace tensorbuf
