// Carriers: an op that only moves bytes (its elements copied whatever their dtype, never
// combined) moves several elements as one unsigned word of 1, 2, 4, 8 or 16 bytes.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tensorbuf::kernels {

// 16 bytes moved as one: the widest carrier.
struct alignas(16) Bytes16 {
  std::uint64_t low;
  std::uint64_t high;
};

// The widest carrier (up to 16 bytes) that divides a row's bytes and the alignment of every
// pointer the pass touches (`pointer_bits`: the pointers or-ed together).
inline std::size_t carrier_size(std::size_t row_bytes, std::uintptr_t pointer_bits) {
  std::size_t size = 16;
  while (size > 1 && (row_bytes % size != 0 || (pointer_bits & (size - 1)) != 0)) size /= 2;
  return size;
}

// Calls f(Carrier{}) with the unsigned word of `size` bytes (a carrier_size result): one
// dispatch for every byte-moving pass.
template <class F>
decltype(auto) with_carrier(std::size_t size, F&& f) {
  switch (size) {
    case 1:
      return f(std::uint8_t{});
    case 2:
      return f(std::uint16_t{});
    case 4:
      return f(std::uint32_t{});
    case 8:
      return f(std::uint64_t{});
    default:
      return f(Bytes16{});
  }
}

}  // namespace tensorbuf::kernels
