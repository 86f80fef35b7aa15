// Reading .npy data from memory and from files. Every size taken from a header is checked
// against the bytes actually present before anything is allocated (core/npy_header.cpp).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>

#include "core/error_macros.hpp"
#include "core/npy_header.hpp"
#include "tensorbuf/npy.hpp"

namespace tensorbuf {
namespace {

using core::str_cat;
using core::npy::Header;
using core::npy::Preamble;

// Reads `size` bytes at `offset` of the input into `dst`.
class Source {
 public:
  virtual ~Source() = default;
  virtual std::uint64_t size() const = 0;
  virtual void read(std::uint64_t offset, void* dst, std::size_t size) = 0;
};

class SpanSource final : public Source {
 public:
  explicit SpanSource(std::span<const std::byte> bytes) : bytes_(bytes) {}
  std::uint64_t size() const override { return bytes_.size(); }
  void read(std::uint64_t offset, void* dst, std::size_t size) override {
    if (size != 0) std::memcpy(dst, bytes_.data() + offset, size);
  }

 private:
  std::span<const std::byte> bytes_;
};

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

class FileSource final : public Source {
 public:
  FileSource(std::FILE* file, std::uint64_t size, std::string name)
      : file_(file), size_(size), name_(std::move(name)) {}
  std::uint64_t size() const override { return size_; }
  void read(std::uint64_t offset, void* dst, std::size_t size) override {
    if (size == 0) return;
    TENSORBUF_EXPECTS(std::fseek(file_, static_cast<long>(offset), SEEK_SET) == 0,
                      InvalidArgumentError,
                      str_cat("npy: cannot seek in '", name_, "': ", std::strerror(errno)));
    const std::size_t got = std::fread(dst, 1, size, file_);
    TENSORBUF_EXPECTS(got == size, InvalidArgumentError,
                      str_cat("npy: cannot read '", name_, "': ",
                              std::ferror(file_) ? std::strerror(errno)
                                                 : "the file got shorter while reading"));
  }

 private:
  std::FILE* file_;
  std::uint64_t size_;
  std::string name_;
};

void byte_swap(void* data, std::size_t item_size, std::int64_t count) {
  auto* bytes = static_cast<unsigned char*>(data);
  for (std::int64_t i = 0; i < count; ++i) {
    unsigned char* e = bytes + static_cast<std::size_t>(i) * item_size;
    for (std::size_t a = 0, b = item_size - 1; a < b; ++a, --b) std::swap(e[a], e[b]);
  }
}

Header read_header(Source& source, const NpyReadOptions& options) {
  const std::uint64_t available = source.size();
  std::byte first[12] = {};
  const auto first_size = static_cast<std::size_t>(std::min<std::uint64_t>(available, 12));
  source.read(0, first, first_size);
  const Preamble preamble =
      core::npy::parse_preamble(std::span<const std::byte>(first, first_size), available);
  // header_size <= available - preamble.size was checked: this allocation is backed by bytes.
  std::string text(static_cast<std::size_t>(preamble.header_size), '\0');
  source.read(preamble.size, text.data(), text.size());
  return core::npy::parse_header(text, preamble, available, options);
}

TensorBuffer read_numeric(Source& source, const Header& h) {
  TensorBuffer out = TensorBuffer::create_uninitialized(Shape(h.dims), h.type);
  if (h.count == 0) {
    out.overwrite_host_bytes();
    return out;
  }
  void* data = out.overwrite_host_bytes();
  source.read(h.data_offset, data, static_cast<std::size_t>(h.data_size));
  if (h.byte_swap) byte_swap(data, h.item_size, h.count);
  if (h.type == DataType::kBool) {
    auto* bytes = static_cast<std::uint8_t*>(data);
    for (std::int64_t i = 0; i < h.count; ++i) bytes[i] = bytes[i] != 0 ? 1 : 0;
  }
  return out;
}

StringTensor read_strings(Source& source, const Header& h) {
  // data_size <= the bytes present (checked), and count <= data_size: the offsets are bounded
  // by the file too.
  std::vector<char> raw(static_cast<std::size_t>(h.data_size));
  source.read(h.data_offset, raw.data(), raw.size());
  TensorBuffer offsets = TensorBuffer::create_uninitialized(Shape{h.count + 1}, DataType::kInt64);
  auto* off = static_cast<std::int64_t*>(offsets.overwrite_host_bytes());
  std::int64_t total = 0;
  off[0] = 0;
  for (std::int64_t i = 0; i < h.count; ++i) {
    const char* item = raw.data() + static_cast<std::size_t>(i) * h.item_size;
    std::size_t len = h.item_size;
    while (len > 0 && item[len - 1] == '\0') --len;  // NumPy strips trailing NULs
    total += static_cast<std::int64_t>(len);
    off[i + 1] = total;
  }
  TensorBuffer chars = TensorBuffer::create_uninitialized(Shape{total}, DataType::kUInt8);
  auto* dst = static_cast<char*>(chars.overwrite_host_bytes());
  for (std::int64_t i = 0; i < h.count; ++i) {
    const std::size_t len = static_cast<std::size_t>(off[i + 1] - off[i]);
    if (len != 0)
      std::memcpy(dst + off[i], raw.data() + static_cast<std::size_t>(i) * h.item_size, len);
  }
  return StringTensor::from_buffers(std::move(offsets), std::move(chars), Shape(h.dims));
}

NpyArray read_array(Source& source, const NpyReadOptions& options) {
  const Header h = read_header(source, options);
  if (h.is_string) return NpyArray(read_strings(source, h));
  return NpyArray(read_numeric(source, h));
}

template <class F>
auto with_file(const std::filesystem::path& path, F&& body) {
  const std::string name = path.string();
  std::error_code ec;
  TENSORBUF_EXPECTS(!std::filesystem::is_directory(path, ec), InvalidArgumentError,
                    str_cat("npy: cannot read '", name, "': it is a directory"));
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(name.c_str(), "rb"));
  TENSORBUF_EXPECTS(file != nullptr, InvalidArgumentError,
                    str_cat("npy: cannot open '", name, "': ", std::strerror(errno)));
  const bool regular = std::filesystem::is_regular_file(path, ec);
  if (regular) {
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    TENSORBUF_EXPECTS(!ec, InvalidArgumentError,
                      str_cat("npy: cannot read the size of '", name, "': ", ec.message()));
    FileSource source(file.get(), size, name);
    return body(source);
  }
  // A pipe or device: read what is there (the allocation follows the bytes that arrive).
  std::vector<std::byte> bytes;
  std::byte chunk[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(chunk, 1, sizeof chunk, file.get())) > 0) {
    bytes.insert(bytes.end(), chunk, chunk + got);
  }
  TENSORBUF_EXPECTS(!std::ferror(file.get()), InvalidArgumentError,
                    str_cat("npy: cannot read '", name, "': ", std::strerror(errno)));
  SpanSource source(bytes);
  return body(source);
}

std::string describe(const NpyArray& array) {
  if (const auto* t = std::get_if<TensorBuffer>(&array)) {
    return str_cat("an array of ", to_string(t->data_type()));
  }
  return "a byte-string (S) array";
}

TensorBuffer require_tensor(NpyArray array) {
  TENSORBUF_EXPECTS(std::holds_alternative<TensorBuffer>(array), InvalidArgumentError,
                    str_cat("npy: expected a numeric array, got ", describe(array)));
  return std::get<TensorBuffer>(std::move(array));
}

StringTensor require_strings(NpyArray array) {
  TENSORBUF_EXPECTS(std::holds_alternative<StringTensor>(array), InvalidArgumentError,
                    str_cat("npy: expected a byte-string (S) array, got ", describe(array)));
  return std::get<StringTensor>(std::move(array));
}

}  // namespace

NpyArray parse_npy(std::span<const std::byte> bytes, const NpyReadOptions& options) {
  SpanSource source(bytes);
  return read_array(source, options);
}

NpyArray load_npy(const std::filesystem::path& path, const NpyReadOptions& options) {
  return with_file(path, [&](Source& source) { return read_array(source, options); });
}

TensorBuffer parse_npy_tensor(std::span<const std::byte> bytes, const NpyReadOptions& options) {
  return require_tensor(parse_npy(bytes, options));
}

TensorBuffer load_npy_tensor(const std::filesystem::path& path, const NpyReadOptions& options) {
  return require_tensor(load_npy(path, options));
}

StringTensor parse_npy_strings(std::span<const std::byte> bytes) {
  return require_strings(parse_npy(bytes));
}

StringTensor load_npy_strings(const std::filesystem::path& path) {
  return require_strings(load_npy(path));
}

}  // namespace tensorbuf
