#!/usr/bin/env python3
"""The Python call's own cost: tensor_scatter_nd_add_in_place of one row into a [16, 4] float32
tensor.

1. NumPy arguments: median per call over several repeats, minus the same call made from C++ in
   the same run (case scatter_nd_add_one_row_16x4_in_place_borrowed/cpu of tensorbuf_bench).
   Target: under 10 us.
2. The same call with NumPy, torch and tb.TensorBuffer arguments side by side, alternating in
   one process (round after round, each kind once per round, in turn), medians of the rounds
   in this thread's CPU time;
   torch's own index_add_ of the same row for scale. Target (issue 34): torch <= 1.3x NumPy.
   Where the accelerator tensorbuf._torch_fast is loaded, torch arguments are timed both
   through it and through the pure path (_torch_fast_enable(False)), in the same rounds.
   Without torch, only NumPy and tb are timed. Without a C++ bench build (no BUILD_DIR, or
   --side-by-side), only part 2 runs.

3. --device cuda (part 2 only): the same rounds with the torch tensors on the GPU (in place,
   through __dlpack__: the accelerator reads CPU tensors only), with and without
   stream=torch.cuda.current_stream(), a tb.TensorBuffer over the same CUDA memory and torch's
   index_add_ on the GPU, beside NumPy on the CPU as the yardstick. Each round's block of calls
   is timed in wall time from a synchronized GPU up to torch.cuda.synchronize() after its last
   call (one wait per block, not per call): the launch cost, or the GPU's, whichever bounds.
   Without torch or a CUDA device it says so and exits 0.

usage: PYTHONPATH=build/<preset>/python /usr/bin/python3 bench/python_overhead.py [BUILD_DIR]
       PYTHONPATH=... /usr/bin/python3 bench/python_overhead.py --side-by-side [--device cuda]
"""

import json
import os
import statistics
import subprocess
import sys
import time
import timeit

import numpy as np

import tensorbuf as tb

try:
    import torch
except ImportError:  # the side-by-side table then has no torch column
    torch = None


def per_call_us(call, calls):
    """CPU time of this thread per call (time.thread_time: on a shared machine, time other
    processes take the core from this one does not count)."""
    start = time.thread_time()
    for _ in range(calls):
        call()
    return (time.thread_time() - start) / calls * 1e6


def wall_per_call_us(call, calls, synchronize):
    """Wall time per call from an idle GPU to the end of the last call's GPU work."""
    synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        call()
    synchronize()
    return (time.perf_counter() - start) / calls * 1e6


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


def accelerated():
    """Whether tensorbuf._torch_fast, the accelerator for torch arguments, is loaded."""
    torch.zeros(1)
    state = getattr(tb._tensorbuf, "_torch_fast_state", None)
    return state is not None and state()["status"] == "loaded"


def cuda_cases(op, arrays):
    """The CUDA kinds: torch tensors on the GPU, a tb.TensorBuffer over them, index_add_."""
    tensors = tuple(torch.from_numpy(a.copy()).cuda() for a in arrays)
    stream = torch.cuda.current_stream()
    cases = {"torch cuda": lambda t=tensors: op(*t),
             "torch cuda, stream=current": lambda t=tensors: op(*t, stream=stream)}
    try:
        buffers = tuple(tb.from_dlpack(torch.from_numpy(a.copy()).cuda()) for a in arrays)
        cases["tb.TensorBuffer cuda"] = lambda b=buffers: op(*b)
    except Exception as error:  # noqa: BLE001 - reported, the rest still runs
        print(f"  tb.TensorBuffer cuda: left out, tb.from_dlpack raised "
              f"{type(error).__name__}: {error}")
    table, index = torch.zeros(16, 4, device="cuda"), torch.tensor([3], device="cuda")
    row = torch.ones(1, 4, device="cuda")
    cases["torch cuda index_add_ (reference)"] = lambda: table.index_add_(0, index, row)
    return cases


def side_by_side_us(rounds=31, calls=2000, device="cpu"):
    """{kind: median us per call} for the in-place scatter with each kind of argument."""
    op = tb.tensor_scatter_nd_add_in_place
    arrays = (np.zeros((16, 4), np.float32), np.array([[3]], np.int64),
              np.ones((1, 4), np.float32))
    cases = {"numpy": lambda a=arrays: op(*a)}
    if device == "cuda":
        cases.update(cuda_cases(op, arrays))
        timed = {kind: (lambda call, n, s=torch.cuda.synchronize: wall_per_call_us(call, n, s))
                 for kind in cases}
        return run_rounds(cases, timed, set(), rounds, calls)
    buffers = tuple(tb.asarray(a.copy()) for a in arrays)
    cases["tb.TensorBuffer"] = lambda b=buffers: op(*b)
    pure = set()  # the cases timed with the accelerator off
    if torch is not None:
        tensors = tuple(torch.from_numpy(a.copy()) for a in arrays)
        cases["torch"] = lambda t=tensors: op(*t)
        if accelerated():
            cases["torch, pure path"] = cases["torch"]
            pure.add("torch, pure path")
        table, index, row = torch.zeros(16, 4), torch.tensor([3]), torch.ones(1, 4)
        cases["torch index_add_ (reference)"] = lambda: table.index_add_(0, index, row)
    return run_rounds(cases, {kind: per_call_us for kind in cases}, pure, rounds, calls)


def run_rounds(cases, timed, pure, rounds, calls):
    """Each case once per round, in turn; pure: the cases run with the accelerator off. A case
    whose warm-up call raises is dropped, saying why (the other kinds still run)."""
    for kind, call in list(cases.items()):
        try:
            call()  # warm-up
        except Exception as error:  # noqa: BLE001 - reported, the rest still runs
            print(f"  {kind}: left out, its call raised {type(error).__name__}: {error}")
            del cases[kind]
    samples = {kind: [] for kind in cases}
    try:
        for _ in range(rounds):
            for kind, call in cases.items():
                if pure:
                    tb._tensorbuf._torch_fast_enable(kind not in pure)
                samples[kind].append(timed[kind](call, calls))
    finally:
        if pure:
            tb._tensorbuf._torch_fast_enable(True)
    return {kind: statistics.median(values) for kind, values in samples.items()}


def cuda_missing():
    """Why the CUDA rounds cannot run here, or None."""
    if torch is None:
        return "torch is not installed"
    if not torch.cuda.is_available():
        return f"torch {torch.__version__} sees no CUDA device"
    if not tb.cuda_available():
        return "this tensorbuf was built without CUDA or finds no usable device"
    return None


def print_side_by_side(device="cpu"):
    if device == "cuda":
        missing = cuda_missing()
        if missing:
            print(f"python_overhead --device cuda: skipped: {missing}")
            return
        medians = side_by_side_us(rounds=15, calls=500, device="cuda")
        where = f"GPU {torch.cuda.get_device_name()}, wall time to the end of the GPU work"
    else:
        medians = side_by_side_us()
        where = "CPU, this thread's CPU time"
    numpy_us = medians["numpy"]
    accelerator = "loaded" if torch and accelerated() else "not loaded"
    print(f"in-place scatter of one row into [16, 4] float32, alternating, medians; {where} "
          f"(torch {torch.__version__ if torch else 'absent'}, NumPy {np.__version__}; "
          f"accelerator: {accelerator}; load average {os.getloadavg()[0]:.2f}):")
    for kind, us in medians.items():
        print(f"  {kind:34s} {us:6.2f} us per call  ({us / numpy_us:.2f}x NumPy)")
    if "torch cuda" in medians:
        reference = medians.get("torch cuda index_add_ (reference)", float("nan"))
        print(f"torch cuda / NumPy (CPU): {medians['torch cuda'] / numpy_us:.2f}x; "
              f"/ torch's index_add_ on the GPU: {medians['torch cuda'] / reference:.2f}x")
    if "torch" in medians:
        ratio = medians["torch"] / numpy_us
        print(f"torch / NumPy: {ratio:.2f}x (target <= 1.3x): {'met' if ratio <= 1.3 else 'NOT met'}")


def main():
    args = sys.argv[1:]
    device = "cpu"
    if "--device" in args:
        at = args.index("--device")
        device = args[at + 1] if at + 1 < len(args) else ""
        del args[at:at + 2]
        if device not in ("cpu", "cuda"):
            sys.exit(f"python_overhead: --device cpu or cuda, not '{device}'")
    side_by_side_only = "--side-by-side" in args or device == "cuda"
    args = [a for a in args if a != "--side-by-side"]
    build = args[0] if args else "build/default"
    if not side_by_side_only and os.path.exists(f"{build}/bench/tensorbuf_bench"):
        cpp = cpp_per_call_us(build)
        python_median, python_p99 = python_per_call_us()
        overhead = python_median - cpp
        print(f"python call: median {python_median:.2f} us (p99 of repeats {python_p99:.2f} us)")
        print(f"C++ call:    median {cpp:.2f} us")
        print(f"overhead:    {overhead:.2f} us per call (target < 10 us): "
              f"{'met' if overhead < 10 else 'NOT met'}")
    print_side_by_side(device)


if __name__ == "__main__":
    main()
