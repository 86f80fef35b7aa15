// Collective agreement: errors raised the same way on every rank, small all-gathers of
// descriptors, and MPI_Abort for failures after data moved (spec/distributed.md D3).
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tensorbuf/dist.hpp"
#include "tensorbuf/errors.hpp"

namespace tensorbuf::dist::detail {

// A local failure waiting to be agreed on: the error class and its message.
struct Failure {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
};

// Collective. When any rank holds a failure, every rank throws the failure of the lowest such
// rank (same class, same message); otherwise returns. One MPI_Allreduce when nobody failed.
void raise_if_any(const Comm& comm, const std::optional<Failure>& failure);

// Local: runs `step`, catching tensorbuf errors and allocation failures as a Failure to agree
// on (raise_if_any, agree_call).
template <class Step>
std::optional<Failure> attempt(Step&& step) {
  try {
    step();
  } catch (const Error& e) {
    return Failure{e.code(), e.what()};
  } catch (const std::bad_alloc&) {
    return Failure{ErrorCode::kResourceExhausted, "tensorbuf::dist: out of host memory"};
  } catch (const std::exception& e) {  // no other rank may be left waiting for this one
    return Failure{ErrorCode::kInternal, e.what()};
  }
  return std::nullopt;
}

// Collective: runs `step` on this rank, then raise_if_any. So a step that fails on one rank
// only throws on all of them, and never leaves the others waiting in the next collective.
template <class Step>
void agree(const Comm& comm, Step&& step) {
  raise_if_any(comm, attempt(std::forward<Step>(step)));
}

// Collective: the one error agreement of a rejected run. `mine` is this rank's first rejected
// position in the op's global numbering (INT64_MAX: none); when any rank has one, the rank
// holding the smallest formats it (`message(first)`, where the data naming it lives) and every
// rank throws that InvalidArgumentError. One MPI_Allreduce when no rank rejected.
template <class Message>
void raise_first_rejection(const Comm& comm, std::int64_t mine, Message&& message);

// Collective: every rank's `values`, in rank order.
std::vector<std::vector<std::int64_t>> allgather(const Comm& comm,
                                                 const std::vector<std::int64_t>& values);

// Collective sums and extremes of one int64 per rank.
std::int64_t allreduce_sum(const Comm& comm, std::int64_t value);
std::int64_t allreduce_min(const Comm& comm, std::int64_t value);
std::int64_t allreduce_max(const Comm& comm, std::int64_t value);
// MPI_Exscan of `value` (0 on rank 0).
std::int64_t exscan_sum(const Comm& comm, std::int64_t value);

template <class Message>
void raise_first_rejection(const Comm& comm, std::int64_t mine, Message&& message) {
  const std::int64_t first = allreduce_min(comm, mine);
  if (first == INT64_MAX) return;
  std::optional<Failure> failure;
  if (mine == first) failure = Failure{ErrorCode::kInvalidArgument, message(first)};
  raise_if_any(comm, failure);
}

// Buffers of the ops that exchange index rows and slices between ranks, kept with the Comm
// between calls: a large exchange then pays for fresh pages (the kernel zeroing them on first
// touch) once, not every call. Rows gathered from other ranks: the requests in
// send_index / recv_index, this rank's own in own_index, the answers received in recv_slices.
struct Scratch {
  std::vector<std::byte> send_index, send_slices, recv_index, recv_slices, own_index;
  std::vector<int> owner;  // per local row: the rank that owns it (-1: out of bounds)
};

struct CommAccess {
  static Scratch& scratch(const Comm& comm);
};

// `buffer` with room for `bytes` (grown, never shrunk; contents unspecified).
inline std::byte* room(std::vector<std::byte>& buffer, std::size_t bytes) {
  if (buffer.size() < bytes) buffer.resize(bytes);
  return buffer.data();
}

// Prints "tensorbuf::dist: fatal after data moved: <what>" and calls MPI_Abort.
[[noreturn]] void abort_job(const Comm& comm, const char* what);

// Runs `step` after data moved: any failure ends the whole job with MPI_Abort and the message
// on stderr, rather than leaving ranks with a partial result (D3).
template <class Step>
void or_abort(const Comm& comm, Step&& step) {
  try {
    step();
  } catch (const std::exception& e) {
    abort_job(comm, e.what());
  }
}

}  // namespace tensorbuf::dist::detail
