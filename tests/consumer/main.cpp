// Links against an installed tensorbuf and uses the public API end to end.
#include <tensorbuf/tensorbuf.hpp>

#include <cstdio>
#include <vector>

int main() {
  using namespace tensorbuf;
  TensorBuffer b = TensorBuffer::create_dynamic(DataType::kUInt8);
  b.load_array(std::vector<float>{400.32f, -23.04f, 254.9f}, {3});
  const std::vector<std::int32_t> got = b.get_int_array();
  const bool ok = got == std::vector<std::int32_t>{255, 0, 254};
  std::printf("tensorbuf %.*s (%.*s): load_array -> {%d, %d, %d} %s; CUDA: %s\n",
              static_cast<int>(kVersion.size()), kVersion.data(),
              static_cast<int>(build_description().size()), build_description().data(), got[0],
              got[1], got[2], ok ? "ok" : "WRONG", cuda_availability_reason().c_str());
  // Thrown inside the shared library, caught here by its class.
  bool caught = false;
  try {
    (void)Shape{2, -1};
  } catch (const InvalidArgumentError&) {
    caught = true;
  }
  std::printf("Shape{2, -1}: InvalidArgumentError %s\n", caught ? "caught" : "NOT CAUGHT");
  return ok && caught ? 0 : 1;
}
