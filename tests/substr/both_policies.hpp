// Google Test check of substr under both out-of-bounds policies against reference values (kept
// apart from substr/reference.hpp so the fuzzers, which do not link Google Test, can use that one).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "substr/reference.hpp"
#include "tensorbuf/tensorbuf.hpp"

namespace tensorbuf::testing {

// substr(in, pos, len) on `device` under both policies against a reference: kDrop gives `shape`
// and `values`; kError gives the same values when first_bad < 0, else an InvalidArgumentError
// naming element first_bad. Call it inside ASSERT_NO_FATAL_FAILURE.
inline void expect_substr_both_policies(const StringTensor& in, const TensorBuffer& pos,
                                        const TensorBuffer& len, Device device, bool utf8,
                                        const Shape& shape, const Strings& values,
                                        std::int64_t first_bad) {
  SubstrOptions options{.device = device,
                        .unit = utf8 ? SubstrUnit::kUtf8Char : SubstrUnit::kByte,
                        .out_of_bounds = OutOfBoundsPolicy::kDrop};
  const StringTensor dropped = substr(in, pos, len, options);
  ASSERT_EQ(dropped.shape(), shape);
  ASSERT_EQ(dropped.to_strings(), values);
  options.out_of_bounds = OutOfBoundsPolicy::kError;
  if (first_bad < 0) {
    ASSERT_EQ(substr(in, pos, len, options).to_strings(), values);
    return;
  }
  try {
    substr(in, pos, len, options);
    FAIL() << "expected an out-of-range error at index " << first_bad;
  } catch (const InvalidArgumentError& e) {
    ASSERT_TRUE(names_element(e.what(), first_bad)) << e.what();
  }
}

}  // namespace tensorbuf::testing
