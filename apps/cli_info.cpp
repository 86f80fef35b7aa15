// `tensorbuf info`: version, build options, devices, and why CUDA is or is not usable.
#include <iostream>
#include <string>
#include <thread>

#include "cli.hpp"
#include "tensorbuf/runtime.hpp"

namespace tensorbuf::cli {
namespace {

// Which CPU code the ops run here: the AVX-512 paths need the CPU's support and an x86 build
// without TENSORBUF_PORTABLE; elsewhere the portable twins run (docs/substr.md).
std::string cpu_paths() {
  const CpuCodePaths paths = cpu_code_paths();
  const bool substr_simd = paths.substr_avx512;
  const bool mask_simd = paths.mask_update_avx512;
  if (substr_simd && mask_simd) return "AVX-512 (substr UTF-8 scans, boolean_mask_update)";
  if (substr_simd) return "AVX-512 (substr UTF-8 scans), portable boolean_mask_update";
  if (mask_simd) return "AVX-512 (boolean_mask_update), portable substr UTF-8 scans";
  return "portable (no AVX-512BW/BMI2 here, or a TENSORBUF_PORTABLE build)";
}

}  // namespace

int info_command(const std::vector<std::string>& args) {
  const Args flags(args, {}, "tensorbuf info");
  if (flags.help()) {
    std::cout << "usage: tensorbuf info\n\n"
                 "Prints the version, how the library was built, the devices, and why CUDA is or\n"
                 "is not usable (not built / no driver / driver too old / no device).\n";
    return kExitOk;
  }
  std::cout << "tensorbuf " << kVersion << "\n"
            << "build: " << build_description() << "\n"
#if defined(TENSORBUF_HAVE_BENCHMARK)
            << "benchmarks: built in (tensorbuf bench)\n"
#else
            << "benchmarks: not built (Google Benchmark missing or TENSORBUF_BUILD_BENCH=OFF)\n"
#endif
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
