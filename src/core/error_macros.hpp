// The one family of checks that raise tensorbuf errors (RMM's RMM_EXPECTS, ours).
#pragma once

#include <sstream>
#include <string>

#include "tensorbuf/errors.hpp"

// Throws tensorbuf::ErrorClass(message) unless `condition` holds. `message` is evaluated only
// on failure, so it may build a string.
#define TENSORBUF_EXPECTS(condition, ErrorClass, message) \
  do {                                                    \
    if (!(condition)) throw ::tensorbuf::ErrorClass(message); \
  } while (0)

namespace tensorbuf::core {

// Streams the arguments into one string: str_cat("got ", 3, " dims").
template <class... Args>
std::string str_cat(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

}  // namespace tensorbuf::core
