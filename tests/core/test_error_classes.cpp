// tensorbuf/error_classes.hpp: each error class's C status, Python class, CLI exit status and
// MPI code. The expected values are today's, written out here (the C statuses are ABI, the
// Python classes and exit statuses are documented), so a changed row fails here.
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

#include "tensorbuf/c_api.h"
#include "tensorbuf/error_classes.hpp"
#include "tensorbuf/errors.hpp"

namespace tensorbuf {
namespace {

struct Expected {
  ErrorCode code;
  std::string_view name, class_name, python_base;
  int c_status, cli_exit;
  std::int64_t mpi_code;
  const std::type_info& type;
};

const std::vector<Expected>& expected_rows() {
  static const std::vector<Expected> rows = {
      {ErrorCode::kInvalidArgument, "InvalidArgument", "InvalidArgumentError", "ValueError", 1, 2,
       0, typeid(InvalidArgumentError)},
      {ErrorCode::kOutOfRange, "OutOfRange", "OutOfRangeError", "IndexError", 2, 2, 1,
       typeid(OutOfRangeError)},
      {ErrorCode::kUnavailable, "Unavailable", "UnavailableError", "RuntimeError", 3, 1, 2,
       typeid(UnavailableError)},
      {ErrorCode::kResourceExhausted, "ResourceExhausted", "ResourceExhaustedError", "MemoryError",
       4, 1, 3, typeid(ResourceExhaustedError)},
      {ErrorCode::kInternal, "Internal", "InternalError", "RuntimeError", 5, 1, 4,
       typeid(InternalError)},
  };
  return rows;
}

// The dynamic type and message of what `raise` throws.
template <class Raise>
std::pair<const std::type_info*, std::string> thrown_by(Raise&& raise) {
  try {
    raise();
  } catch (const Error& e) {
    return {&typeid(e), e.what()};
  }
  return {nullptr, ""};
}

TEST(ErrorClasses, EveryClassMapsToTodaysStatusExitPythonClassAndMpiCode) {
  ASSERT_EQ(kErrorClasses.size(), expected_rows().size());
  for (const Expected& want : expected_rows()) {
    const ErrorClass& row = error_class(want.code);
    SCOPED_TRACE(std::string(want.name));
    EXPECT_EQ(row.code, want.code);
    EXPECT_EQ(row.name, want.name);
    EXPECT_EQ(to_string(want.code), want.name);
    EXPECT_EQ(row.class_name, want.class_name);
    EXPECT_EQ(row.python_base, want.python_base);
    EXPECT_EQ(static_cast<int>(row.c_status), want.c_status);
    EXPECT_EQ(row.cli_exit, want.cli_exit);
    EXPECT_EQ(row.mpi_code, want.mpi_code);
    EXPECT_FALSE(row.summary.empty());
  }
}

TEST(ErrorClasses, TheCStatusesAreTheHeadersConstants) {
  EXPECT_EQ(error_class(ErrorCode::kInvalidArgument).c_status, TB_INVALID_ARGUMENT);
  EXPECT_EQ(error_class(ErrorCode::kOutOfRange).c_status, TB_OUT_OF_RANGE);
  EXPECT_EQ(error_class(ErrorCode::kUnavailable).c_status, TB_UNAVAILABLE);
  EXPECT_EQ(error_class(ErrorCode::kResourceExhausted).c_status, TB_RESOURCE_EXHAUSTED);
  EXPECT_EQ(error_class(ErrorCode::kInternal).c_status, TB_INTERNAL);
  for (const ErrorClass& row : kErrorClasses) EXPECT_NE(row.c_status, TB_OK);
}

TEST(ErrorClasses, RaiseThrowsTheClassWithTheMessage) {
  for (const Expected& want : expected_rows()) {
    SCOPED_TRACE(std::string(want.name));
    const auto [type, message] = thrown_by([&] { error_class(want.code).raise("m1"); });
    ASSERT_NE(type, nullptr);
    EXPECT_TRUE(*type == want.type) << type->name();
    EXPECT_EQ(message, "m1");
    const auto [type2, message2] = thrown_by([&] { throw_error(want.code, "m2"); });
    ASSERT_NE(type2, nullptr);
    EXPECT_TRUE(*type2 == want.type) << type2->name();
    EXPECT_EQ(message2, "m2");
  }
}

TEST(ErrorClasses, AnUnknownCodeIsInternal) {
  const auto unknown = static_cast<ErrorCode>(42);
  EXPECT_EQ(error_class(unknown).code, ErrorCode::kInternal);
  EXPECT_EQ(to_string(unknown), "Unknown");
  const auto [type, message] = thrown_by([&] { throw_error(unknown, "m"); });
  ASSERT_NE(type, nullptr);
  EXPECT_TRUE(*type == typeid(InternalError)) << type->name();
  EXPECT_EQ(error_class_of_mpi_code(-1).code, ErrorCode::kInternal);
  EXPECT_EQ(error_class_of_mpi_code(99).code, ErrorCode::kInternal);
}

TEST(ErrorClasses, MpiCodesRoundTrip) {
  for (const ErrorClass& row : kErrorClasses) {
    EXPECT_EQ(error_class_of_mpi_code(row.mpi_code).code, row.code) << row.name;
  }
}

TEST(ErrorClasses, AnyExceptionHasAClass) {
  EXPECT_EQ(error_code_of(InvalidArgumentError("x")), ErrorCode::kInvalidArgument);
  EXPECT_EQ(error_code_of(OutOfRangeError("x")), ErrorCode::kOutOfRange);
  EXPECT_EQ(error_code_of(UnavailableError("x")), ErrorCode::kUnavailable);
  EXPECT_EQ(error_code_of(ResourceExhaustedError("x")), ErrorCode::kResourceExhausted);
  EXPECT_EQ(error_code_of(InternalError("x")), ErrorCode::kInternal);
  EXPECT_EQ(error_code_of(Error(ErrorCode::kOutOfRange, "x")), ErrorCode::kOutOfRange);
  EXPECT_EQ(error_code_of(std::bad_alloc()), ErrorCode::kResourceExhausted);
  EXPECT_EQ(error_code_of(std::logic_error("x")), ErrorCode::kInternal);
  EXPECT_EQ(error_code_of(std::runtime_error("x")), ErrorCode::kInternal);
}

}  // namespace
}  // namespace tensorbuf
