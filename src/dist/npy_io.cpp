// save_npy / load_npy of a ShardedTensor through MPI-IO: no rank ever holds more than its own
// rows. The file equals the single-process save_npy's byte for byte (same header, rows in
// order); it is written under a temporary name and renamed by rank 0 once every rank's write
// succeeded, so it appears complete or not at all, as in the single-process save_npy.
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>

#include "core/error_macros.hpp"
#include "core/npy_header.hpp"
#include "dist/mpi_file.hpp"
#include "dist/validate.hpp"

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

}  // namespace

void save_npy(const std::string& path, const ShardedTensor& tensor) {
  constexpr std::string_view kWho = "save_npy";
  static_assert(std::endian::native == std::endian::little, "writes little-endian data as is");
  const Comm& comm = tensor.comm();
  detail::Record record;
  record.add(detail::describe(tensor.local()));
  std::vector<detail::BufferDesc> shards;
  for (const auto& words : detail::allgather(comm, record.words())) {
    shards.push_back(detail::RecordReader(words).next_desc());
  }
  detail::check_shards(kWho, tensor.layout(), shards);
  const Shape shape = tensor.global_shape();
  const DataType dtype = tensor.local().data_type();
  const std::string header =
      core::npy::format_header(core::npy::numeric_descr(dtype, {}), shape.dims(), 0);
  const std::string temp = temporary_name(comm, path);
  try {
    detail::MpiFile file(comm, temp, MPI_MODE_CREATE | MPI_MODE_WRONLY, kWho, path);
    std::vector<std::uint8_t> normalized;
    detail::agree(comm, [&] {
      const TensorBuffer& local = tensor.local();
      if (comm.rank() == 0) file.write_at(0, header.data(), header.size());
      if (local.size_bytes() == 0) return;
      const void* data = local.host_bytes();  // staged if on the device
      if (dtype == DataType::kBool) {  // NumPy's b1 is 0 or 1
        const auto* bytes = static_cast<const std::uint8_t*>(data);
        normalized.assign(bytes, bytes + local.size_bytes());
        for (std::uint8_t& b : normalized) b = b != 0 ? 1 : 0;
        data = normalized.data();
      }
      const std::uint64_t at =
          header.size() + static_cast<std::uint64_t>(tensor.layout().offsets[comm.rank()]) *
                              row_bytes_of(shape, dtype);
      file.write_at(at, data, local.size_bytes());
    });
    file.agree_io();
    file.close();
  } catch (...) {
    if (comm.rank() == 0) MPI_File_delete(temp.c_str(), MPI_INFO_NULL);
    throw;
  }
  std::optional<detail::Failure> failure;
  if (comm.rank() == 0 && std::rename(temp.c_str(), path.c_str()) != 0) {
    failure = detail::Failure{ErrorCode::kInvalidArgument,
                              core::str_cat(kWho, ": cannot create '", path, "': ",
                                            std::strerror(errno))};
    std::remove(temp.c_str());
  }
  detail::raise_if_any(comm, failure);
}

ShardedTensor load_npy(const Comm& comm, const std::string& path) {
  constexpr std::string_view kWho = "load_npy";
  detail::MpiFile file(comm, path, MPI_MODE_RDONLY, kWho, path);
  const std::uint64_t size = file.size();
  // Every rank reads and parses the header: the same bytes, so the same error if any.
  std::vector<std::byte> first(static_cast<std::size_t>(std::min<std::uint64_t>(12, size)));
  file.read_at(0, first.data(), first.size());
  file.agree_io();
  core::npy::Preamble preamble;
  core::npy::Header header;
  std::string text;
  detail::agree(comm, [&] {
    preamble = core::npy::parse_preamble(first, size);
    text.resize(static_cast<std::size_t>(preamble.header_size));
    file.read_at(preamble.size, text.data(), text.size());
  });
  file.agree_io();
  detail::agree(comm, [&] {
    header = core::npy::parse_header(text, preamble, size, {});
    TENSORBUF_EXPECTS(!header.is_string, InvalidArgumentError,
                      core::str_cat(kWho, ": '", path, "' holds byte strings (dtype ",
                                    header.descr, "), not a numeric array"));
    TENSORBUF_EXPECTS(!header.dims.empty(), InvalidArgumentError,
                      core::str_cat(kWho, ": '", path,
                                    "' holds a 0-d array; a sharded tensor needs rank >= 1"));
  });
  const RowLayout layout = RowLayout::block(header.dims[0], comm.size());
  std::vector<std::int64_t> dims = header.dims;
  dims[0] = layout.rows_of(comm.rank());
  TensorBuffer local = TensorBuffer::create_dynamic(header.type);
  detail::agree(comm, [&] {
    local = TensorBuffer::create_fixed_size(Shape(dims), header.type);
    if (local.size_bytes() == 0) return;
    auto* bytes = static_cast<unsigned char*>(local.overwrite_host_bytes());
    const std::uint64_t row = row_bytes_of(Shape(header.dims), header.type);
    file.read_at(header.data_offset + static_cast<std::uint64_t>(layout.offsets[comm.rank()]) * row,
                 bytes, local.size_bytes());
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

}  // namespace tensorbuf::dist
