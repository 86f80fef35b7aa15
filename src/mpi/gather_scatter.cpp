// gather (all rows to one rank) and scatter (one rank's tensor split by a layout), both as
// row exchanges (exchange.hpp), so counts past INT_MAX go in rounds as for the scatter ops.
#include <cstring>

#include "core/error_macros.hpp"
#include "mpi/collective.hpp"
#include "mpi/exchange.hpp"
#include "mpi/validate.hpp"

namespace tensorbuf::dist {
namespace {

std::string number_text(std::int64_t v) { return std::to_string(v); }

// Every rank passes the same root, inside the communicator.
void check_root(std::string_view who, const Comm& comm, int root) {
  std::vector<std::int64_t> roots;
  for (const auto& words : detail::allgather(comm, {root})) roots.push_back(words[0]);
  detail::check_agreed(who, "root", roots, &number_text);
  TENSORBUF_EXPECTS(
      root >= 0 && root < comm.size(), InvalidArgumentError,
      core::str_cat(who, ": root ", root, " is not a rank of a communicator of ", comm.size()));
}

std::size_t row_bytes_of(const std::vector<std::int64_t>& dims, DataType dtype) {
  std::int64_t elems = 1;
  for (std::size_t i = 1; i < dims.size(); ++i) elems *= dims[i];
  return static_cast<std::size_t>(elems) * type_size(dtype);
}

void* writable_bytes(TensorBuffer& buffer) {
  return buffer.size_bytes() == 0 ? nullptr : buffer.overwrite_host_bytes();
}

const void* readable_bytes(const TensorBuffer& buffer) {
  return buffer.size_bytes() == 0 ? nullptr : buffer.host_bytes();  // staged if on the device
}

}  // namespace

std::optional<TensorBuffer> gather(const ShardedTensor& tensor, int root) {
  constexpr std::string_view kWho = "gather";
  const Comm& comm = tensor.comm();
  check_root(kWho, comm, root);
  detail::Record record;
  record.add(detail::describe(tensor.local()));
  std::vector<detail::BufferDesc> shards;
  for (const auto& words : detail::allgather(comm, record.words())) {
    shards.push_back(detail::RecordReader(words).next_desc());
  }
  detail::check_shards(kWho, tensor.layout(), shards);
  const int size = comm.size();
  std::vector<std::int64_t> send(static_cast<std::size_t>(size), 0);
  std::vector<std::int64_t> recv(static_cast<std::size_t>(size), 0);
  send[root] = tensor.layout().rows_of(comm.rank());
  if (comm.rank() == root) {
    for (int q = 0; q < size; ++q) recv[q] = tensor.layout().rows_of(q);
  }
  std::optional<TensorBuffer> out;
  detail::agree(comm, [&] {
    if (comm.rank() == root) {
      out = TensorBuffer::create_uninitialized(tensor.global_shape(), shards[0].dtype);
    }
  });
  detail::or_abort(comm, [&] {
    detail::exchange_rows(comm, readable_bytes(tensor.local()), send,
                          out ? writable_bytes(*out) : nullptr, recv,
                          row_bytes_of(shards[0].dims, shards[0].dtype));
  });
  return out;
}

ShardedTensor scatter(const Comm& comm, const TensorBuffer* on_root, const RowLayout& layout,
                      int root) {
  constexpr std::string_view kWho = "scatter";
  check_root(kWho, comm, root);
  // The root's tensor, described to every rank (-1: none given).
  detail::Record record;
  if (comm.rank() == root && on_root != nullptr) {
    record.add(1);
    record.add(detail::describe(*on_root));
  } else {
    record.add(comm.rank() == root ? -1 : 0);
  }
  std::vector<std::int64_t> words = record.words();
  std::int64_t length = static_cast<std::int64_t>(words.size());
  MPI_Bcast(&length, 1, MPI_INT64_T, root, comm.get());
  words.resize(static_cast<std::size_t>(length));
  MPI_Bcast(words.data(), static_cast<int>(length), MPI_INT64_T, root, comm.get());
  detail::RecordReader reader(words);
  TENSORBUF_EXPECTS(reader.next() == 1, InvalidArgumentError,
                    core::str_cat(kWho, ": the root (rank ", root, ") passed no tensor"));
  const detail::BufferDesc desc = reader.next_desc();
  TENSORBUF_EXPECTS(!desc.dims.empty(), InvalidArgumentError,
                    core::str_cat(kWho, ": the tensor must have rank >= 1, got shape []"));
  TENSORBUF_EXPECTS(
      layout.ranks() == comm.size() && layout.offsets.front() == 0 && layout.rows() == desc.dims[0],
      InvalidArgumentError,
      core::str_cat(kWho, ": the layout must have ", comm.size(), " ranks and the ", desc.dims[0],
                    " rows of the root's tensor ", detail::desc_text(desc)));
  const int size = comm.size();
  std::vector<std::int64_t> send(static_cast<std::size_t>(size), 0);
  std::vector<std::int64_t> recv(static_cast<std::size_t>(size), 0);
  if (comm.rank() == root) {
    for (int q = 0; q < size; ++q) send[q] = layout.rows_of(q);
  }
  recv[root] = layout.rows_of(comm.rank());
  std::vector<std::int64_t> dims = desc.dims;
  dims[0] = recv[root];
  TensorBuffer local = TensorBuffer::create_dynamic(desc.dtype);
  detail::agree(comm, [&] { local = TensorBuffer::create_fixed_size(Shape(dims), desc.dtype); });
  detail::or_abort(comm, [&] {
    detail::exchange_rows(comm, comm.rank() == root ? readable_bytes(*on_root) : nullptr, send,
                          writable_bytes(local), recv, row_bytes_of(desc.dims, desc.dtype));
  });
  return ShardedTensor(comm, layout, std::move(local));
}

}  // namespace tensorbuf::dist
