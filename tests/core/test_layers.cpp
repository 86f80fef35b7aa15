// DESIGN.md's dependency rule, read from the sources: src/core includes no backend, kernel or
// CUDA header (it declares the backend entry points, src/cpu and src/cuda define them); the
// kernels include no backend; the two backends never include each other; the public headers
// include nothing of src/.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace tensorbuf {
namespace {

namespace fs = std::filesystem;

// The source tree: tests/data's parent's parent.
fs::path source_dir() { return fs::path(TENSORBUF_TEST_DATA_DIR).parent_path().parent_path(); }

// "file:line: #include ..." for every include in `folder` (recursively) that starts with one
// of `forbidden`, e.g. "#include \"cpu/".
std::vector<std::string> includes_of(const fs::path& folder,
                                     const std::vector<std::string>& forbidden) {
  std::vector<std::string> found;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      const std::size_t at = line.find_first_not_of(" \t");
      if (at == std::string::npos) continue;
      for (const std::string& start : forbidden) {
        if (line.compare(at, start.size(), start) == 0) {
          found.push_back(entry.path().filename().string() + ":" + std::to_string(number) +
                          ": " + line);
        }
      }
    }
  }
  return found;
}

TEST(Layers, CoreIncludesNoBackendKernelOrCudaHeader) {
  ASSERT_TRUE(fs::is_directory(source_dir() / "src" / "core")) << source_dir();
  EXPECT_EQ(includes_of(source_dir() / "src" / "core",
                        {"#include \"cpu/", "#include \"cuda/", "#include \"kernels/",
                         "#include \"mpi/", "#include \"c_api/", "#include <cuda", "#include <cub",
                         "#include <thrust"}),
            std::vector<std::string>{});
}

TEST(Layers, KernelsIncludeNoBackend) {
  EXPECT_EQ(includes_of(source_dir() / "src" / "kernels",
                        {"#include \"cpu/", "#include \"cuda/", "#include \"mpi/"}),
            std::vector<std::string>{});
}

TEST(Layers, TheBackendsNeverIncludeEachOther) {
  EXPECT_EQ(includes_of(source_dir() / "src" / "cpu", {"#include \"cuda/"}),
            std::vector<std::string>{});
  EXPECT_EQ(includes_of(source_dir() / "src" / "cuda", {"#include \"cpu/"}),
            std::vector<std::string>{});
}

TEST(Layers, PublicHeadersIncludeNothingOfSrc) {
  EXPECT_EQ(includes_of(source_dir() / "include",
                        {"#include \"core/", "#include \"cpu/", "#include \"cuda/",
                         "#include \"kernels/", "#include <cuda"}),
            std::vector<std::string>{});
}

}  // namespace
}  // namespace tensorbuf
