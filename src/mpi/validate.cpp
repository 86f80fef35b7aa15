#include "mpi/validate.hpp"

#include <string>

#include "core/error_macros.hpp"
#include "core/nd_indices.hpp"
#include "core/plan_gather_nd.hpp"
#include "core/plan_scatter_nd.hpp"
#include "core/shape_product.hpp"
#include "mpi/collective.hpp"
#include "tensorbuf/spellings.hpp"

namespace tensorbuf::dist::detail {

using core::str_cat;

void Record::add(const BufferDesc& desc) {
  add(static_cast<std::int64_t>(desc.dtype));
  add(static_cast<std::int64_t>(desc.kind));
  add(static_cast<std::int64_t>(desc.dims.size()));
  for (const std::int64_t d : desc.dims) add(d);
}

BufferDesc RecordReader::next_desc() {
  BufferDesc desc;
  desc.dtype = static_cast<DataType>(next());
  desc.kind = static_cast<Device::Kind>(next());
  const std::int64_t rank = next();
  for (std::int64_t i = 0; i < rank; ++i) desc.dims.push_back(next());
  return desc;
}

BufferDesc describe(const TensorBuffer& buffer) {
  return BufferDesc{buffer.data_type(), buffer.shape().dims(), buffer.residence().kind};
}

namespace {

std::string dims_text(const std::vector<std::int64_t>& dims) { return Shape(dims).to_string(); }

std::string_view kind_text(Device::Kind kind) {
  return kind == Device::Kind::kCuda ? "cuda" : "cpu";
}

bool same_after_first(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
  return a.size() == b.size() && !a.empty() && std::equal(a.begin() + 1, a.end(), b.begin() + 1);
}

bool concatenable(const BufferDesc& a, const BufferDesc& b) {
  return a.dtype == b.dtype && same_after_first(a.dims, b.dims);
}

TensorBuffer stub(const std::vector<std::int64_t>& dims, DataType dtype) {
  return TensorBuffer::create_uninitialized(Shape(dims), dtype);  // allocates nothing
}

}  // namespace

std::string desc_text(const BufferDesc& desc) {
  return str_cat(to_string(desc.dtype), " ", dims_text(desc.dims));
}

void check_local_shard(std::string_view who, const Comm& comm, const RowLayout& layout,
                       const BufferDesc& local) {
  TENSORBUF_EXPECTS(
      layout.ranks() == comm.size(), InvalidArgumentError,
      str_cat(who, ": the layout has ", layout.ranks(), " ranks, the communicator ", comm.size()));
  bool ordered = layout.offsets.front() == 0;
  for (int q = 0; q < layout.ranks(); ++q)
    ordered = ordered && layout.offsets[q] <= layout.offsets[q + 1];
  TENSORBUF_EXPECTS(ordered, InvalidArgumentError,
                    str_cat(who, ": layout offsets must start at 0 and never decrease"));
  TENSORBUF_EXPECTS(!local.dims.empty(), InvalidArgumentError,
                    str_cat(who, ": the local tensor must have rank >= 1, got shape []"));
  TENSORBUF_EXPECTS(local.dims[0] == layout.rows_of(comm.rank()), InvalidArgumentError,
                    str_cat(who, ": rank ", comm.rank(), " holds ", local.dims[0],
                            " rows but the layout gives it ", layout.rows_of(comm.rank())));
}

void check_new_shard(std::string_view who, const Comm& comm, const RowLayout& layout,
                     const BufferDesc& local) {
  agree(comm, [&] { check_local_shard(who, comm, layout, local); });
  // The same layout everywhere: rank 0's, compared on each rank.
  std::vector<std::int64_t> root = layout.offsets;
  MPI_Bcast(root.data(), static_cast<int>(root.size()), MPI_INT64_T, 0, comm.get());
  agree(comm, [&] {
    TENSORBUF_EXPECTS(root == layout.offsets, InvalidArgumentError,
                      str_cat(who, ": rank ", comm.rank(), "'s layout differs from rank 0's"));
  });
  Record record;
  record.add(local);
  std::vector<BufferDesc> shards;
  for (const auto& words : allgather(comm, record.words())) {
    shards.push_back(RecordReader(words).next_desc());
  }
  check_shards(who, layout, shards);  // the same data on every rank
}

void check_shards(std::string_view who, const RowLayout& layout,
                  const std::vector<BufferDesc>& shards, std::string_view what) {
  const BufferDesc& first = shards.front();
  for (std::size_t q = 0; q < shards.size(); ++q) {
    const BufferDesc& s = shards[q];
    const std::int64_t rows = layout.rows_of(static_cast<int>(q));
    TENSORBUF_EXPECTS(!s.dims.empty() && s.dims[0] == rows, InvalidArgumentError,
                      str_cat(who, ": rank ", q, "'s local ", what, " ", desc_text(s),
                              " does not have the ", rows, " rows its layout gives it"));
    TENSORBUF_EXPECTS(
        s.dtype == first.dtype && same_after_first(s.dims, first.dims) && s.kind == first.kind,
        InvalidArgumentError,
        str_cat(who, ": rank ", q, "'s local ", what, " ", desc_text(s), " on ", kind_text(s.kind),
                " does not match rank 0's ", desc_text(first), " on ", kind_text(first.kind),
                " (dtype, dims after the first and device kind must agree)"));
  }
}

void check_agreed(std::string_view who, std::string_view what,
                  const std::vector<std::int64_t>& values,
                  std::string (*text)(std::int64_t value)) {
  for (std::size_t q = 1; q < values.size(); ++q) {
    TENSORBUF_EXPECTS(values[q] == values[0], InvalidArgumentError,
                      str_cat(who, ": the ranks disagree on the ", what, ": rank 0 has ",
                              text(values[0]), ", rank ", q, " ", text(values[q])));
  }
}

void check_same_distribution(std::string_view who, const Comm& a, const RowLayout& la,
                             const Comm& b, const RowLayout& lb) {
  int result = MPI_UNEQUAL;
  MPI_Comm_compare(a.get(), b.get(), &result);
  TENSORBUF_EXPECTS(result == MPI_IDENT || result == MPI_CONGRUENT, InvalidArgumentError,
                    str_cat(who, ": the operands' communicators are not congruent"));
  TENSORBUF_EXPECTS(la == lb, InvalidArgumentError,
                    str_cat(who, ": the operands' row layouts differ"));
}

core::ScatterNdPlan check_scatter(core::ScatterOp op, const Shape& global_shape, DataType dtype,
                                  const std::vector<BufferDesc>& indices,
                                  const std::vector<BufferDesc>& updates,
                                  std::vector<std::int64_t>& row_starts) {
  const std::string_view name = core::scatter_op_name(op);
  const TensorBuffer tensor = TensorBuffer::create_uninitialized(global_shape, dtype);
  const std::size_t ranks = indices.size();
  bool joinable = true;
  for (std::size_t q = 0; q < ranks; ++q) {
    joinable =
        joinable && concatenable(indices[q], indices[0]) && concatenable(updates[q], updates[0]);
  }
  if (!joinable) {
    // No single-process call corresponds: name the first rank whose own arguments are wrong,
    // else the first that cannot be concatenated with rank 0's.
    for (std::size_t q = 0; q < ranks; ++q) {
      try {
        core::plan_scatter_nd(op, tensor, stub(indices[q].dims, indices[q].dtype),
                              stub(updates[q].dims, updates[q].dtype));
      } catch (const InvalidArgumentError& e) {
        throw InvalidArgumentError(str_cat(e.what(), " (on rank ", q, ")"));
      }
    }
    for (std::size_t q = 1; q < ranks; ++q) {
      TENSORBUF_EXPECTS(
          concatenable(indices[q], indices[0]) && concatenable(updates[q], updates[0]),
          InvalidArgumentError,
          str_cat(name, ": rank ", q, "'s indices ", desc_text(indices[q]), " and updates ",
                  desc_text(updates[q]), " cannot be concatenated with rank 0's ",
                  desc_text(indices[0]), " and ", desc_text(updates[0]),
                  " (dtype and all dims but the first must agree)"));
    }
  }
  // Concatenated along dim 0, in rank order: the single-process call's arguments.
  std::vector<std::int64_t> all_indices = indices[0].dims;
  std::vector<std::int64_t> all_updates = updates[0].dims;
  for (std::size_t q = 1; q < ranks; ++q) {
    TENSORBUF_EXPECTS(
        !__builtin_add_overflow(all_indices[0], indices[q].dims[0], &all_indices[0]) &&
            !__builtin_add_overflow(all_updates[0], updates[q].dims[0], &all_updates[0]),
        InvalidArgumentError, str_cat(name, ": the total row count overflows int64"));
  }
  TENSORBUF_EXPECTS(all_indices.size() >= 2, InvalidArgumentError,
                    str_cat(name,
                            ": distributed indices need rank >= 2 ([rows, ..., depth]), "
                            "got shape ",
                            dims_text(indices[0].dims)));
  core::ScatterNdPlan plan = core::plan_scatter_nd(op, tensor, stub(all_indices, indices[0].dtype),
                                                   stub(all_updates, updates[0].dtype));
  row_starts.assign(ranks + 1, 0);
  for (std::size_t q = 0; q < ranks; ++q) {
    TENSORBUF_EXPECTS(
        updates[q].dims[0] == indices[q].dims[0], InvalidArgumentError,
        str_cat(name, ": rank ", q, "'s updates ", desc_text(updates[q]), " do not have the ",
                indices[q].dims[0], " leading rows of its indices ", desc_text(indices[q])));
    row_starts[q + 1] =
        row_starts[q] + core::dims_product(indices[q].dims, 0, indices[q].dims.size() - 1);
  }
  return plan;
}

core::GatherNdPlan check_gather_nd(const Shape& global_shape, DataType dtype, int batch_dims,
                                   const std::vector<BufferDesc>& indices,
                                   std::vector<std::int64_t>& row_starts) {
  constexpr std::string_view name = spelling(OpFamily::kGatherNd);
  const std::size_t ranks = indices.size();
  // A rank's own dtype first (the single-process text, with its rank), then the concatenation.
  for (std::size_t q = 0; q < ranks; ++q) {
    try {
      core::check_index_dtype(name, indices[q].dtype);
    } catch (const InvalidArgumentError& e) {
      throw InvalidArgumentError(str_cat(e.what(), " (on rank ", q, ")"));
    }
  }
  for (std::size_t q = 0; q < ranks; ++q) {
    TENSORBUF_EXPECTS(indices[q].dims.size() >= 2, InvalidArgumentError,
                      str_cat(name,
                              ": distributed indices need rank >= 2 ([rows, ..., depth]), got "
                              "shape ",
                              dims_text(indices[q].dims), " on rank ", q));
  }
  for (std::size_t q = 1; q < ranks; ++q) {
    TENSORBUF_EXPECTS(concatenable(indices[q], indices[0]), InvalidArgumentError,
                      str_cat(name, ": rank ", q, "'s indices ", desc_text(indices[q]),
                              " cannot be concatenated with rank 0's ", desc_text(indices[0]),
                              " (dtype and all dims but the first must agree)"));
  }
  std::vector<std::int64_t> all = indices[0].dims;
  for (std::size_t q = 1; q < ranks; ++q) {
    TENSORBUF_EXPECTS(!__builtin_add_overflow(all[0], indices[q].dims[0], &all[0]),
                      InvalidArgumentError,
                      str_cat(name, ": the total row count overflows int64"));
  }
  // The single-process checks on shape-only stand-ins of the global call.
  GatherOptions options;
  options.batch_dims = batch_dims;
  core::GatherNdPlan plan =
      core::plan_gather_nd(stub(global_shape.dims(), dtype), stub(all, indices[0].dtype), options);
  row_starts.assign(ranks + 1, 0);
  for (std::size_t q = 0; q < ranks; ++q) {
    row_starts[q + 1] =
        row_starts[q] + core::dims_product(indices[q].dims, 0, indices[q].dims.size() - 1);
  }
  return plan;
}

}  // namespace tensorbuf::dist::detail
