// The fixture of the `tensorbuf` command's end-to-end tests (test_cli*.cpp): runs the built
// binary with arguments, captures stdout and stderr, and writes and reads .npy files.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tensorbuf/tensorbuf.hpp"

#ifndef TENSORBUF_CLI_PATH
#error "TENSORBUF_CLI_PATH must name the built tensorbuf binary"
#endif

namespace tensorbuf::cli_test {

namespace fs = std::filesystem;

inline fs::path fixture(const std::string& name) {
  return fs::path(TENSORBUF_TEST_DATA_DIR) / "npy" / name;
}

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Result {
  int status = -1;
  std::string out;
  std::string err;
};

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tensorbuf_test_cli_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // Runs the binary (the build tree's tool unless told) with `args`; stdout and stderr are
  // captured.
  Result run(const std::vector<std::string>& args,
             const std::string& binary = TENSORBUF_CLI_PATH) const {
    std::string command = quote(binary);
    for (const std::string& a : args) {
      command += ' ';
      command += quote(a);
    }
    const std::string out = path("stdout.txt"), err = path("stderr.txt");
    command += " > ";
    command += quote(out);
    command += " 2> ";
    command += quote(err);
    const int raw = std::system(command.c_str());
    Result r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = read_text(out);
    r.err = read_text(err);
    fs::remove(out);
    fs::remove(err);
    return r;
  }

  std::string save(const std::string& name, const TensorBuffer& t) const {
    save_npy(path(name), t);
    return path(name);
  }
  std::string save(const std::string& name, const StringTensor& s) const {
    save_npy(path(name), s);
    return path(name);
  }

  static std::string quote(const std::string& s) {
    std::string out = "'";
    for (const char c : s) {
      if (c == '\'') {
        out += "'\\''";
      } else {
        out += c;
      }
    }
    out += '\'';
    return out;
  }

  fs::path dir_;
};

inline TensorBuffer i32(const std::vector<std::int32_t>& v, const Shape& shape) {
  TensorBuffer t = TensorBuffer::create_dynamic(DataType::kInt32);
  t.load_array(v, shape);
  return t;
}
inline TensorBuffer f32(const std::vector<float>& v, const Shape& shape) {
  TensorBuffer t = TensorBuffer::create_dynamic(DataType::kFloat32);
  t.load_array(v, shape);
  return t;
}
inline TensorBuffer bools(const std::vector<std::int32_t>& v, const Shape& shape) {
  TensorBuffer t = TensorBuffer::create_dynamic(DataType::kBool);
  t.load_array(v, shape);
  return t;
}

// An error is one line on stderr that begins with its class.
inline void expect_error_line(const Result& r, const std::string& prefix) {
  EXPECT_EQ(r.err.rfind(prefix, 0), 0u) << "stderr: " << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "stderr: " << r.err;
}

// The whole of stderr is exactly `line` and a newline.
inline void expect_error_exactly(const Result& r, const std::string& line) {
  EXPECT_EQ(r.err, line + "\n");
}

// The .npy at `path` holds `dtype` and `shape` as NumPy reads them: the header's dict, and the
// loaded tensor's dtype and shape.
inline void expect_npy(const std::string& path, DataType dtype, const std::string& descr,
                       const Shape& shape, const std::string& npy_shape) {
  const std::string header = read_text(path).substr(0, 128);
  EXPECT_NE(header.find("{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + npy_shape +
                        ", }"),
            std::string::npos)
      << header;
  const TensorBuffer loaded = load_npy_tensor(path);
  EXPECT_EQ(loaded.data_type(), dtype);
  EXPECT_EQ(loaded.shape(), shape);
}

}  // namespace tensorbuf::cli_test
