// TENSORBUF_INTERNAL_FOR_MPI marks the few internals that tensorbuf::mpi (src/mpi, a library of
// its own) calls, so that a shared libtensorbuf exports them for it: the plans and error texts
// it validates with before any data moves (validation lives in src/core once), the .npy header
// it reads and writes collectively, and the backend run and row routing it moves rows with.
// They are NOT public API: no installed header declares them and any release may change them.
// Keep the list short (scripts/check_symbols.sh counts what libtensorbuf.so exports).
#pragma once

#include "tensorbuf/export.h"

#define TENSORBUF_INTERNAL_FOR_MPI TENSORBUF_API
