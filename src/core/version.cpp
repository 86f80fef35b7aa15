#include "core/backend.hpp"
#include "tensorbuf/version.hpp"

namespace tensorbuf {

std::string_view build_description() {
  static const std::string description =
      std::string(TENSORBUF_BUILD_TYPE) + ", " + cuda::build_info();
  return description;
}

}  // namespace tensorbuf
