// docs/c_api.md's C example compiled as C++17 and linked through tensorbuf::c, the target for
// the C API alone: its usage requirements must not raise a C++17 project to C++20 (CMake would
// do so silently for tensorbuf::tensorbuf's cxx_std_20). tests/consumer_cxx17 builds it against
// the install.
static_assert(__cplusplus == 201703L, "a C++17 target linking tensorbuf::c is not C++17");
#include "example.c"
