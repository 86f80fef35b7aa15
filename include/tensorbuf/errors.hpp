// The exception hierarchy of tensorbuf. Every failure of a public call is one of these.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "tensorbuf/export.h"

namespace tensorbuf {

/// What went wrong, in the categories of TensorFlow's status codes.
enum class ErrorCode { kInvalidArgument, kOutOfRange, kUnavailable, kResourceExhausted, kInternal };

/// "InvalidArgument", "OutOfRange", ... (the prefix the command-line tool prints).
TENSORBUF_API std::string_view to_string(ErrorCode code);

/// Base of all tensorbuf errors. A call that throws leaves its inputs, and the buffer it was
/// loading or writing, exactly as they were.
class TENSORBUF_API Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

/// A caller's argument is wrong: dtype, shape, rank, index, axis, byte count, file contents.
class TENSORBUF_API InvalidArgumentError : public Error {
 public:
  explicit InvalidArgumentError(const std::string& m) : Error(ErrorCode::kInvalidArgument, m) {}
};

/// An element index outside [0, flat_size()).
class TENSORBUF_API OutOfRangeError : public Error {
 public:
  explicit OutOfRangeError(const std::string& m) : Error(ErrorCode::kOutOfRange, m) {}
};

/// CUDA was asked for but cannot be used: not built, no driver, driver too old, no device.
class TENSORBUF_API UnavailableError : public Error {
 public:
  explicit UnavailableError(const std::string& m) : Error(ErrorCode::kUnavailable, m) {}
};

/// An allocation (host, pinned or device) failed.
class TENSORBUF_API ResourceExhaustedError : public Error {
 public:
  explicit ResourceExhaustedError(const std::string& m) : Error(ErrorCode::kResourceExhausted, m) {}
};

/// A CUDA runtime call failed; the message carries the CUDA error name.
class TENSORBUF_API InternalError : public Error {
 public:
  explicit InternalError(const std::string& m) : Error(ErrorCode::kInternal, m) {}
};

}  // namespace tensorbuf
