// map_npy_tensor: a .npy file's data as a borrowed TensorBuffer over a shared memory mapping.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <utility>

#include "core/error_macros.hpp"
#include "core/npy_header.hpp"
#include "tensorbuf/npy.hpp"

namespace tensorbuf {
namespace {

// A mapping unmapped on scope exit unless handed over.
class Mapping {
 public:
  Mapping(void* base, std::size_t size) : base_(base), size_(size) {}
  ~Mapping() {
    if (base_ != nullptr) munmap(base_, size_);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  const std::byte* bytes() const { return static_cast<const std::byte*>(base_); }
  void* release() { return std::exchange(base_, nullptr); }

 private:
  void* base_;
  std::size_t size_;
};

std::string describe_errno(const std::filesystem::path& path, const char* what) {
  return core::str_cat(what, " ", path.string(), ": ", std::strerror(errno));
}

}  // namespace

TensorBuffer map_npy_tensor(const std::filesystem::path& path, const NpyMapOptions& options) {
  const int fd = ::open(path.c_str(), (options.writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
  TENSORBUF_EXPECTS(fd >= 0, InvalidArgumentError, describe_errno(path, "cannot open"));
  struct stat status {};
  const bool stat_ok = ::fstat(fd, &status) == 0;
  const auto size = static_cast<std::size_t>(status.st_size);
  void* base = stat_ok && size > 0 ? ::mmap(nullptr, size,
                                            PROT_READ | (options.writable ? PROT_WRITE : 0),
                                            MAP_SHARED, fd, 0)
                                   : MAP_FAILED;
  const int map_errno = errno;
  ::close(fd);  // the mapping keeps the file
  TENSORBUF_EXPECTS(stat_ok && size > 0, InvalidArgumentError,
                    core::str_cat(path.string(), ": empty or unreadable file, not a .npy file"));
  errno = map_errno;
  TENSORBUF_EXPECTS(base != MAP_FAILED, InvalidArgumentError, describe_errno(path, "cannot map"));
  Mapping mapping(base, size);

  NpyReadOptions read_options;
  read_options.uint16_as_bfloat16 = options.uint16_as_bfloat16;
  const core::npy::Preamble preamble = core::npy::parse_preamble(
      std::span<const std::byte>(mapping.bytes(), std::min<std::size_t>(size, 12)), size);
  const core::npy::Header header = core::npy::parse_header(
      std::string_view(reinterpret_cast<const char*>(mapping.bytes()) + preamble.size,
                       static_cast<std::size_t>(preamble.header_size)),
      preamble, size, read_options);
  TENSORBUF_EXPECTS(!header.is_string, InvalidArgumentError,
                    core::str_cat(path.string(), ": a byte-string array (", header.descr,
                                  ") cannot be mapped as a tensor; use load_npy_strings"));
  TENSORBUF_EXPECTS(!header.byte_swap, InvalidArgumentError,
                    core::str_cat(path.string(), ": dtype ", header.descr,
                                  " is in the other byte order; load_npy_tensor converts it"));
  BorrowOptions borrow;
  borrow.read_only = !options.writable;
  borrow.release = [base, size](Stream) { munmap(base, size); };
  void* data = static_cast<std::byte*>(base) + header.data_offset;
  TensorBuffer tensor =
      TensorBuffer::borrow(data, Shape(header.dims), header.type, Device::cpu(), std::move(borrow));
  mapping.release();  // the buffer's release unmaps it now
  return tensor;
}

}  // namespace tensorbuf
