#include "mpi/collective.hpp"

#include <climits>
#include <cstdio>

#include "tensorbuf/error_classes.hpp"

namespace tensorbuf::dist::detail {

void raise_if_any(const Comm& comm, const std::optional<Failure>& failure) {
  // The lowest failing rank speaks; the others learn its class and message from it.
  int mine = failure ? comm.rank() : INT_MAX;
  int first = INT_MAX;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm.get());
  if (first == INT_MAX) return;
  std::int64_t header[2] = {0, 0};
  if (comm.rank() == first) {
    header[0] = error_class(failure->code).mpi_code;
    header[1] = static_cast<std::int64_t>(failure->message.size());
  }
  MPI_Bcast(header, 2, MPI_INT64_T, first, comm.get());
  std::string message = comm.rank() == first ? failure->message : std::string();
  message.resize(static_cast<std::size_t>(header[1]));
  // Messages are short (well under INT_MAX bytes).
  MPI_Bcast(message.data(), static_cast<int>(header[1]), MPI_CHAR, first, comm.get());
  tensorbuf::throw_error(error_class_of_mpi_code(header[0]).code, message);
}

std::vector<std::vector<std::int64_t>> allgather(const Comm& comm,
                                                 const std::vector<std::int64_t>& values) {
  const int size = comm.size();
  int count = static_cast<int>(values.size());
  std::vector<int> counts(static_cast<std::size_t>(size));
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm.get());
  std::vector<int> displs(static_cast<std::size_t>(size), 0);
  for (int q = 1; q < size; ++q) displs[q] = displs[q - 1] + counts[q - 1];
  std::vector<std::int64_t> all(static_cast<std::size_t>(displs.back() + counts.back()));
  MPI_Allgatherv(values.data(), count, MPI_INT64_T, all.data(), counts.data(), displs.data(),
                 MPI_INT64_T, comm.get());
  std::vector<std::vector<std::int64_t>> out(static_cast<std::size_t>(size));
  for (int q = 0; q < size; ++q) {
    out[q].assign(all.begin() + displs[q], all.begin() + displs[q] + counts[q]);
  }
  return out;
}

namespace {
std::int64_t allreduce(const Comm& comm, std::int64_t value, MPI_Op op) {
  std::int64_t out = 0;
  MPI_Allreduce(&value, &out, 1, MPI_INT64_T, op, comm.get());
  return out;
}
}  // namespace

std::int64_t allreduce_sum(const Comm& comm, std::int64_t value) {
  return allreduce(comm, value, MPI_SUM);
}
std::int64_t allreduce_min(const Comm& comm, std::int64_t value) {
  return allreduce(comm, value, MPI_MIN);
}
std::int64_t allreduce_max(const Comm& comm, std::int64_t value) {
  return allreduce(comm, value, MPI_MAX);
}

std::int64_t exscan_sum(const Comm& comm, std::int64_t value) {
  std::int64_t out = 0;
  MPI_Exscan(&value, &out, 1, MPI_INT64_T, MPI_SUM, comm.get());
  return comm.rank() == 0 ? 0 : out;  // MPI leaves rank 0's result undefined
}

[[noreturn]] void abort_job(const Comm& comm, const char* what) {
  std::fprintf(stderr, "tensorbuf::dist: fatal after data moved (rank %d): %s\n", comm.rank(),
               what);
  std::fflush(stderr);
  MPI_Abort(comm.get(), 1);
  std::abort();  // MPI_Abort does not return
}

}  // namespace tensorbuf::dist::detail
