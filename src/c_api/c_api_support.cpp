// The C API's boundary: statuses from exceptions, the thread-local message, conversions.
#include <cstdio>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "c_api/c_api_internal.hpp"
#include "tensorbuf/error_classes.hpp"
#include "core/error_macros.hpp"

namespace tensorbuf::c_api {
namespace {

// A fixed buffer: recording a failure must not allocate (it may be reporting bad_alloc).
thread_local char last_error[4096] = "";
thread_local InjectedFault injected_fault = InjectedFault::kNone;

tb_status fail(tb_status status, const char* function, const char* what) noexcept {
  std::snprintf(last_error, sizeof last_error, "%s: %s", function, what);
  return status;
}

tb_status status_of(ErrorCode code) noexcept { return error_class(code).c_status; }

void throw_injected(InjectedFault fault) {
  switch (fault) {
    case InjectedFault::kNone:
      return;
    case InjectedFault::kInvalidArgument:
      throw InvalidArgumentError("injected InvalidArgument");
    case InjectedFault::kOutOfRange:
      throw OutOfRangeError("injected OutOfRange");
    case InjectedFault::kUnavailable:
      throw UnavailableError("injected Unavailable");
    case InjectedFault::kResourceExhausted:
      throw ResourceExhaustedError("injected ResourceExhausted");
    case InjectedFault::kInternal:
      throw InternalError("injected Internal");
    case InjectedFault::kBadAlloc:
      throw std::bad_alloc();
    case InjectedFault::kLogicError:
      throw std::logic_error("injected logic_error");
    case InjectedFault::kForeign:
      throw 42;
  }
}

}  // namespace

tb_status guarded_call(const char* function, void (*body)(void*), void* context) noexcept {
  try {
    throw_injected(std::exchange(injected_fault, InjectedFault::kNone));
    body(context);
    return TB_OK;
  } catch (const Error& e) {
    return fail(status_of(e.code()), function, e.what());
  } catch (const std::bad_alloc&) {
    return fail(status_of(ErrorCode::kResourceExhausted), function,
                "out of memory (std::bad_alloc)");
  } catch (const std::exception& e) {
    return fail(status_of(ErrorCode::kInternal), function, e.what());
  } catch (...) {
    return fail(status_of(ErrorCode::kInternal), function, "unknown exception");
  }
}

void inject_fault_for_testing(InjectedFault fault) noexcept { injected_fault = fault; }

void require(const void* pointer, const char* name) {
  TENSORBUF_EXPECTS(pointer != nullptr, InvalidArgumentError, core::str_cat(name, " is NULL"));
}

DataType to_data_type(int dtype) {
  TENSORBUF_EXPECTS(dtype >= TB_BOOL && dtype <= TB_FLOAT64, InvalidArgumentError,
                    core::str_cat("unknown tb_dtype ", dtype));
  return static_cast<DataType>(dtype);  // the same order (static_asserts in c_api_buffer.cpp)
}

tb_dtype to_tb_dtype(DataType type) { return static_cast<tb_dtype>(static_cast<int>(type)); }

Device to_device(tb_device device) {
  TENSORBUF_EXPECTS(device.kind == 0 || device.kind == 1, InvalidArgumentError,
                    core::str_cat("unknown tb_device kind ", device.kind, " (0: cpu, 1: cuda)"));
  return device.kind == 0 ? Device::cpu() : Device::cuda(device.index);
}

OutOfBoundsPolicy to_policy(int oob) {
  switch (oob) {
    case TB_OOB_DEFAULT:
      return OutOfBoundsPolicy::kDeviceDefault;
    case TB_OOB_ERROR:
      return OutOfBoundsPolicy::kError;
    case TB_OOB_DROP:
      return OutOfBoundsPolicy::kDrop;
    default:
      throw InvalidArgumentError(core::str_cat("unknown tb_oob ", oob));
  }
}

Shape to_shape(int ndim, const std::int64_t* dims) {
  TENSORBUF_EXPECTS(ndim >= 0, InvalidArgumentError, core::str_cat("ndim is negative: ", ndim));
  if (ndim > 0) require(dims, "shape");
  return Shape(std::vector<std::int64_t>(dims, dims + ndim));
}

void write_shape(const Shape& shape, int* ndim, std::int64_t* dims) {
  TENSORBUF_EXPECTS(
      shape.rank() <= TB_MAX_NDIM, OutOfRangeError,
      core::str_cat("rank ", shape.rank(), " is more than the C API's ", TB_MAX_NDIM, " dims"));
  for (int i = 0; i < shape.rank(); ++i) dims[i] = shape[i];
  *ndim = shape.rank();
}

void require_struct_size(std::size_t given, std::initializer_list<std::size_t> older,
                         std::size_t current, const char* name) {
  if (given >= current) return;
  for (const std::size_t size : older) {
    if (given == size) return;
  }
  std::string sizes;
  for (const std::size_t size : older) sizes += core::str_cat(size, " (an older layout) or ");
  throw InvalidArgumentError(
      core::str_cat(name, "->struct_size is ", given, ", expected ", sizes, "at least ", current));
}

std::optional<Device> to_optional_device(const tb_device* device) {
  if (device == nullptr) return std::nullopt;
  return to_device(*device);
}

}  // namespace tensorbuf::c_api

extern "C" {

uint32_t tb_abi_version(void) noexcept { return TB_ABI_VERSION; }
const char* tb_last_error(void) noexcept { return tensorbuf::c_api::last_error; }

}  // extern "C"
