// Writes the inputs of tests/mpi/cli_check.sh into a folder, from fixed seeds.
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"

namespace {

using namespace tensorbuf;

template <class T>
TensorBuffer make(const Shape& shape, const std::vector<T>& values) {
  TensorBuffer out = TensorBuffer::create_fixed_size(shape, DataTypeOf<T>::value);
  std::copy(values.begin(), values.end(), out.overwrite_host<T>());
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: cli_inputs DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::mt19937_64 rng(42);
  const std::int64_t rows = 13;
  std::vector<float> table(rows * 3);
  for (float& v : table) v = static_cast<float>(rng() % 1000) * 1.5e5f - 7.0e7f;  // order-sensitive
  save_npy(dir + "/tensor.npy", make<float>({rows, 3}, table));
  std::vector<std::int32_t> idx(11);
  for (auto& i : idx) i = static_cast<std::int32_t>(rng() % 4);  // duplicates
  save_npy(dir + "/indices.npy", make<std::int32_t>({11, 1}, idx));
  std::vector<float> upd(11 * 3);
  for (float& v : upd) v = static_cast<float>(rng() % 1000) * 0.37f - 100.0f;
  save_npy(dir + "/updates.npy", make<float>({11, 3}, upd));
  idx[9] = rows;  // out of bounds
  save_npy(dir + "/bad_indices.npy", make<std::int32_t>({11, 1}, idx));
  std::vector<std::uint8_t> mask(rows);
  std::int64_t n = 0;
  for (auto& m : mask) n += (m = rng() % 2);
  TensorBuffer mask_buffer = TensorBuffer::create_fixed_size({rows}, DataType::kBool);
  std::copy(mask.begin(), mask.end(), mask_buffer.overwrite_host<std::uint8_t>());
  save_npy(dir + "/mask.npy", mask_buffer);
  std::vector<float> mask_upd(static_cast<std::size_t>(n) * 3);
  for (float& v : mask_upd) v = static_cast<float>(rng() % 100);
  save_npy(dir + "/mask_updates.npy", make<float>({n, 3}, mask_upd));
  TensorBuffer col_mask = TensorBuffer::create_fixed_size({3}, DataType::kBool);
  col_mask.overwrite_host<std::uint8_t>()[0] = 1;
  col_mask.mutable_host<std::uint8_t>()[1] = 0;
  col_mask.mutable_host<std::uint8_t>()[2] = 1;
  save_npy(dir + "/col_mask.npy", col_mask);
  std::vector<float> col_upd(rows * 2);
  for (float& v : col_upd) v = static_cast<float>(rng() % 100);
  save_npy(dir + "/col_updates.npy", make<float>({rows, 2}, col_upd));
  std::vector<std::string> words;
  std::vector<std::int32_t> pos, len;
  for (std::int64_t i = 0; i < rows * 2; ++i) {
    words.push_back(std::string(rng() % 6, 'a' + static_cast<char>(rng() % 26)) + "\xc3\xa9");
    pos.push_back(static_cast<std::int32_t>(rng() % 3));
    len.push_back(static_cast<std::int32_t>(rng() % 4) - 1);
  }
  save_npy(dir + "/strings.npy", StringTensor::from_strings(words, {rows, 2}));
  save_npy(dir + "/pos.npy", make<std::int32_t>({rows, 2}, pos));
  save_npy(dir + "/len.npy", make<std::int32_t>({rows, 2}, len));
  // gather_nd: rows of tensor.npy owned by every rank, and full-depth (row, column) pairs.
  std::vector<std::int64_t> lookup(9);
  for (auto& i : lookup) i = static_cast<std::int64_t>(rng() % rows);
  save_npy(dir + "/lookup.npy", make<std::int64_t>({9, 1}, lookup));
  std::vector<std::int64_t> pairs(7 * 2);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    pairs[i] = static_cast<std::int64_t>(rng() % (i % 2 == 0 ? rows : 3));
  }
  save_npy(dir + "/pairs.npy", make<std::int64_t>({7, 2}, pairs));
  return 0;
}
