// Where the last distributed scatter of the calling thread spent its time on this rank, in
// seconds: the breakdown bench/bench_dist.cpp prints (docs/distributed.md, "Cost model").
#pragma once

namespace tensorbuf::dist::detail {

// Wall time, and this process's CPU time (all threads: what a rank costs a shared machine).
struct PhaseTime {
  double wall = 0;
  double cpu = 0;
};

struct ScatterPhases {
  PhaseTime validate;  // device and policy agreed, descriptors all-gathered and checked
  PhaseTime route;     // one read of the indices: bad rows, owners, counts per owner
  PhaseTime counts;    // the first bad row agreed (kError), the all-to-all of counts
  PhaseTime bucket;    // indices and rows into the send buffer, own rows into the receive one
  PhaseTime exchange;  // the MPI_Alltoallv of indices and of rows
  PhaseTime apply;     // the local op on the received rows
};

const ScatterPhases& last_scatter_phases();

}  // namespace tensorbuf::dist::detail
