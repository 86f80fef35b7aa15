// The .npy preamble and header: parsing (strict, bounded, never trusting a size it has not
// checked against the bytes present) and formatting. docs/npy.md has the decisions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/export_for_mpi.hpp"
#include "tensorbuf/npy.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::core::npy {

inline constexpr std::size_t kMagicSize = 6;  // "\x93NUMPY"
inline constexpr std::size_t kAlignment = 64;  // NumPy pads the header to this

// Magic, version and header length. `available` is the file's total size in bytes.
struct Preamble {
  int major = 0;
  int minor = 0;
  std::size_t size = 0;         // 10 (version 1) or 12 (versions 2 and 3)
  std::uint64_t header_size = 0;
};

// Needs the first min(12, available) bytes of the file. InvalidArgumentError for a bad magic
// string, an unknown version, or a header longer than the bytes that follow.
TENSORBUF_INTERNAL_FOR_MPI Preamble parse_preamble(std::span<const std::byte> first_bytes,
                                                   std::uint64_t available);

struct Header {
  bool is_string = false;       // an `S<n>` array (StringTensor)
  DataType type = DataType::kUInt8;  // numeric arrays
  std::size_t item_size = 0;    // bytes per element (n for S<n>)
  bool byte_swap = false;       // stored in the other byte order than this machine's
  std::string descr;
  std::vector<std::int64_t> dims;
  std::int64_t count = 0;       // elements
  std::uint64_t data_offset = 0;
  std::uint64_t data_size = 0;  // count * item_size, checked against the bytes present
};

// Parses the header text (the `header_size` bytes after the preamble) and checks the data it
// describes fits in `available` bytes of file. InvalidArgumentError says what is wrong.
TENSORBUF_INTERNAL_FOR_MPI Header parse_header(std::string_view text, const Preamble& preamble,
                                               std::uint64_t available,
                                               const NpyReadOptions& options);

// NumPy's dtype string of a numeric buffer written with `options` ("<f4", "|b1", ...).
// InvalidArgumentError for bfloat16 without bfloat16_as_uint16.
TENSORBUF_INTERNAL_FOR_MPI std::string numeric_descr(DataType type, const NpyWriteOptions& options);

// The preamble + padded header for an array of `descr` and `dims`; `version` 0 picks 1 (or 2
// when the header does not fit in 65535 bytes).
TENSORBUF_INTERNAL_FOR_MPI std::string format_header(std::string_view descr,
                                                     const std::vector<std::int64_t>& dims,
                                                     int version);

}  // namespace tensorbuf::core::npy
