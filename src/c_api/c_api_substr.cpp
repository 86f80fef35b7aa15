// The C API of substr: the string tensor comes as its two buffers (offsets, chars) and its
// shape, and the result goes out the same way; the C++ op validates (on failure nothing is
// written).
#include <utility>

#include "c_api/c_api_internal.hpp"
#include "core/buffer_access.hpp"
#include "core/error_macros.hpp"
#include "core/string_tensor_access.hpp"
#include "tensorbuf/ops.hpp"

namespace tensorbuf::c_api {
namespace {

SubstrOptions substr_options(const tb_substr_options* c) {
  SubstrOptions options;
  if (c == nullptr) return options;
  require_struct_size(c->struct_size, {offsetof(tb_substr_options, device)},
                      sizeof(tb_substr_options), "options");
  switch (raw_value(c->unit)) {
    case TB_UNIT_BYTE:
      options.unit = SubstrUnit::kByte;
      break;
    case TB_UNIT_UTF8_CHAR:
      options.unit = SubstrUnit::kUtf8Char;
      break;
    default:
      throw InvalidArgumentError(core::str_cat("unknown tb_substr_unit ", raw_value(c->unit)));
  }
  options.out_of_bounds = to_policy(raw_value(c->oob));
  take_stream_and_device(c, options);
  return options;
}

}  // namespace
}  // namespace tensorbuf::c_api

using namespace tensorbuf;
using namespace tensorbuf::c_api;

extern "C" {

tb_status tb_substr(const tb_buffer* offsets, const tb_buffer* chars, int ndim,
                    const int64_t* shape, const tb_buffer* pos, const tb_buffer* len,
                    const tb_substr_options* options, tb_buffer** out_offsets,
                    tb_buffer** out_chars, int* out_ndim, int64_t* out_shape) noexcept {
  return guarded(__func__, [&] {
    // Shared, not copied: from_buffers takes its buffers by value.
    TensorBuffer in_offsets = core::BufferAccess::share(*buffer_of(offsets, "offsets"));
    TensorBuffer in_chars = core::BufferAccess::share(*buffer_of(chars, "chars"));
    const std::shared_ptr<const TensorBuffer> p = buffer_of(pos, "pos");
    const std::shared_ptr<const TensorBuffer> l = buffer_of(len, "len");
    require(out_offsets, "out_offsets");
    require(out_chars, "out_chars");
    require(out_ndim, "out_ndim");
    require(out_shape, "out_shape");
    const StringTensor input = StringTensor::from_buffers(
        std::move(in_offsets), std::move(in_chars), to_shape(ndim, shape));
    StringTensor result = substr(input, *p, *l, substr_options(options));
    const Shape result_shape = result.shape();
    int rank = 0;
    std::int64_t dims[TB_MAX_NDIM];
    write_shape(result_shape, &rank, dims);  // OutOfRangeError before any output is written
    NewHandle offsets_handle;
    NewHandle chars_handle;
    auto [result_offsets, result_chars] = core::StringTensorAccess::take_buffers(std::move(result));
    offsets_handle.set(std::move(result_offsets));
    chars_handle.set(std::move(result_chars));
    for (int i = 0; i < rank; ++i) out_shape[i] = dims[i];
    *out_ndim = rank;
    *out_offsets = offsets_handle.publish();
    *out_chars = chars_handle.publish();
  });
}

}  // extern "C"
