// End-to-end tests of the `tensorbuf` command (apps/, docs/cli.md), commands other than `run`:
// info, help, usage errors, examples and bench. The built binary is run as a child process.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cpu/cpu_features.hpp"
#include "tensorbuf/op_table.hpp"
#include "tensorbuf/tensorbuf.hpp"
#include "tools/cli_fixture.hpp"

namespace tensorbuf {
namespace {

using namespace cli_test;  // NOLINT(google-build-using-namespace): the fixture of these tests

TEST_F(Cli, InfoPrintsVersionBuildAndWhyCudaIsOrIsNotUsable) {
  const Result r = run({"info"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("tensorbuf " + std::string(kVersion)), std::string::npos);
  EXPECT_NE(r.out.find(std::string(build_description())), std::string::npos);
  EXPECT_NE(r.out.find("CUDA: "), std::string::npos);
  EXPECT_NE(r.out.find(cuda_availability_reason()), std::string::npos);
  // Which CPU code runs: the AVX-512 paths where this CPU and build have them, else portable.
  const cpu::CpuFeatures& features = cpu::detected_cpu_features();
  const bool substr_simd = features.avx512bw && features.bmi2;
  const bool mask_simd = features.avx512bw;      // scatter's paths too
  std::string paths = "  cpu paths: AVX-512 (";  // some fast paths only: which ones are named
  if (substr_simd && mask_simd) {
    paths =
        "  cpu paths: AVX-512 (substr UTF-8 scans, boolean_mask_update, tensor_scatter_nd float "
        "rows and index check)\n";
  } else if (!substr_simd && !mask_simd) {
    paths = "  cpu paths: portable (no AVX-512BW/BMI2 here, or a TENSORBUF_PORTABLE build)\n";
  }
  EXPECT_NE(r.out.find(paths), std::string::npos) << r.out;
}

// The installed tool is built on the public API alone, without the benchmarks (they use the
// library's internals); the build tree's has them where they are built (apps/CMakeLists.txt).
TEST_F(Cli, TheInstalledToolHasNoBenchmarks) {
  const Result info = run({"info"}, TENSORBUF_INSTALLED_CLI_PATH);
  EXPECT_EQ(info.status, 0) << info.err;
  EXPECT_NE(info.out.find("benchmarks: not in the installed tool (a build tree's tensorbuf bench)"),
            std::string::npos)
      << info.out;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"bench", "--quick"},
        std::vector<std::string>{"bench", "--sweep", "--quick"}}) {
    const Result r = run(args, TENSORBUF_INSTALLED_CLI_PATH);
    EXPECT_EQ(r.status, 1) << args.back();
    expect_error_line(r, "Unavailable: benchmarks are not part of the installed tensorbuf");
  }
  const Result help = run({"bench", "--help"}, TENSORBUF_INSTALLED_CLI_PATH);
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("usage: tensorbuf bench"), std::string::npos);
  // Everything else is the same tool.
  const Result examples =
      run({"examples", "--only", "TB1", "--device", "cpu"}, TENSORBUF_INSTALLED_CLI_PATH);
  EXPECT_EQ(examples.status, 0) << examples.err;
}

TEST_F(Cli, HelpOnEveryCommand) {
  const std::vector<std::vector<std::string>> commands = {
      {"--help"},
      {"info", "--help"},
      {"examples", "--help"},
      {"run", "--help"},
      {"bench", "--help"}};
  for (const auto& c : commands) {
    const Result r = run(c);
    EXPECT_EQ(r.status, 0) << c[0] << " " << r.err;
    EXPECT_NE(r.out.find("usage: tensorbuf"), std::string::npos) << c[0];
    EXPECT_TRUE(r.err.empty()) << r.err;
  }
}

// The op table's CLI surface: every op of every family that claims the CLI has `run <op>` with
// its own help, and `run --help` lists the family. Fails when a table row claims surface::kCli
// before `tensorbuf run` has it, and in either binary when an op's file (its RunOp's
// registration, apps/cli_run_ops.cpp) is not linked in.
TEST_F(Cli, EveryOpOfTheTableHasRunHelp) {
  for (const char* binary : {TENSORBUF_CLI_PATH, TENSORBUF_INSTALLED_CLI_PATH}) {
    const Result list = run({"run", "--help"}, binary);
    ASSERT_EQ(list.status, 0) << binary << ": " << list.err;
    int checked = 0;
    for (const OpFamilyInfo& family : kOpFamilies) {
      if ((family.surfaces & surface::kCli) == 0) continue;
      EXPECT_NE(list.out.find("  " + std::string(family.name)), std::string::npos) << family.name;
      for_each_op_name(family, [&](std::string_view name) {
        const Result r = run({"run", std::string(name), "--help"}, binary);
        EXPECT_EQ(r.status, 0) << name << ": " << r.err;
        EXPECT_NE(r.out.find("usage: tensorbuf run " + std::string(name) + " "), std::string::npos)
            << r.out;
        ++checked;
      });
    }
    EXPECT_GE(checked, 3);  // the table was walked
  }
}

// `run --help` lists the ops in the op table's order (the ops' files register them in any).
TEST_F(Cli, RunHelpListsTheOpsInTheTablesOrder) {
  const Result list = run({"run", "--help"});
  ASSERT_EQ(list.status, 0) << list.err;
  std::vector<std::string> listed;  // the lines "  <name>"
  std::istringstream lines(list.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.size() > 2 && line.rfind("  ", 0) == 0 && line[2] != ' ') {
      listed.push_back(line.substr(2));
    }
  }
  std::ptrdiff_t previous = -1;
  for (const OpFamilyInfo& family : kOpFamilies) {
    if ((family.surfaces & surface::kCli) == 0) continue;
    const std::string name(family.name);
    const auto at = std::find_if(listed.begin(), listed.end(), [&](const std::string& l) {
      return l == name || l.rfind(name + "_{", 0) == 0;  // the scatter combines on one line
    });
    ASSERT_NE(at, listed.end()) << name << " in\n" << list.out;
    EXPECT_GT(at - listed.begin(), previous) << name << " in\n" << list.out;
    previous = at - listed.begin();
  }
}

TEST_F(Cli, InfoSaysWhetherMpiIsBuiltIn) {
  const Result r = run({"info"});
  EXPECT_EQ(r.status, 0) << r.err;
#if TENSORBUF_CLI_HAS_MPI
  EXPECT_NE(r.out.find("\nMPI: built in (MPI "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("; mpiexec -n N tensorbuf run <op> ... --distributed)\n"), std::string::npos)
      << r.out;
#else
  EXPECT_NE(r.out.find("\nMPI: not built (TENSORBUF_WITH_MPI=OFF or no MPI found; "
                       "--distributed is refused)\n"),
            std::string::npos)
      << r.out;
#endif
}

TEST_F(Cli, DistributedHelpIsTheOpsHelp) {
  // `run OP --distributed --help` prints the op's help (the same flags), wherever the flags are.
  for (const std::string op : {"tensor_scatter_nd_add", "boolean_mask_update", "substr"}) {
    const Result single = run({"run", op, "--help"});
    ASSERT_EQ(single.status, 0) << single.err;
    EXPECT_NE(single.out.find("\n--distributed: under `mpiexec -n N`"), std::string::npos)
        << single.out;
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"run", op, "--distributed", "--help"},
             {"run", op, "-h", "--distributed"},
             {"run", op, "--out", "x.npy", "--distributed", "--help"}}) {
      const Result r = run(args);
      EXPECT_EQ(r.status, 0) << r.err;
      EXPECT_EQ(r.out, single.out);
      EXPECT_TRUE(r.err.empty()) << r.err;
    }
  }
}

// The op table's `distributed` decides whether an op's help mentions --distributed: every op
// of a family with a distributed form says so, and the others do not.
TEST_F(Cli, HelpMentionsDistributedExactlyForTheTablesDistributedForms) {
  int with = 0;
  for (const OpFamilyInfo& family : kOpFamilies) {
    if ((family.surfaces & surface::kCli) == 0) continue;
    for_each_op_name(family, [&](std::string_view name) {
      const Result r = run({"run", std::string(name), "--help"});
      ASSERT_EQ(r.status, 0) << name << ": " << r.err;
      EXPECT_EQ(r.out.find("\n--distributed: under `mpiexec -n N`") != std::string::npos,
                family.distributed)
          << name << ":\n"
          << r.out;
      with += family.distributed ? 1 : 0;
    });
  }
  EXPECT_GE(with, 5);  // the scatter combines at least
}

// Each op's --help lists the dtypes of its row of the op table, each once.
TEST_F(Cli, HelpListsTheDtypesOfTheOpTraits) {
  constexpr DataType kEveryType[] = {DataType::kBool,    DataType::kUInt8,   DataType::kInt8,
                                     DataType::kInt16,   DataType::kInt32,   DataType::kInt64,
                                     DataType::kFloat16, DataType::kBFloat16, DataType::kFloat32,
                                     DataType::kFloat64};
  // The ", "-separated names after "<label>: " up to ';' or the line's end.
  const auto names_after = [](const std::string& line, const std::string& label) {
    std::vector<std::string> names;
    const std::size_t at = line.find(label + ": ");
    if (at == std::string::npos) return names;
    const std::size_t begin = at + label.size() + 2;
    std::stringstream list(line.substr(begin, line.find(';', begin) - begin));
    for (std::string name; std::getline(list, name, ',');) {
      names.push_back(name.substr(name.find_first_not_of(' ')));
    }
    return names;
  };
  const auto expected = [&](unsigned set) {
    std::vector<std::string> names;
    for (DataType type : kEveryType) {
      if (dtypes::contains(set, type)) names.emplace_back(to_string(type));
    }
    return names;
  };
  int checked = 0;
  for (const OpFamilyInfo& family : kOpFamilies) {
    if ((family.surfaces & surface::kCli) == 0) continue;
    const std::string first(family.inputs.substr(0, family.inputs.find(',')));
    for_each_op_name(family, [&](std::string_view name) {
      const OpTraits* traits = find_op_traits(name);
      ASSERT_NE(traits, nullptr) << name;
      const Result r = run({"run", std::string(name), "--help"});
      ASSERT_EQ(r.status, 0) << name << ": " << r.err;
      const std::size_t at = r.out.find("\ndtypes: ");
      ASSERT_NE(at, std::string::npos) << name << ":\n" << r.out;
      const std::string line = r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
      if (traits->dtypes == dtypes::kNone) {
        EXPECT_EQ(names_after(line, first), std::vector<std::string>{"strings"}) << line;
      } else {
        EXPECT_EQ(names_after(line, first), expected(traits->dtypes)) << line;
      }
      if (traits->index_dtypes != dtypes::kNone) {
        EXPECT_EQ(names_after(line, std::string(traits->index_inputs)),
                  expected(traits->index_dtypes))
            << line;
      }
      ++checked;
    });
  }
  EXPECT_GE(checked, 21);  // every op of the table has a CLI form
}

TEST_F(Cli, UsageErrorsAreInvalidArgumentExit2) {
  const std::string t = save("t.npy", i32({1, 1, 1}, {3}));
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{}, "tensorbuf <command>"},
      {{"frobnicate"}, "InvalidArgument: unknown command"},
      {{"run"}, "InvalidArgument: tensorbuf run needs an op"},
      {{"run", "tensor_scatter_nd_div"}, "InvalidArgument: unknown op"},
      {{"run", "substr", "--bogus", "x"}, "InvalidArgument: unknown flag '--bogus'"},
      {{"run", "tensor_scatter_nd_sub", "--tensor", t, "--indices", t, "--updates", t},
       "InvalidArgument: missing flag '--out'"},
      {{"run", "tensor_scatter_nd_sub", "--tensor"},
       "InvalidArgument: flag '--tensor' needs a value"},
      {{"run", "boolean_mask_update", "--tensor", t, "--mask", t, "--updates", t, "--axis", "one",
        "--out", path("o.npy")},
       "InvalidArgument: --axis must be an integer"},
      {{"run", "substr", "--input", t, "--pos", t, "--len", t, "--unit", "rune", "--out",
        path("o.npy")},
       "InvalidArgument: --unit must be byte or utf8_char"},
      {{"run", "substr", "--input", t, "--pos", t, "--len", t, "--out-of-bounds", "wrap", "--out",
        path("o.npy")},
       "InvalidArgument: --out-of-bounds must be"},
      {{"run", "tensor_scatter_nd_add", "--tensor", t, "--indices", t, "--updates", t, "--device",
        "tpu", "--out", path("o.npy")},
       "InvalidArgument: --device must be cpu or cuda"},
      {{"bench", "--device", "gpu"}, "InvalidArgument: --device must be cpu, cuda or all"},
      {{"bench", "--sweep", "--sizes", "12"}, "InvalidArgument: --sizes must be MIN:MAX[:STEP]"},
      {{"bench", "--sizes", "10:12"}, "InvalidArgument: --sizes needs --sweep"},
      {{"bench", "--sweep", "--device", "all"},
       "InvalidArgument: --sweep runs on one device: --device cpu or cuda, not 'all'"},
      {{"info", "extra"}, "InvalidArgument: unexpected argument 'extra'"},
  };
  for (const auto& [args, prefix] : cases) {
    const Result r = run(args);
    EXPECT_EQ(r.status, 2) << prefix << " / " << r.err;
    if (args.empty()) {
      EXPECT_NE(r.err.find(prefix), std::string::npos) << r.err;
    } else {
      expect_error_line(r, prefix);
    }
  }
  EXPECT_FALSE(fs::exists(path("o.npy")));
}

TEST_F(Cli, ExamplesMatchTheDocumentedResults) {
  const Result r = run({"examples"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("all match the documented results"), std::string::npos) << r.out;
  for (const char* id : {"TB1 [cpu]", "TB21 [cpu]", "T1 [cpu]", "T23 [cpu]", "B1/1 [cpu]",
                         "B16 [cpu]", "S1 [cpu]", "S18 [cpu]"}) {
    EXPECT_NE(r.out.find(id), std::string::npos) << id;
  }
  EXPECT_NE(r.out.find("T1 [cpu] sub(ones([8], int32), [[4],[3],[1],[7]], [9,10,11,12]) -> "
                       "[1,-10,1,-9,-8,1,1,-11]\n"),
            std::string::npos);
  if (cuda_available()) {
    EXPECT_NE(r.out.find("T1 [cuda:0]"), std::string::npos);
  }
}

TEST_F(Cli, ExamplesOnlyFiltersById) {
  const Result r = run({"examples", "--only", "TB1", "--device", "cpu"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("TB1 [cpu]"), std::string::npos);
  EXPECT_EQ(r.out.find("T1 [cpu]"), std::string::npos);
}

// Every malformed or unsupported .npy file of tests/data/npy: exit 2, one InvalidArgument line
// on stderr, no output file.
TEST_F(Cli, CudaWhereUnusableIsUnavailableExit1) {
  if (cuda_available()) GTEST_SKIP() << "CUDA is usable here";
  const std::string t = save("t.npy", i32({1, 2}, {2}));
  const std::string i = save("i.npy", i32({0}, {1, 1}));
  const std::string u = save("u.npy", i32({1}, {1}));
  const Result r = run({"run", "tensor_scatter_nd_add", "--tensor", t, "--indices", i, "--updates",
                        u, "--device", "cuda", "--out", path("o.npy")});
  EXPECT_EQ(r.status, 1);
  expect_error_line(r, "Unavailable: ");
  EXPECT_FALSE(fs::exists(path("o.npy")));
}

// Each op through the CLI on CUDA, with exact results (skips where CUDA is unusable).
TEST_F(Cli, BenchQuickWritesJson) {
#if TENSORBUF_CLI_HAS_BENCH
  const Result r = run({"bench", "--quick", "--device", "cpu", "--filter", "load_array_f32_to_u8",
                        "--json", path("bench.json")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("load_array_f32_to_u8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ratio"), std::string::npos);
  const std::string json = read_text(path("bench.json"));
  for (const char* key : {"\"case\": \"load_array_f32_to_u8\"", "\"device\": \"cpu\"",
                          "\"bytes\": ", "\"seconds\": ", "\"gbps\": ", "\"ratio_to_limit\": "}) {
    EXPECT_NE(json.find(key), std::string::npos) << key << " in " << json;
  }
  EXPECT_EQ(json.front(), '[');
#else
  const Result r = run({"bench", "--quick"});
  EXPECT_EQ(r.status, 1);
  expect_error_line(r, "Unavailable: benchmarks are not built");
#endif
}

#if TENSORBUF_CLI_HAS_BENCH
// Each point of a sweep JSON is one whole line "  {...}" (a line cut short would not parse).
void expect_whole_points(const std::string& json, std::size_t points) {
  std::istringstream lines(json);
  std::size_t seen = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line == "[" || line == "]") continue;
    ++seen;
    EXPECT_EQ(line.rfind("  {\"form\": ", 0), 0u) << line;
    const bool closed = line.ends_with("}") || line.ends_with("},");
    EXPECT_TRUE(closed) << line;
  }
  EXPECT_EQ(seen, points) << json;
}
#endif

// The size sweep: one line per (form, size) that ran, and the same points in the JSON.
TEST_F(Cli, BenchSweepPrintsAndWritesEachPoint) {
#if TENSORBUF_CLI_HAS_BENCH
  // The longest form name too: its JSON points are the longest lines.
  const Result r = run({"bench", "--sweep", "--quick", "--sizes", "10:12", "--filter",
                        "^(substr_byte_scalar|boolean_mask_update_f32_elements_in_place)$",
                        "--json", path("sweep.json")});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("op p50"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("substr_byte_scalar                              1024"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("substr_byte_scalar                              4096"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("substr_utf8"), std::string::npos) << r.out;
  const std::string json = read_text(path("sweep.json"));
  for (const char* key :
       {"\"form\": \"substr_byte_scalar\", \"device\": \"cpu\", "
        "\"yardstick\": \"memcpy\", \"unit\": \"strings\", \"size\": 1024,",
        "\"size\": 4096,", "\"op_p50\": ", "\"op_p99\": ", "\"ref_p50\": ", "\"op_faults\": "}) {
    EXPECT_NE(json.find(key), std::string::npos) << key << " in " << json;
  }
  expect_whole_points(json, 4);
#else
  GTEST_SKIP() << "benchmarks are not built in";
#endif
}

// The sweep on CUDA: each area's forms on the device, beside a device copy (skipped without a
// GPU); where CUDA is unusable, exit 1 with the reason and no JSON.
TEST_F(Cli, BenchSweepOnCuda) {
#if TENSORBUF_CLI_HAS_BENCH
  const std::string filter =
      "^(scatter_nd_add_f32_slices|scatter_nd_max_f32_elements_in_place|"
      "boolean_mask_update_f32_rows|substr_utf8_elementwise)$";
  const Result r = run({"bench", "--sweep", "--device", "cuda", "--quick", "--sizes", "10:16:6",
                        "--filter", filter, "--json", path("sweep.json")});
  if (!cuda_available()) {
    EXPECT_EQ(r.status, 1);
    expect_error_line(r, "Unavailable: --device cuda: " + cuda_availability_reason());
    EXPECT_FALSE(fs::exists(path("sweep.json")));
    return;
  }
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("size sweep, cuda:0, calls timed to the end of their GPU work"),
            std::string::npos)
      << r.out;
  const std::string json = read_text(path("sweep.json"));
  const std::pair<const char*, const char*> forms[] = {
      {"scatter_nd_add_f32_slices", "updated elements"},
      {"scatter_nd_max_f32_elements_in_place", "updated elements"},
      {"boolean_mask_update_f32_rows", "tensor elements"},
      {"substr_utf8_elementwise", "strings"}};
  for (const auto& [form, unit] : forms) {
    for (const char* size : {"1024", "65536"}) {
      const std::string entry = std::string("{\"form\": \"") + form +
                                "\", \"device\": \"cuda:0\", \"yardstick\": \"device copy\", " +
                                "\"unit\": \"" + unit + "\", \"size\": " + size + ",";
      EXPECT_NE(json.find(entry), std::string::npos) << entry << " in " << json;
    }
  }
  expect_whole_points(json, 8);
#else
  GTEST_SKIP() << "benchmarks are not built in";
#endif
}

// Without a usable GPU the CUDA cases are summed up in one line that says why they were
// skipped, not one line per case; the JSON keeps one "skipped" entry per case.
TEST_F(Cli, BenchSkippedCudaCasesAreOneLine) {
#if TENSORBUF_CLI_HAS_BENCH
  if (cuda_available()) GTEST_SKIP() << "CUDA is usable here: no case is skipped";
  const Result r = run(
      {"bench", "--quick", "--device", "cuda", "--filter", "sync_", "--json", path("bench.json")});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string reason = cuda_availability_reason();
  ASSERT_FALSE(reason.empty());
  std::size_t count = 0;
  for (std::size_t at = r.out.find(reason); at != std::string::npos;
       at = r.out.find(reason, at + reason.size())) {
    ++count;
  }
  EXPECT_EQ(count, 1u) << r.out;
  EXPECT_NE(r.out.find("cuda: 2 cases skipped: CUDA unavailable: " + reason + "\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("sync_host_to_device_1gib"), std::string::npos) << r.out;
  const std::string json = read_text(path("bench.json"));
  for (const char* name : {"sync_host_to_device_1gib", "sync_device_to_host_1gib"}) {
    EXPECT_NE(json.find(std::string("{\"case\": \"") + name +
                        "\", \"device\": \"cuda\", \"skipped\": \"CUDA unavailable: "),
              std::string::npos)
        << name << " in " << json;
  }
#else
  GTEST_SKIP() << "benchmarks are not built in";
#endif
}

}  // namespace
}  // namespace tensorbuf
