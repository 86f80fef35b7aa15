// The tensorbuf command-line tool (see docs/cli.md).
#include <iostream>

#include "tensorbuf/tensorbuf.hpp"

int main() {
  std::cout << "tensorbuf " << tensorbuf::kVersion << " (" << tensorbuf::build_description()
            << ")\nCUDA: " << tensorbuf::cuda_availability_reason() << "\n";
  return 0;
}
