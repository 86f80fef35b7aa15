// save_npy / load_npy of a ShardedTensor through MPI-IO: no rank ever holds more than its own
// rows. The file equals the single-process save_npy's byte for byte (same header, rows in
// order); it is written under a temporary name and renamed by rank 0 once every rank's write
// succeeded, so it appears complete or not at all, as in the single-process save_npy.
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <span>

#include "core/error_macros.hpp"
#include "core/npy_header.hpp"
#include "mpi/mpi_file.hpp"
#include "mpi/validate.hpp"
#include "tensorbuf/npy.hpp"

namespace tensorbuf::dist {
namespace {

std::size_t row_bytes_of(const Shape& shape, DataType dtype) {
  std::int64_t elems = 1;
  for (int i = 1; i < shape.rank(); ++i) elems *= shape[i];
  return static_cast<std::size_t>(elems) * type_size(dtype);
}

// A name next to `path` that no other save of this job uses.
std::string temporary_name(const Comm& comm, const std::string& path) {
  static int counter = 0;
  std::int64_t id[2] = {static_cast<std::int64_t>(::getpid()), counter++};
  MPI_Bcast(id, 2, MPI_INT64_T, 0, comm.get());
  return core::str_cat(path, ".tmp.mpi.", id[0], ".", id[1]);
}

// Collective: writes `header` (rank 0) and this rank's `bytes` at byte `at` of the data, into
// a temporary file renamed over `path` once every rank's write succeeded.
void write_sharded(const Comm& comm, const std::string& path, const std::string& header,
                   std::uint64_t at, const void* bytes, std::size_t size) {
  constexpr std::string_view kWho = "save_npy";
  const std::string temp = temporary_name(comm, path);
  try {
    detail::MpiFile file(comm, temp, MPI_MODE_CREATE | MPI_MODE_WRONLY, kWho, path);
    if (comm.rank() == 0) file.write_at(0, header.data(), header.size());
    if (size != 0) file.write_at(header.size() + at, bytes, size);
    file.agree_io();
    file.close();
  } catch (...) {
    if (comm.rank() == 0) MPI_File_delete(temp.c_str(), MPI_INFO_NULL);
    throw;
  }
  std::optional<detail::Failure> failure;
  if (comm.rank() == 0 && std::rename(temp.c_str(), path.c_str()) != 0) {
    failure = detail::Failure{
        ErrorCode::kInvalidArgument,
        core::str_cat(kWho, ": cannot create '", path, "': ", std::strerror(errno))};
    std::remove(temp.c_str());
  }
  detail::raise_if_any(comm, failure);
}

// Every rank's shard of `local` (described by `mine`) checked against `layout`.
void check_all_shards(const Comm& comm, const RowLayout& layout, const detail::BufferDesc& mine) {
  detail::Record record;
  record.add(mine);
  std::vector<detail::BufferDesc> shards;
  for (const auto& words : detail::allgather(comm, record.words())) {
    shards.push_back(detail::RecordReader(words).next_desc());
  }
  detail::check_shards("save_npy", layout, shards);
}

}  // namespace

void save_npy(const std::string& path, const ShardedTensor& tensor) {
  static_assert(std::endian::native == std::endian::little, "writes little-endian data as is");
  const Comm& comm = tensor.comm();
  check_all_shards(comm, tensor.layout(), detail::describe(tensor.local()));
  const Shape shape = tensor.global_shape();
  const DataType dtype = tensor.local().data_type();
  const std::string header =
      core::npy::format_header(core::npy::numeric_descr(dtype, {}), shape.dims(), 0);
  const TensorBuffer& local = tensor.local();
  const void* data = nullptr;
  std::vector<std::uint8_t> normalized;
  detail::agree(comm, [&] {
    if (local.size_bytes() == 0) return;
    data = local.host_bytes();       // staged if on the device
    if (dtype == DataType::kBool) {  // NumPy's b1 is 0 or 1
      const auto* bytes = static_cast<const std::uint8_t*>(data);
      normalized.assign(bytes, bytes + local.size_bytes());
      for (std::uint8_t& b : normalized) b = b != 0 ? 1 : 0;
      data = normalized.data();
    }
  });
  const std::uint64_t at =
      static_cast<std::uint64_t>(tensor.layout().offsets[comm.rank()]) * row_bytes_of(shape, dtype);
  write_sharded(comm, path, header, at, data, local.size_bytes());
}

void save_npy(const std::string& path, const ShardedStrings& strings) {
  const Comm& comm = strings.comm();
  const StringTensor& local = strings.local();
  check_all_shards(
      comm, strings.layout(),
      detail::BufferDesc{DataType::kUInt8, local.shape().dims(), local.residence().kind});
  // NumPy's S<n>: n the global longest item, at least 1; items NUL-padded.
  std::int64_t longest = 1;
  detail::agree(comm, [&] {
    for (std::int64_t i = 0; i < local.size(); ++i) {
      longest = std::max<std::int64_t>(longest, static_cast<std::int64_t>(local.at(i).size()));
    }
  });
  const std::int64_t width = detail::allreduce_max(comm, longest);
  const Shape shape = strings.global_shape();
  const std::string header =
      core::npy::format_header("|S" + std::to_string(width), shape.dims(), 0);
  std::vector<char> items;
  detail::agree(comm, [&] {
    items.assign(static_cast<std::size_t>(local.size() * width), '\0');
    for (std::int64_t i = 0; i < local.size(); ++i) {
      const std::string_view item = local.at(i);
      if (!item.empty()) {
        std::memcpy(&items[static_cast<std::size_t>(i * width)], item.data(), item.size());
      }
    }
  });
  const std::int64_t row_items =
      shape.dims().empty() || shape[0] == 0 ? 0 : shape.num_elements() / shape[0];
  const std::uint64_t at =
      static_cast<std::uint64_t>(strings.layout().offsets[comm.rank()] * row_items * width);
  write_sharded(comm, path, header, at, items.data(), items.size());
}

namespace {

// Collective: the header of an open .npy file, read and parsed on every rank (the same bytes,
// so the same error if any); `strings` says which kind of array the caller wants.
core::npy::Header read_header(detail::MpiFile& file, const Comm& comm, const std::string& path,
                              std::string_view who, bool strings) {
  const std::uint64_t size = file.size();
  std::vector<std::byte> first(static_cast<std::size_t>(std::min<std::uint64_t>(12, size)));
  file.read_at(0, first.data(), first.size());
  file.agree_io();
  core::npy::Preamble preamble;
  std::string text;
  detail::agree(comm, [&] {
    preamble = core::npy::parse_preamble(first, size);
    text.resize(static_cast<std::size_t>(preamble.header_size));
    file.read_at(preamble.size, text.data(), text.size());
  });
  file.agree_io();
  core::npy::Header header;
  detail::agree(comm, [&] {
    header = core::npy::parse_header(text, preamble, size, {});
    TENSORBUF_EXPECTS(
        header.is_string == strings, InvalidArgumentError,
        core::str_cat(who, ": '", path, "' holds ",
                      header.is_string ? "byte strings" : "a numeric array", " (dtype ",
                      header.descr, "), not ", strings ? "byte strings" : "a numeric array"));
    TENSORBUF_EXPECTS(
        !header.dims.empty(), InvalidArgumentError,
        core::str_cat(who, ": '", path, "' holds a 0-d array; a sharded tensor needs rank >= 1"));
  });
  return header;
}

// An open .npy file's header, and this rank's block of rows (dims[0] = its row count).
struct Block {
  core::npy::Header header;
  RowLayout layout;
  std::vector<std::int64_t> dims;
};

Block open_block(detail::MpiFile& file, const Comm& comm, const std::string& path,
                 std::string_view who, bool strings) {
  Block block;
  block.header = read_header(file, comm, path, who, strings);
  block.layout = RowLayout::block(block.header.dims[0], comm.size());
  block.dims = block.header.dims;
  block.dims[0] = block.layout.rows_of(comm.rank());
  return block;
}

// This rank's rows of the array's data (block layout), read into `bytes`.
void read_rows(detail::MpiFile& file, const core::npy::Header& header, const RowLayout& layout,
               int rank, void* bytes, std::size_t size) {
  const std::uint64_t row = header.dims[0] == 0 ? 0 : header.data_size / header.dims[0];
  file.read_at(header.data_offset + static_cast<std::uint64_t>(layout.offsets[rank]) * row, bytes,
               size);
}

}  // namespace

ShardedTensor load_npy(const Comm& comm, const std::string& path) {
  constexpr std::string_view kWho = "load_npy";
  detail::MpiFile file(comm, path, MPI_MODE_RDONLY, kWho, path);
  // Named references, not structured bindings: lambdas capture them (clang 14 cannot capture
  // a structured binding, a C++20 addition).
  const Block block = open_block(file, comm, path, kWho, false);
  const core::npy::Header& header = block.header;
  const RowLayout& layout = block.layout;
  const std::vector<std::int64_t>& dims = block.dims;
  TensorBuffer local = TensorBuffer::create_dynamic(header.type);
  detail::agree(comm, [&] {
    local = TensorBuffer::create_fixed_size(Shape(dims), header.type);
    if (local.size_bytes() == 0) return;
    auto* bytes = static_cast<unsigned char*>(local.overwrite_host_bytes());
    read_rows(file, header, layout, comm.rank(), bytes, local.size_bytes());
    if (header.byte_swap) {
      for (std::size_t e = 0; e < local.size_bytes(); e += header.item_size) {
        std::reverse(bytes + e, bytes + e + header.item_size);
      }
    }
  });
  file.agree_io();
  file.close();
  return ShardedTensor(comm, layout, std::move(local));
}

ShardedStrings load_npy_strings(const Comm& comm, const std::string& path) {
  constexpr std::string_view kWho = "load_npy_strings";
  detail::MpiFile file(comm, path, MPI_MODE_RDONLY, kWho, path);
  const Block block = open_block(file, comm, path, kWho, true);  // not bound: see load_npy
  const core::npy::Header& header = block.header;
  const RowLayout& layout = block.layout;
  const std::vector<std::int64_t>& dims = block.dims;
  // This rank's rows as a .npy of their own, parsed by the single-process reader (the same
  // rules for NUL padding).
  std::string local_file;
  detail::agree(comm, [&] {
    local_file = core::npy::format_header(header.descr, dims, 0);
    const std::size_t at = local_file.size();
    const std::size_t size =
        static_cast<std::size_t>(Shape(dims).num_elements()) * header.item_size;
    local_file.resize(at + size);
    read_rows(file, header, layout, comm.rank(), local_file.data() + at, size);
  });
  file.agree_io();
  file.close();
  StringTensor local;
  detail::agree(comm, [&] {
    local = parse_npy_strings(std::as_bytes(std::span(local_file.data(), local_file.size())));
  });
  return ShardedStrings(comm, layout, std::move(local));
}

void save_npy_in_place(const std::string& path, const ShardedTensor& tensor) {
  constexpr std::string_view kWho = "save_npy_in_place";
  const Comm& comm = tensor.comm();
  check_all_shards(comm, tensor.layout(), detail::describe(tensor.local()));
  detail::MpiFile file(comm, path, MPI_MODE_RDWR, kWho, path);
  const core::npy::Header header = read_header(file, comm, path, kWho, false);
  const Shape shape = tensor.global_shape();
  const TensorBuffer& local = tensor.local();
  // The same header bytes on every rank: the same verdict, no agreement needed.
  TENSORBUF_EXPECTS(!header.byte_swap, InvalidArgumentError,
                    core::str_cat(path, ": dtype ", header.descr,
                                  " is in the other byte order; load_npy_tensor converts it"));
  TENSORBUF_EXPECTS(header.type == local.data_type() && header.dims == shape.dims(),
                    InvalidArgumentError,
                    core::str_cat(kWho, ": '", path, "' holds ", header.descr, " ",
                                  Shape(header.dims).to_string(), ", not the tensor's ",
                                  to_string(local.data_type()), " ", shape.to_string()));
  const void* data = nullptr;
  detail::agree(comm, [&] {
    if (local.size_bytes() != 0) data = local.host_bytes();  // staged if on the device
  });
  if (data != nullptr) {
    const std::uint64_t row = row_bytes_of(shape, local.data_type());
    file.write_at(
        header.data_offset + static_cast<std::uint64_t>(tensor.layout().offsets[comm.rank()]) * row,
        data, local.size_bytes());
  }
  file.agree_io();
  file.close();
}

}  // namespace tensorbuf::dist
