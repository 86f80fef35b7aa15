// Helpers of the interop tests: a release callback that counts its calls and keeps the stream
// it was given (thread-safe: a release may run on any thread).
#pragma once

#include <atomic>
#include <functional>

#include "tensorbuf/types.hpp"

namespace tensorbuf::testing {

class ReleaseLog {
 public:
  std::function<void(Stream)> callback() {
    return [this](Stream last_use) {
      last_stream_ = last_use.handle;
      calls_++;
    };
  }
  int calls() const { return calls_; }
  void* last_stream() const { return last_stream_; }

 private:
  std::atomic<int> calls_{0};
  std::atomic<void*> last_stream_{nullptr};
};

}  // namespace tensorbuf::testing
