#!/usr/bin/env python3
"""The Python call's own cost: tensor_scatter_nd_add_in_place of one row into a
[16, 4] float32 NumPy array, median per call over several repeats, minus the same call made
from C++ in the same run (case scatter_nd_add_one_row_16x4_in_place_borrowed/cpu of
tensorbuf_bench). Target: under 10 us.

usage: PYTHONPATH=build/default/python /usr/bin/python3 bench/python_overhead.py [BUILD_DIR]
"""

import json
import statistics
import subprocess
import sys
import timeit

import numpy as np

import tensorbuf as tb


def python_per_call_us(repeats=21, calls=2000):
    table = np.zeros((16, 4), np.float32)
    index = np.array([[3]], np.int64)
    row = np.ones((1, 4), np.float32)
    op = tb.tensor_scatter_nd_add_in_place
    op(table, index, row)  # warm-up
    times = timeit.repeat(lambda: op(table, index, row), number=calls, repeat=repeats)
    per_call = sorted(t / calls * 1e6 for t in times)
    return statistics.median(per_call), per_call[int(0.99 * (len(per_call) - 1))]


def cpp_per_call_us(build):
    output = subprocess.run(
        [f"{build}/bench/tensorbuf_bench",
         "--benchmark_filter=scatter_nd_add_one_row_16x4_in_place_borrowed/cpu",
         "--benchmark_repetitions=5", "--benchmark_format=json"],
        check=True, capture_output=True, text=True).stdout
    runs = [b for b in json.loads(output)["benchmarks"] if b.get("run_type") == "iteration"]
    unit = {"ns": 1e-3, "us": 1.0, "ms": 1e3}
    return statistics.median(b["real_time"] * unit[b["time_unit"]] for b in runs)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build/default"
    cpp = cpp_per_call_us(build)
    python_median, python_p99 = python_per_call_us()
    overhead = python_median - cpp
    print(f"python call: median {python_median:.2f} us (p99 of repeats {python_p99:.2f} us)")
    print(f"C++ call:    median {cpp:.2f} us")
    print(f"overhead:    {overhead:.2f} us per call (target < 10 us): "
          f"{'met' if overhead < 10 else 'NOT met'}")


if __name__ == "__main__":
    main()
