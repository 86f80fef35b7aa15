// `tensorbuf info`: version, build options, devices, and why CUDA is or is not usable.
#include <iostream>
#include <string>
#include <thread>
#include <utility>

#include "cli.hpp"
#include "tensorbuf/runtime.hpp"

#if TENSORBUF_CLI_WITH_MPI
#include <mpi.h>
#endif

namespace tensorbuf::cli {
namespace {

// Which CPU code the ops run here: the AVX-512 paths need the CPU's support and an x86 build
// without TENSORBUF_PORTABLE; elsewhere the portable twins run (docs/substr.md).
std::string cpu_paths() {
  const CpuCodePaths paths = cpu_code_paths();
  const std::pair<bool, const char*> ops[] = {
#define TENSORBUF_CLI_CPU_PATH(field, what, needs) {paths.field, what},
      TENSORBUF_CPU_CODE_PATHS(TENSORBUF_CLI_CPU_PATH)
#undef TENSORBUF_CLI_CPU_PATH
  };
  std::string simd;
  std::string portable;
  for (const auto& [fast, name] : ops) {
    std::string& list = fast ? simd : portable;
    list += list.empty() ? "" : ", ";
    list += name;
  }
  if (simd.empty()) return "portable (no AVX-512BW/BMI2 here, or a TENSORBUF_PORTABLE build)";
  return "AVX-512 (" + simd + ")" + (portable.empty() ? "" : ", portable " + portable);
}

// Whether `run ... --distributed` is built in, and against which MPI (both callable before
// MPI_Init, so info never starts MPI).
std::string mpi_line() {
#if TENSORBUF_CLI_WITH_MPI
  int major = 0, minor = 0;
  MPI_Get_version(&major, &minor);
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(library, &length);
  std::string name(library, static_cast<std::size_t>(length));
  name = name.substr(0, name.find_first_of(",\n"));  // "Open MPI v4.1.4"
  return "built in (MPI " + std::to_string(major) + "." + std::to_string(minor) + ", " + name +
         "; mpiexec -n N tensorbuf run <op> ... --distributed)";
#else
  return "not built (TENSORBUF_WITH_MPI=OFF or no MPI found; --distributed is refused)";
#endif
}

}  // namespace

int info_command(const std::vector<std::string>& args) {
  const Args flags(args, {}, "tensorbuf info");
  if (flags.help()) {
    std::cout
        << "usage: tensorbuf info\n\n"
           "Prints the version, how the library was built (benchmarks, MPI for --distributed),\n"
           "the devices, and why CUDA is or is not usable (not built / no driver / driver\n"
           "too old / no device).\n";
    return kExitOk;
  }
  std::cout << "tensorbuf " << kVersion << "\n"
            << "build: " << build_description() << "\n"
#if defined(TENSORBUF_HAVE_BENCHMARK)
            << "benchmarks: built in (tensorbuf bench)\n"
#elif defined(TENSORBUF_CLI_INSTALLED)
            << "benchmarks: not in the installed tool (a build tree's tensorbuf bench)\n"
#else
            << "benchmarks: not built (Google Benchmark missing or TENSORBUF_BUILD_BENCH=OFF)\n"
#endif
            << "MPI: " << mpi_line() << "\n"
            << "devices:\n"
            << "  cpu: " << cpu_thread_count() << " worker thread(s) of "
            << std::thread::hardware_concurrency() << " hardware threads (TENSORBUF_NUM_THREADS)\n"
            << "  cpu paths: " << cpu_paths() << "\n";
  const int cuda_devices = cuda_device_count();
  for (int i = 0; i < cuda_devices; ++i) std::cout << "  " << Device::cuda(i).to_string() << "\n";
  std::cout << "CUDA: " << (cuda_available() ? "usable" : "not usable") << " ("
            << cuda_availability_reason() << ")\n";
  return kExitOk;
}

}  // namespace tensorbuf::cli
