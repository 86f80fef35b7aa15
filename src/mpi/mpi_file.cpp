#include "mpi/mpi_file.hpp"

#include <algorithm>

#include "core/error_macros.hpp"

namespace tensorbuf::dist::detail {
namespace {
constexpr std::size_t kChunk = std::size_t{1} << 30;  // bytes per MPI call, under INT_MAX
}  // namespace

std::string mpi_error_text(std::string_view who, std::string_view what, const std::string& path,
                           int code) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(code, text, &length);
  return core::str_cat(who, ": ", what, " '", path,
                       "': ", std::string(text, static_cast<std::size_t>(length)));
}

MpiFile::MpiFile(const Comm& comm, const std::string& path, int amode, std::string_view who,
                 const std::string& shown)
    : comm_(comm), path_(shown), who_(who) {
  const int rc = MPI_File_open(comm.get(), path.c_str(), amode, MPI_INFO_NULL, &file_);
  std::optional<Failure> failure;
  if (rc != MPI_SUCCESS) {
    file_ = MPI_FILE_NULL;
    failure = Failure{
        ErrorCode::kInvalidArgument,
        mpi_error_text(who, (amode & MPI_MODE_CREATE) != 0 ? "cannot create" : "cannot open", shown,
                       rc)};
  }
  try {
    raise_if_any(comm, failure);
  } catch (...) {
    if (file_ != MPI_FILE_NULL) MPI_File_close(&file_);  // opened here, failed elsewhere
    throw;
  }
}

MpiFile::~MpiFile() {
  if (file_ != MPI_FILE_NULL) MPI_File_close(&file_);
}

std::uint64_t MpiFile::size() const {
  MPI_Offset size = 0;
  MPI_File_get_size(file_, &size);
  return static_cast<std::uint64_t>(size);
}

void MpiFile::keep_failure(int code, std::string_view what) {
  if (!failure_) failure_ = Failure{ErrorCode::kInternal, mpi_error_text(who_, what, path_, code)};
}

void MpiFile::write_at(std::uint64_t offset, const void* data, std::size_t bytes) {
  transfer(offset, const_cast<void*>(data), bytes, true);  // MPI_File_write_at takes const
}

void MpiFile::read_at(std::uint64_t offset, void* data, std::size_t bytes) {
  transfer(offset, data, bytes, false);
}

void MpiFile::transfer(std::uint64_t offset, void* data, std::size_t bytes, bool write) {
  auto* p = static_cast<char*>(data);
  for (std::size_t done = 0; done < bytes && !failure_;) {
    const std::size_t n = std::min(kChunk, bytes - done);
    const auto at = static_cast<MPI_Offset>(offset + done);
    MPI_Status status;
    const int rc =
        write ? MPI_File_write_at(file_, at, p + done, static_cast<int>(n), MPI_BYTE, &status)
              : MPI_File_read_at(file_, at, p + done, static_cast<int>(n), MPI_BYTE, &status);
    if (rc != MPI_SUCCESS) keep_failure(rc, write ? "cannot write" : "cannot read");
    done += n;
  }
}

void MpiFile::agree_io() { raise_if_any(comm_, failure_); }

void MpiFile::close() {
  const int rc = MPI_File_close(&file_);
  file_ = MPI_FILE_NULL;
  if (rc != MPI_SUCCESS) keep_failure(rc, "cannot write");
  agree_io();
}

}  // namespace tensorbuf::dist::detail
