// NumPy .npy files: reading into TensorBuffer / StringTensor and writing them back.
// Decisions and the exact list of accepted dtypes: docs/npy.md.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>
#include <variant>
#include <vector>

#include "tensorbuf/export.h"
#include "tensorbuf/string_tensor.hpp"
#include "tensorbuf/tensor_buffer.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf {

/// Options for reading .npy data.
struct NpyReadOptions {
  /// Read an unsigned 16-bit array (`<u2`, `>u2`) as bfloat16 bits. bfloat16 has no NumPy
  /// dtype code, so a `u2` array is otherwise rejected (tensorbuf has no uint16): its meaning
  /// is never guessed.
  bool uint16_as_bfloat16 = false;
};

/// Options for writing .npy data.
struct NpyWriteOptions {
  /// Write a bfloat16 buffer as its bits with dtype `<u2`. Without it, writing bfloat16 raises
  /// InvalidArgumentError (NumPy has no bfloat16).
  bool bfloat16_as_uint16 = false;
  /// Write the data big-endian (`>f4`, ...) instead of little-endian.
  bool big_endian = false;
  /// Format version 1, 2 or 3; 0 picks the oldest that can hold the header (1.0, or 2.0 for a
  /// header over 65535 bytes), as NumPy does.
  int format_version = 0;
};

/// The contents of a .npy file: a numeric tensor, or a StringTensor for a byte-string (`S`)
/// array.
using NpyArray = std::variant<TensorBuffer, StringTensor>;

/// Parses a whole .npy file held in memory: format 1.0, 2.0 or 3.0, little- or big-endian
/// (converted to native order), C order. dtypes: `b1` bool, `u1` uint8, `i1` int8, `i2`
/// int16, `i4` int32, `i8` int64, `f2` float16, `f4` float32, `f8` float64, `S<n>` byte
/// strings (trailing NUL bytes stripped, as NumPy does) and, with uint16_as_bfloat16, `u2`.
/// A 0-d array gives shape {} (a scalar). Bytes after the array data are ignored, as NumPy
/// does. The result owns its memory (nothing of `bytes` is referenced afterwards).
///
/// Throws InvalidArgumentError, saying what is wrong, for: a bad magic string or version, a
/// header that is not an ASCII Python dict literal with exactly the keys 'descr',
/// 'fortran_order' and 'shape' (unterminated, malformed, non-ASCII), Fortran order, object,
/// unicode, structured and other unsupported dtypes, negative dims or an element/byte count
/// overflowing int64, and data shorter than the header's shape says (truncated file). Memory
/// is allocated only after the data was found to be present, so no header can make it
/// allocate more than the input holds.
TENSORBUF_API NpyArray parse_npy(std::span<const std::byte> bytes,
                                 const NpyReadOptions& options = {});

/// Reads a .npy file (see parse_npy). Also InvalidArgumentError when the file cannot be opened
/// or read.
TENSORBUF_API NpyArray load_npy(const std::filesystem::path& path,
                                const NpyReadOptions& options = {});

/// As parse_npy / load_npy, but requires a numeric array (InvalidArgumentError for `S`).
TENSORBUF_API TensorBuffer parse_npy_tensor(std::span<const std::byte> bytes,
                                            const NpyReadOptions& options = {});
TENSORBUF_API TensorBuffer load_npy_tensor(const std::filesystem::path& path,
                                           const NpyReadOptions& options = {});

/// Options for mapping a .npy file.
struct NpyMapOptions {
  /// Map the file for writing: in-place ops and loads write the file itself (MAP_SHARED).
  bool writable = false;
  /// As NpyReadOptions::uint16_as_bfloat16.
  bool uint16_as_bfloat16 = false;
};

/// Memory-maps a numeric .npy file and borrows its data (TensorBuffer::borrow, docs/interop.md):
/// nothing is copied; read-only unless `writable`. The mapping lives until the buffer and every
/// DLPack export of it are gone. The data must be usable as it lies: InvalidArgumentError for a
/// file load_npy_tensor would have to convert (the other byte order, `S` strings), and every
/// error of load_npy_tensor. Bool bytes are not normalised (any nonzero byte reads as true).
TENSORBUF_API TensorBuffer map_npy_tensor(const std::filesystem::path& path,
                                          const NpyMapOptions& options = {});

/// As parse_npy / load_npy, but requires a byte-string (`S`) array (InvalidArgumentError
/// otherwise).
TENSORBUF_API StringTensor parse_npy_strings(std::span<const std::byte> bytes);
TENSORBUF_API StringTensor load_npy_strings(const std::filesystem::path& path);

/// The .npy bytes of `tensor` (its host copy; synced from the device if stale), C order. bool
/// is written as `|b1` with bytes 0/1. InvalidArgumentError for bfloat16 without
/// bfloat16_as_uint16 and for a format_version other than 0..3.
TENSORBUF_API std::vector<std::byte> serialize_npy(const TensorBuffer& tensor,
                                                   const NpyWriteOptions& options = {});
/// The .npy bytes of `strings` as dtype `S<n>`, n the longest string's length (at least 1,
/// as NumPy's `S` dtype). Strings ending in NUL bytes lose them on reading, as in NumPy.
TENSORBUF_API std::vector<std::byte> serialize_npy(const StringTensor& strings,
                                                   const NpyWriteOptions& options = {});

/// Writes `tensor` / `strings` to `path` (see serialize_npy). The file appears complete or not
/// at all: the data goes to a temporary file in the same directory, renamed over `path` at the
/// end. InvalidArgumentError when the file cannot be created (missing directory, no
/// permission) or the options are invalid; ResourceExhaustedError when the disk is full;
/// InternalError for another write failure. On error `path` is unchanged.
TENSORBUF_API void save_npy(const std::filesystem::path& path, const TensorBuffer& tensor,
                            const NpyWriteOptions& options = {});
TENSORBUF_API void save_npy(const std::filesystem::path& path, const StringTensor& strings,
                            const NpyWriteOptions& options = {});

}  // namespace tensorbuf
