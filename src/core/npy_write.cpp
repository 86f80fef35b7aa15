// Writing .npy data: to memory, and to files atomically (temporary file + rename).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstring>
#include <functional>
#include <string>

#include "core/error_macros.hpp"
#include "core/npy_header.hpp"
#include "tensorbuf/npy.hpp"

namespace tensorbuf {

namespace core::npy {

std::string numeric_descr(DataType type, const NpyWriteOptions& options) {
  const char order = options.big_endian ? '>' : '<';
  switch (type) {
    case DataType::kBool: return "|b1";
    case DataType::kUInt8: return "|u1";
    case DataType::kInt8: return "|i1";
    case DataType::kInt16: return std::string(1, order) + "i2";
    case DataType::kInt32: return std::string(1, order) + "i4";
    case DataType::kInt64: return std::string(1, order) + "i8";
    case DataType::kFloat16: return std::string(1, order) + "f2";
    case DataType::kFloat32: return std::string(1, order) + "f4";
    case DataType::kFloat64: return std::string(1, order) + "f8";
    case DataType::kBFloat16:
      TENSORBUF_EXPECTS(options.bfloat16_as_uint16, InvalidArgumentError,
                        "npy: bfloat16 has no NumPy dtype; set "
                        "NpyWriteOptions::bfloat16_as_uint16 to write its bits as uint16");
      return std::string(1, order) + "u2";
  }
  throw InvalidArgumentError("npy: unknown DataType");
}

}  // namespace core::npy

namespace {

using core::str_cat;
using core::npy::numeric_descr;
using Sink = std::function<void(const void*, std::size_t)>;

constexpr std::size_t kStagingBytes = 1 << 20;

void write_numeric(const TensorBuffer& tensor, const NpyWriteOptions& options, const Sink& sink) {
  const std::string header =
      core::npy::format_header(numeric_descr(tensor.data_type(), options), tensor.shape().dims(),
                               options.format_version);
  sink(header.data(), header.size());
  const std::size_t total = tensor.size_bytes();
  if (total == 0) return;
  const auto* data = static_cast<const unsigned char*>(tensor.host_bytes());
  const std::size_t item = tensor.type_size();
  const bool swap =
      item > 1 && options.big_endian != (std::endian::native == std::endian::big);
  const bool normalize = tensor.data_type() == DataType::kBool;
  if (!swap && !normalize) {
    sink(data, total);
    return;
  }
  std::vector<unsigned char> staging(std::min(total, kStagingBytes));
  for (std::size_t done = 0; done < total;) {
    const std::size_t n = std::min(staging.size(), total - done);  // a multiple of item
    std::memcpy(staging.data(), data + done, n);
    if (normalize) {
      for (std::size_t i = 0; i < n; ++i) staging[i] = staging[i] != 0 ? 1 : 0;
    }
    if (swap) {
      for (std::size_t e = 0; e < n; e += item) std::reverse(&staging[e], &staging[e] + item);
    }
    sink(staging.data(), n);
    done += n;
  }
}

void write_strings(const StringTensor& strings, const NpyWriteOptions& options, const Sink& sink) {
  const std::int64_t n = strings.size();
  const auto* off = static_cast<const std::int64_t*>(strings.offsets().host_bytes());
  const auto* chars = static_cast<const char*>(strings.chars().host_bytes());
  std::int64_t width = 1;  // NumPy's S dtype has at least one byte
  for (std::int64_t i = 0; i < n; ++i) width = std::max(width, off[i + 1] - off[i]);
  const std::string header = core::npy::format_header(
      "|S" + std::to_string(width), strings.shape().dims(), options.format_version);
  sink(header.data(), header.size());
  std::vector<char> staging;
  const std::size_t item = static_cast<std::size_t>(width);
  const std::size_t per_chunk = std::max<std::size_t>(1, kStagingBytes / item);
  for (std::int64_t begin = 0; begin < n;) {
    const std::int64_t end =
        std::min<std::int64_t>(n, begin + static_cast<std::int64_t>(per_chunk));
    staging.assign(static_cast<std::size_t>(end - begin) * item, '\0');
    for (std::int64_t i = begin; i < end; ++i) {
      const auto len = static_cast<std::size_t>(off[i + 1] - off[i]);
      if (len != 0)
        std::memcpy(&staging[static_cast<std::size_t>(i - begin) * item], chars + off[i], len);
    }
    sink(staging.data(), staging.size());
    begin = end;
  }
}

[[noreturn]] void raise_io(const std::string& what, int err) {
  const std::string message = str_cat("npy: ", what, ": ", std::strerror(err));
  if (err == ENOSPC || err == EDQUOT) throw ResourceExhaustedError(message);
  throw InternalError(message);
}

// Writes through `write` into a fresh temporary file next to `path`, then renames it over
// `path`. On any error the temporary file is removed and `path` is untouched.
void save_atomically(const std::filesystem::path& path,
                     const std::function<void(const Sink&)>& write) {
  static std::atomic<unsigned> counter{0};
  const std::string name = path.string();
  std::string temp;
  int fd = -1;
  for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
    temp = str_cat(name, ".tmp.", ::getpid(), ".", counter++);
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    const int err = errno;
    if (err == ENOSPC || err == EDQUOT) raise_io(str_cat("cannot create '", name, "'"), err);
    throw InvalidArgumentError(str_cat("npy: cannot create '", name, "': ", std::strerror(err)));
  }
  try {
    write([&](const void* data, std::size_t size) {
      const auto* p = static_cast<const char*>(data);
      while (size > 0) {
        const ssize_t w = ::write(fd, p, size);
        if (w < 0) {
          if (errno == EINTR) continue;
          raise_io(str_cat("cannot write '", name, "'"), errno);
        }
        p += w;
        size -= static_cast<std::size_t>(w);
      }
    });
    if (::close(fd) != 0) {
      fd = -1;
      raise_io(str_cat("cannot write '", name, "'"), errno);
    }
    fd = -1;
    if (std::rename(temp.c_str(), name.c_str()) != 0) {
      throw InvalidArgumentError(
          str_cat("npy: cannot create '", name, "': ", std::strerror(errno)));
    }
  } catch (...) {
    if (fd >= 0) ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
}

std::vector<std::byte> to_bytes(const std::function<void(const Sink&)>& write) {
  std::vector<std::byte> out;
  write([&](const void* data, std::size_t size) {
    const auto* p = static_cast<const std::byte*>(data);
    out.insert(out.end(), p, p + size);
  });
  return out;
}

}  // namespace

std::vector<std::byte> serialize_npy(const TensorBuffer& tensor, const NpyWriteOptions& options) {
  return to_bytes([&](const Sink& sink) { write_numeric(tensor, options, sink); });
}

std::vector<std::byte> serialize_npy(const StringTensor& strings, const NpyWriteOptions& options) {
  return to_bytes([&](const Sink& sink) { write_strings(strings, options, sink); });
}

void save_npy(const std::filesystem::path& path, const TensorBuffer& tensor,
              const NpyWriteOptions& options) {
  numeric_descr(tensor.data_type(), options);  // option errors before any file is created
  core::npy::format_header("", {}, options.format_version);
  save_atomically(path, [&](const Sink& sink) { write_numeric(tensor, options, sink); });
}

void save_npy(const std::filesystem::path& path, const StringTensor& strings,
              const NpyWriteOptions& options) {
  core::npy::format_header("", {}, options.format_version);
  save_atomically(path, [&](const Sink& sink) { write_strings(strings, options, sink); });
}

}  // namespace tensorbuf
