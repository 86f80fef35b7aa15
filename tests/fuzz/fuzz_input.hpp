// Decodes bounded values from a fuzzer's bytes; running out of bytes yields zeros.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace tensorbuf::fuzz {

class FuzzInput {
 public:
  FuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  bool empty() const { return pos_ >= size_; }
  std::size_t remaining() const { return size_ - pos_; }

  template <class T>
  T take() {
    T value{};
    const std::size_t n = remaining() < sizeof(T) ? remaining() : sizeof(T);
    std::memcpy(&value, data_ + pos_, n);
    pos_ += n;
    return value;
  }

  // A value in [low, high].
  std::int64_t range(std::int64_t low, std::int64_t high) {
    const std::uint64_t span = static_cast<std::uint64_t>(high - low) + 1;
    return low + static_cast<std::int64_t>(take<std::uint32_t>() % span);
  }

  // Up to `max` raw bytes.
  std::vector<std::uint8_t> bytes(std::size_t max) {
    const std::size_t n = remaining() < max ? remaining() : max;
    std::vector<std::uint8_t> out(data_ + pos_, data_ + pos_ + n);
    pos_ += n;
    return out;
  }

  // A shape of rank [0, max_rank] with dims [0, max_dim].
  std::vector<std::int64_t> dims(int max_rank, std::int64_t max_dim) {
    std::vector<std::int64_t> out(static_cast<std::size_t>(range(0, max_rank)));
    for (auto& d : out) d = range(0, max_dim);
    return out;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace tensorbuf::fuzz
