#include "py_objects.hpp"

#include <algorithm>

namespace tensorbuf::python {

BufferLocks::BufferLocks(std::vector<PyTensorBuffer*> buffers) {
  buffers.erase(std::remove(buffers.begin(), buffers.end(), nullptr), buffers.end());
  std::sort(buffers.begin(), buffers.end());
  buffers.erase(std::unique(buffers.begin(), buffers.end()), buffers.end());
  for (PyTensorBuffer* buffer : buffers) {
    std::unique_lock<std::mutex> lock(buffer->mutex, std::try_to_lock);
    if (!lock.owns_lock()) {
      py::gil_scoped_release no_gil;  // another thread's op holds it and runs without the GIL
      lock.lock();
    }
    locks_.push_back(std::move(lock));
  }
}

}  // namespace tensorbuf::python
