// A short run of int64 values (dims, strides) held inline up to kInline values and on the heap
// beyond: a plan is built on every call, and each std::vector or Shape copy in it was one
// allocation and one free (about a tenth of a 1024-element scatter call).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tensorbuf::core {

class SmallDims {
 public:
  static constexpr std::size_t kInline = 8;

  // Only the first size() inline values are ever read, written or copied: no zeroing of the
  // rest on every plan.
  SmallDims() {}  // NOLINT(modernize-use-equals-default): leaves inline_ unset on purpose
  SmallDims(const std::int64_t* first, const std::int64_t* last) { assign(first, last); }
  explicit SmallDims(const std::vector<std::int64_t>& values)
      : SmallDims(values.data(), values.data() + values.size()) {}
  SmallDims(const SmallDims& other) { assign(other.begin(), other.end()); }
  SmallDims& operator=(const SmallDims& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  ~SmallDims() = default;

  void assign(const std::int64_t* first, const std::int64_t* last) {
    size_ = static_cast<std::size_t>(last - first);
    if (size_ > kInline) {
      heap_.assign(first, last);
    } else {
      heap_.clear();
      std::copy(first, last, inline_);
    }
  }
  void assign(std::size_t count, std::int64_t value) {
    size_ = count;
    if (count > kInline) {
      heap_.assign(count, value);
    } else {
      heap_.clear();
      std::fill(inline_, inline_ + count, value);
    }
  }

  std::size_t size() const { return size_; }
  int rank() const { return static_cast<int>(size_); }
  bool empty() const { return size_ == 0; }
  const std::int64_t* data() const { return size_ > kInline ? heap_.data() : inline_; }
  std::int64_t* data() { return size_ > kInline ? heap_.data() : inline_; }
  const std::int64_t* begin() const { return data(); }
  const std::int64_t* end() const { return data() + size_; }
  std::int64_t operator[](std::size_t i) const { return data()[i]; }
  std::int64_t& operator[](std::size_t i) { return data()[i]; }
  std::vector<std::int64_t> to_vector() const { return {begin(), end()}; }

 private:
  std::int64_t inline_[kInline];
  std::vector<std::int64_t> heap_;  // used only past kInline values
  std::size_t size_ = 0;
};

}  // namespace tensorbuf::core
