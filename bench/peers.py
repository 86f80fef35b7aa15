#!/usr/bin/python3
"""Times tensorbuf's benchmark cases on the peers -- NumPy and PyTorch on the CPU; on a GPU
machine also PyTorch CUDA, CuPy, JAX and pyarrow when importable -- with the same sizes, bytes
and data (bench/peers_cases/__init__.py), and writes JSON for bench/compare.py.

    /usr/bin/python3 bench/peers.py [--quick] [--device cpu|cuda|all] [--threads N]
                                    [--cases NAME ...] [--json FILE]

Case modules are loaded from bench/peers_cases/*.py (each defines cases(ctx)). Threads: the
same count tensorbuf uses (TENSORBUF_NUM_THREADS, else all CPUs), set in PyTorch. Each case is
run once to warm up, then timed `repeats` times; the median is reported.
"""
import argparse
import datetime
import importlib
import json
import os
import pkgutil
import platform
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy  # noqa: E402

import peers_cases  # noqa: E402


def optional_import(name):
    try:
        return importlib.import_module(name)
    except Exception:  # noqa: BLE001 -- any import failure means "not available"
        return None


class Context:
    """What the case modules may use: the libraries that imported, and the settings."""

    def __init__(self, args):
        self.quick = args.quick
        self.threads = args.threads
        self.numpy = numpy
        self.torch = optional_import("torch")
        if self.torch is not None:
            self.torch.set_num_threads(args.threads)
        want_cuda = args.device in ("cuda", "all")
        self.torch_cuda = bool(want_cuda and self.torch is not None and self.torch.cuda.is_available())
        self.cupy = optional_import("cupy") if want_cuda else None
        if self.cupy is not None:
            try:
                self.cupy.cuda.runtime.getDeviceCount()
            except Exception:  # noqa: BLE001
                self.cupy = None
        self.jax = optional_import("jax") if want_cuda else None
        self.pyarrow = optional_import("pyarrow")

    def versions(self):
        out = {"python": platform.python_version(), "numpy": numpy.__version__}
        for name in ("torch", "cupy", "jax", "pyarrow"):
            mod = getattr(self, name)
            if mod is not None:
                out[name] = getattr(mod, "__version__", "?")
        if self.torch_cuda:
            out["torch_cuda"] = self.torch.version.cuda
            out["gpu"] = self.torch.cuda.get_device_name(0)
        return out


def machine():
    cpu = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = None
    try:
        with open("/proc/meminfo") as f:
            mem = int(f.readline().split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return {"cpu": cpu, "cpus": os.cpu_count(), "memory_bytes": mem,
            "system": platform.platform(), "hostname": platform.node(),
            "load_average": list(os.getloadavg())}


def load_cases(ctx, names):
    cases = []
    for info in sorted(pkgutil.iter_modules(peers_cases.__path__), key=lambda m: m.name):
        module = importlib.import_module("peers_cases." + info.name)
        if not hasattr(module, "cases"):
            continue
        for case in module.cases(ctx):
            if names and case.name not in names:
                continue
            cases.append(case)
    return cases


def time_case(case, repeats):
    call = case.setup()
    call()  # warm up: allocator, page faults, kernels
    if case.sync:
        case.sync()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        if case.sync:
            case.sync()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 timed repeats instead of 7")
    parser.add_argument("--device", choices=["cpu", "cuda", "all"], default="all")
    default_threads = int(os.environ.get("TENSORBUF_NUM_THREADS", "0") or 0) or os.cpu_count()
    parser.add_argument("--threads", type=int, default=default_threads)
    parser.add_argument("--cases", nargs="*", default=[], help="only these case names")
    parser.add_argument("--json", default=None, help="write the results here")
    args = parser.parse_args()

    ctx = Context(args)
    repeats = 3 if args.quick else 7
    results = []
    for case in load_cases(ctx, set(args.cases)):
        if args.device != "all" and case.device != args.device:
            continue
        try:
            seconds = time_case(case, repeats)
        except Exception as error:  # noqa: BLE001 -- report and go on with the others
            print(f"{case.name:32s} {case.device:5s} {case.peer:8s} failed: {error}")
            results.append({"case": case.name, "device": case.device, "peer": case.peer,
                            "error": str(error)})
            continue
        gbps = case.bytes / seconds / 1e9
        print(f"{case.name:32s} {case.device:5s} {case.peer:8s} {seconds * 1e3:10.3f} ms "
              f"{gbps:8.2f} GB/s")
        results.append({"case": case.name, "device": case.device, "peer": case.peer,
                        "bytes": case.bytes, "seconds": seconds, "gbps": gbps})
    doc = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "machine": machine(), "threads": args.threads, "versions": ctx.versions(),
           "repeats": repeats, "results": results}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
