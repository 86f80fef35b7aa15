// tensorbuf: typed host/device buffers with lazy sync, and tensor operations on CPU and CUDA.
// This header is self-contained and includes the whole public API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tensorbuf/errors.hpp"
#include "tensorbuf/half.hpp"
#include "tensorbuf/npy.hpp"
#include "tensorbuf/op_table.hpp"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/runtime.hpp"
#include "tensorbuf/spellings.hpp"
#include "tensorbuf/stats.hpp"
#include "tensorbuf/string_tensor.hpp"
#include "tensorbuf/tensor_buffer.hpp"
#include "tensorbuf/types.hpp"
#include "tensorbuf/version.hpp"
