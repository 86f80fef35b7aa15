// tensorbuf::dist: row-sharded tensors over MPI (spec/distributed.md). Library target
// tensorbuf::mpi; only this header includes <mpi.h>, the core library never links MPI.
//
// Every function here that takes a Comm, a ShardedTensor or a ShardedStrings is collective:
// every rank of the communicator calls it, in the same order. Errors are collective too: a
// call that fails throws the same error class with the same message on every rank, and no
// rank is left waiting in a collective. A failure after data has moved between ranks
// (an allocation, a CUDA error) calls MPI_Abort with its message instead of returning a
// partial result. MPI is called only from the calling thread. Decisions: docs/distributed.md.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tensorbuf/export.h"
#include "tensorbuf/ops.hpp"
#include "tensorbuf/processing.hpp"
#include "tensorbuf/string_tensor.hpp"
#include "tensorbuf/tensor_buffer.hpp"
#include "tensorbuf/types.hpp"

namespace tensorbuf::dist {

namespace detail {
struct CommAccess;
}

/// A duplicate of the caller's communicator (MPI_Comm_dup, collective), so tensorbuf's
/// messages never match the caller's. Copies share the duplicate, which is freed with the
/// last copy (not after MPI_Finalize), and with it the scatter ops' send and receive buffers,
/// which are kept between calls (as large as the largest call's). InvalidArgumentError for
/// MPI_COMM_NULL or before MPI_Init.
class TENSORBUF_API Comm {
 public:
  explicit Comm(MPI_Comm comm);
  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm get() const;

 private:
  friend struct detail::CommAccess;  // the ops' scratch memory, kept with the duplicate
  struct Handle;
  std::shared_ptr<Handle> handle_;
  int rank_ = 0;
  int size_ = 1;
};

/// Which rows of dim 0 each rank owns; the same on every rank.
struct TENSORBUF_API RowLayout {
  /// size()+1 entries, from 0, non-decreasing: rank q owns rows [offsets[q], offsets[q+1]).
  std::vector<std::int64_t> offsets;

  /// `rows` split over `ranks`, the first rows % ranks ranks one row more.
  /// InvalidArgumentError for rows < 0 or ranks < 1.
  static RowLayout block(std::int64_t rows, int ranks);
  /// Collective: rank q owns `local_rows` rows, in rank order. InvalidArgumentError (on every
  /// rank) when a count is negative or the total overflows int64.
  static RowLayout from_local(const Comm& comm, std::int64_t local_rows);

  int ranks() const { return static_cast<int>(offsets.size()) - 1; }
  std::int64_t rows() const { return offsets.back(); }
  std::int64_t rows_of(int rank) const;
  /// The rank that owns `row`; OutOfRangeError outside [0, rows()).
  int owner(std::int64_t row) const;
  friend bool operator==(const RowLayout&, const RowLayout&) = default;
};

/// A tensor whose dim 0 is split over the ranks by a layout. Trailing dims, dtype and device
/// kind are equal on every rank. The constructor is collective and checks that (and that the
/// layout is the same everywhere, has comm.size() ranks and that `local` has this rank's row
/// count): InvalidArgumentError on every rank otherwise. `local` must have rank >= 1.
class TENSORBUF_API ShardedTensor {
 public:
  ShardedTensor(Comm comm, RowLayout layout, TensorBuffer local);
  const Comm& comm() const { return comm_; }
  const RowLayout& layout() const { return layout_; }
  /// [layout().rows()] + the trailing dims.
  Shape global_shape() const;
  /// This rank's rows. Ops check again that it still fits the layout.
  TensorBuffer& local() { return local_; }
  const TensorBuffer& local() const { return local_; }

 private:
  Comm comm_;
  RowLayout layout_;
  TensorBuffer local_;
};

/// A StringTensor (rank >= 1) whose dim 0 is split over the ranks by a layout; the same
/// checks as ShardedTensor (trailing dims and device kind equal on every rank).
class TENSORBUF_API ShardedStrings {
 public:
  ShardedStrings(Comm comm, RowLayout layout, StringTensor local);
  const Comm& comm() const { return comm_; }
  const RowLayout& layout() const { return layout_; }
  Shape global_shape() const;
  StringTensor& local() { return local_; }
  const StringTensor& local() const { return local_; }

 private:
  Comm comm_;
  RowLayout layout_;
  StringTensor local_;
};

/// Scatter ops (spec/distributed.md D3). `indices` and `updates` are this rank's rows (indices
/// of rank >= 2, in GLOBAL coordinates of the sharded tensor); the result equals the
/// single-process CPU op on the gathered tensor with every rank's indices and updates
/// concatenated in rank order, bit for bit. The device and out-of-bounds policy must resolve
/// the same on every rank. InvalidArgumentError (the same message on every rank, nothing
/// written anywhere) for every error of the single-process op (under kError the first bad row
/// over all ranks, named by its global position), for ranks that disagree on the device, the
/// policy or `deterministic`, and for indices or updates that cannot be concatenated (dtype or
/// trailing dims differ between ranks). UnavailableError when CUDA is asked for and unusable.
TENSORBUF_API void tensor_scatter_nd_sub_in_place(ShardedTensor& tensor,
                                                  const TensorBuffer& indices,
                                                  const TensorBuffer& updates,
                                                  const ScatterOptions& = {});
TENSORBUF_API ShardedTensor tensor_scatter_nd_sub(const ShardedTensor& tensor,
                                                  const TensorBuffer& indices,
                                                  const TensorBuffer& updates,
                                                  const ScatterOptions& = {});
TENSORBUF_API void tensor_scatter_nd_add_in_place(ShardedTensor& tensor,
                                                  const TensorBuffer& indices,
                                                  const TensorBuffer& updates,
                                                  const ScatterOptions& = {});
TENSORBUF_API ShardedTensor tensor_scatter_nd_add(const ShardedTensor& tensor,
                                                  const TensorBuffer& indices,
                                                  const TensorBuffer& updates,
                                                  const ScatterOptions& = {});
TENSORBUF_API void tensor_scatter_nd_update_in_place(ShardedTensor& tensor,
                                                     const TensorBuffer& indices,
                                                     const TensorBuffer& updates,
                                                     const ScatterOptions& = {});
TENSORBUF_API ShardedTensor tensor_scatter_nd_update(const ShardedTensor& tensor,
                                                     const TensorBuffer& indices,
                                                     const TensorBuffer& updates,
                                                     const ScatterOptions& = {});
TENSORBUF_API void tensor_scatter_nd_min_in_place(ShardedTensor& tensor,
                                                  const TensorBuffer& indices,
                                                  const TensorBuffer& updates,
                                                  const ScatterOptions& = {});
TENSORBUF_API ShardedTensor tensor_scatter_nd_min(const ShardedTensor& tensor,
                                                  const TensorBuffer& indices,
                                                  const TensorBuffer& updates,
                                                  const ScatterOptions& = {});
TENSORBUF_API void tensor_scatter_nd_max_in_place(ShardedTensor& tensor,
                                                  const TensorBuffer& indices,
                                                  const TensorBuffer& updates,
                                                  const ScatterOptions& = {});
TENSORBUF_API ShardedTensor tensor_scatter_nd_max(const ShardedTensor& tensor,
                                                  const TensorBuffer& indices,
                                                  const TensorBuffer& updates,
                                                  const ScatterOptions& = {});
TENSORBUF_API void tensor_scatter_nd_mul_in_place(ShardedTensor& tensor,
                                                  const TensorBuffer& indices,
                                                  const TensorBuffer& updates,
                                                  const ScatterOptions& = {});
TENSORBUF_API ShardedTensor tensor_scatter_nd_mul(const ShardedTensor& tensor,
                                                  const TensorBuffer& indices,
                                                  const TensorBuffer& updates,
                                                  const ScatterOptions& = {});

/// NumPy `tensor[mask] = updates` along axis 0 (options.axis must be 0): `mask` is sharded
/// like `tensor` (congruent communicators, equal layouts), `updates` is the whole global
/// updates on every rank. Errors as the single-process op on the gathered tensor and mask
/// (the shape check uses the global count of true entries), on every rank.
TENSORBUF_API void boolean_mask_update_in_place(ShardedTensor& tensor, const ShardedTensor& mask,
                                                const TensorBuffer& updates,
                                                const BooleanMaskUpdateOptions& = {});
/// Along axis >= 1: `mask` and `updates` are replicated (the same on every rank); each rank
/// applies the part of `updates`, broadcast to the global target shape, that falls in its
/// rows. InvalidArgumentError for axis 0 (use the overload above) and as the single-process op.
TENSORBUF_API void boolean_mask_update_in_place(ShardedTensor& tensor, const TensorBuffer& mask,
                                                const TensorBuffer& updates,
                                                const BooleanMaskUpdateOptions& = {});

/// substr on every rank's rows (pos and len replicated, broadcast against the GLOBAL input
/// shape, which must leave dim 0 the input's). Equals the single-process substr of the
/// gathered strings; the result has the input's layout. Errors as the single-process op, on
/// every rank: an out-of-range pos under kError is named by its global flat index (the first
/// over all ranks); InvalidArgumentError when the broadcast changes dim 0 or the rank, or
/// when the ranks disagree on pos/len shapes, the device, the policy or the unit.
TENSORBUF_API ShardedStrings substr(const ShardedStrings& input, const TensorBuffer& pos,
                                    const TensorBuffer& len, const SubstrOptions& = {});

/// TensorFlow GatherNd / ONNX GatherND on row-sharded params, the embedding lookup: `indices`
/// are this rank's rows (rank >= 2, components in GLOBAL coordinates of params); the result is
/// this rank's rows of the answer, in its row order, on the host: indices.shape[:-1] +
/// params.shape[batch_dims + D:]. Every rank's result, concatenated in rank order, equals the
/// single-process gather_nd of the gathered params with every rank's indices concatenated in
/// rank order, bit for bit (with batch_dims >= 1, rank q's indices start at the batch after
/// the rows of the ranks before it). Each request goes to the rank that owns its params row;
/// no params row moves unasked. Errors as the single-process op, on every rank and before
/// anything moves: under kError the first bad row over all ranks, named by its global
/// position; kDrop zero-fills a bad row on its rank. InvalidArgumentError too for indices that
/// cannot be concatenated (dtype or dims after the first differ between ranks), indices of
/// rank < 2, and ranks that disagree on the device, the policy or batch_dims.
TENSORBUF_API TensorBuffer gather_nd(const ShardedTensor& params, const TensorBuffer& indices,
                                     const GatherOptions& = {});

/// NumPy `tensor[mask]` along axis 0 (options.axis must name dim 0): `mask` is sharded like
/// `tensor` (congruent communicators, equal layouts). Each rank selects from its own rows; no
/// payload moves. The result's layout holds each rank's count of true entries, so its
/// rank-order concatenation is the single-process boolean_mask of the gathered tensor and mask,
/// bit for bit. Errors as the single-process op on the global shapes, on every rank, and for
/// ranks that disagree on the device or the axis.
TENSORBUF_API ShardedTensor boolean_mask(const ShardedTensor& tensor, const ShardedTensor& mask,
                                         const BooleanMaskOptions& = {});
/// Along axis >= 1: `mask` is replicated (the same dtype, shape and true count on every rank);
/// each rank selects along that axis in its rows, and the result keeps the tensor's layout.
/// InvalidArgumentError for axis 0 (use the overload above) and as the single-process op.
TENSORBUF_API ShardedTensor boolean_mask(const ShardedTensor& tensor, const TensorBuffer& mask,
                                         const BooleanMaskOptions& = {});

/// `processor.run` on each rank's rows (spec/processing.md 4): no payload moves, the result
/// keeps the tensor's layout, so its rank-order concatenation is the single-process run on the
/// gathered tensor, bit for bit. Errors as Processor::run's, on every rank, and
/// InvalidArgumentError for ranks that disagree on the device or on the steps (compared by a
/// fingerprint of each step's name, parameters and dtype).
TENSORBUF_API ShardedTensor process(const Processor& processor, const ShardedTensor& tensor,
                                    const ProcessOptions& = {});

/// The whole tensor on `root` (std::nullopt on the other ranks), on the host.
/// InvalidArgumentError for a root outside the communicator or not the same on every rank.
TENSORBUF_API std::optional<TensorBuffer> gather(const ShardedTensor& tensor, int root = 0);
/// Splits `*on_root` (read on `root` only; may be null elsewhere) by `layout` (which must have
/// comm.size() ranks and on_root's row count). InvalidArgumentError on every rank otherwise.
TENSORBUF_API ShardedTensor scatter(const Comm& comm, const TensorBuffer* on_root,
                                    const RowLayout& layout, int root = 0);

/// Writes the whole tensor as a .npy file with MPI-IO, each rank its own rows (no gather):
/// the file equals the single-process save_npy of the gathered tensor byte for byte. It is
/// written under a temporary name and renamed once every rank succeeded, so `path` is
/// complete or unchanged. InvalidArgumentError when the file cannot be created or for
/// bfloat16 (no NumPy dtype); InternalError for a failed write; on every rank.
TENSORBUF_API void save_npy(const std::string& path, const ShardedTensor& tensor);
/// Reads a numeric .npy file with MPI-IO, each rank its block of rows (RowLayout::block).
/// The accepted formats and their errors are those of the single-process load_npy, plus
/// InvalidArgumentError for a 0-d array or a byte-string array; on every rank.
TENSORBUF_API ShardedTensor load_npy(const Comm& comm, const std::string& path);
/// Writes each rank's rows into the data of the existing .npy file `path`, in place with MPI-IO
/// (the distributed `tensorbuf run --in-place`): the header and every other byte stay as they
/// are, as when map_npy_tensor(path, {.writable = true}) is updated. The file must hold the
/// tensor's dtype and global shape in native byte order and open for writing, else
/// InvalidArgumentError on every rank and nothing is written; InternalError for a failed write.
TENSORBUF_API void save_npy_in_place(const std::string& path, const ShardedTensor& tensor);
/// The same for byte strings: dtype S<n> with the global longest item as n (at least 1), as
/// the single-process save_npy writes them; load_npy_strings reads an S array by blocks of rows.
TENSORBUF_API void save_npy(const std::string& path, const ShardedStrings& strings);
TENSORBUF_API ShardedStrings load_npy_strings(const Comm& comm, const std::string& path);

}  // namespace tensorbuf::dist
