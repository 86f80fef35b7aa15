// MPI-IO for the sharded .npy files: a collectively opened file, independent reads and
// writes in chunks under INT_MAX bytes, and errors agreed by every rank.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "mpi/collective.hpp"

namespace tensorbuf::dist::detail {

class MpiFile {
 public:
  // Collective. InvalidArgumentError on every rank when any rank cannot open `path`; messages
  // name `shown` (the user's path when `path` is a temporary name).
  MpiFile(const Comm& comm, const std::string& path, int amode, std::string_view who,
          const std::string& shown);
  ~MpiFile();  // collective close, when still open
  MpiFile(const MpiFile&) = delete;
  MpiFile& operator=(const MpiFile&) = delete;

  std::uint64_t size() const;
  // Local; the first failure is kept and reported by agree_io().
  void write_at(std::uint64_t offset, const void* data, std::size_t bytes);
  void read_at(std::uint64_t offset, void* data, std::size_t bytes);
  // Collective: InternalError (ResourceExhaustedError for a full disk) on every rank when any
  // rank's read or write failed.
  void agree_io();
  // Collective close; agree_io's errors for a failed close.
  void close();

 private:
  void keep_failure(int code, std::string_view what);
  void transfer(std::uint64_t offset, void* data, std::size_t bytes, bool write);

  const Comm& comm_;
  std::string path_;
  std::string who_;
  MPI_File file_ = MPI_FILE_NULL;
  std::optional<Failure> failure_;
};

// "<who>: <what> '<path>': <MPI's error string>".
std::string mpi_error_text(std::string_view who, std::string_view what, const std::string& path,
                           int code);

}  // namespace tensorbuf::dist::detail
