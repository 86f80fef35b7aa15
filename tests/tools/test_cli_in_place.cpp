// `tensorbuf run ... --in-place` (docs/cli.md): the tensor file's data is mapped and updated in
// the file itself; nothing is written on an error; --in-place and --out exclude each other.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"
#include "tools/cli_fixture.hpp"

namespace tensorbuf {
namespace {

using namespace cli_test;  // NOLINT(google-build-using-namespace): the fixture of these tests

TEST_F(Cli, ScatterInPlaceUpdatesTheTensorFile) {
  const std::string t = save("t.npy", f32({1, 1, 1, 1}, {4}));
  const Result r = run({"run", "tensor_scatter_nd_add", "--tensor", t, "--indices",
                        save("i.npy", i32({3, 0, 3}, {3, 1})), "--updates",
                        save("u.npy", f32({2, 5, 4}, {3})), "--in-place"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(t).get_float_array(), (std::vector<float>{6, 1, 1, 7}));
}

TEST_F(Cli, MaskUpdateInPlaceUpdatesTheTensorFile) {
  const std::string t = save("t.npy", i32({1, 2, 3, 4, 5, 6}, {2, 3}));
  const Result r = run({"run", "boolean_mask_update", "--tensor", t, "--mask",
                        save("m.npy", bools({0, 1, 1}, {3})), "--updates",
                        save("u.npy", i32({-1}, {})), "--axis", "1", "--in-place"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(load_npy_tensor(t).get_int_array(), (std::vector<std::int32_t>{1, -1, -1, 4, -1, -1}));
}

TEST_F(Cli, InPlaceErrorLeavesTheFileByteIdentical) {
  const std::string t = save("t.npy", f32({1, 2, 3}, {3}));
  const std::string before = read_text(t);
  const Result r = run({"run", "tensor_scatter_nd_update", "--tensor", t, "--indices",
                        save("i.npy", i32({0, 3}, {2, 1})), "--updates",
                        save("u.npy", f32({9, 9}, {2})), "--in-place"});
  EXPECT_EQ(r.status, 2);
  expect_error_line(r, "InvalidArgument: indices[1] = [3] does not index into shape [3]");
  EXPECT_EQ(read_text(t), before);
}

TEST_F(Cli, InPlaceNeedsNativeByteOrderAndExcludesOut) {
  TensorBuffer tensor = f32({1, 2}, {2});
  NpyWriteOptions big_endian;
  big_endian.big_endian = true;
  save_npy(path("big.npy"), tensor, big_endian);
  const std::string i = save("i.npy", i32({0}, {1, 1}));
  const std::string u = save("u.npy", f32({5}, {1}));
  Result r = run({"run", "tensor_scatter_nd_add", "--tensor", path("big.npy"), "--indices", i,
                  "--updates", u, "--in-place"});
  EXPECT_EQ(r.status, 2);
  expect_error_line(r, "InvalidArgument: ");
  EXPECT_NE(r.err.find("other byte order"), std::string::npos) << r.err;
  r = run({"run", "tensor_scatter_nd_add", "--tensor", path("big.npy"), "--indices", i,
           "--updates", u, "--in-place", "--out", path("o.npy")});
  EXPECT_EQ(r.status, 2);
  expect_error_line(r, "InvalidArgument: --in-place and --out cannot both be given");
  EXPECT_FALSE(fs::exists(path("o.npy")));
}

}  // namespace
}  // namespace tensorbuf
