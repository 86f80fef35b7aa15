// The message of the InvalidArgumentError a call throws, for tests that compare whole texts.
#pragma once

#include <string>

#include "tensorbuf/errors.hpp"

namespace tensorbuf::testing {

template <class F>
std::string invalid_argument_text(F&& f) {
  try {
    f();
  } catch (const InvalidArgumentError& e) {
    return e.what();
  }
  return "(no InvalidArgumentError)";
}

}  // namespace tensorbuf::testing
