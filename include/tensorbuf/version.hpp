// Library version.
#pragma once

#include <string_view>

#include "tensorbuf/export.h"

namespace tensorbuf {

inline constexpr std::string_view kVersion = "0.1.0";

/// "Release, CUDA 13.0 (sm_90)", "Debug, without CUDA": how this library was built.
TENSORBUF_API std::string_view build_description();

}  // namespace tensorbuf
