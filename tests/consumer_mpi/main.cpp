// A distributed scatter_nd_add through an installed tensorbuf::mpi: every rank adds 1 to
// row 0; rank 0 prints the gathered first row.
#include <cstdio>

#include <tensorbuf/dist.hpp>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    using namespace tensorbuf;
    const dist::Comm comm(MPI_COMM_WORLD);
    const dist::RowLayout layout = dist::RowLayout::block(4, comm.size());
    dist::ShardedTensor table(
        comm, layout,
        TensorBuffer::create_fixed_size({layout.rows_of(comm.rank()), 2}, DataType::kFloat32));
    TensorBuffer indices = TensorBuffer::create_fixed_size({1, 1}, DataType::kInt32);
    TensorBuffer updates = TensorBuffer::create_fixed_size({1, 2}, DataType::kFloat32);
    updates.load_array(std::vector<float>{1, 1});
    dist::tensor_scatter_nd_add_in_place(table, indices, updates);
    if (const auto all = dist::gather(table)) {
      std::printf("row 0 = %g %g over %d ranks\n", all->get_float_value(0), all->get_float_value(1),
                  comm.size());
      status = all->get_float_value(0) == static_cast<float>(comm.size()) ? 0 : 1;
    }
  }
  MPI_Finalize();
  return status;
}
