#!/usr/bin/python3
"""Times tensorbuf's benchmark cases on the peers -- NumPy and PyTorch on the CPU; on a GPU
machine also PyTorch CUDA, CuPy, JAX and pyarrow when importable -- with the same sizes, bytes
and data (bench/peers_cases/__init__.py), and writes JSON for bench/compare.py.

    /usr/bin/python3 bench/peers.py [--quick] [--device cpu|cuda|all] [--threads N]
                                    [--cases NAME ...] [--filter REGEX] [--json FILE]
                                    [--list]

Case modules are loaded from bench/peers_cases/*.py (each defines cases(ctx)). Threads: the
same count tensorbuf uses (TENSORBUF_NUM_THREADS, else all CPUs), set in PyTorch. Each case is
run once to warm up, then timed `repeats` times; the median is reported. A peer whose library
did not import, or whose setup raises, is reported on stderr (case, device, peer, error),
listed under "skipped" in the JSON, and left out; a peer that fails while timed is reported on
stderr and listed in "results" with its "error". --list prints "case device peer" per selected
case, a line each, and times nothing (tests/tools/test_bench_coverage.cpp reads it).
"""
import argparse
import datetime
import importlib
import json
import os
import pkgutil
import platform
import re
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy  # noqa: E402

import peers_cases  # noqa: E402


class Context:
    """What the case modules may use: the libraries that imported, and the settings."""

    def __init__(self, args):
        self.quick = args.quick
        self.threads = args.threads
        self.numpy = numpy
        self.missing = {}  # library -> why it is not available
        self.torch = self._import("torch")
        if self.torch is not None:
            self.torch.set_num_threads(args.threads)
        want_cuda = args.device in ("cuda", "all")
        self.torch_cuda = bool(want_cuda and self.torch is not None and self.torch.cuda.is_available())
        self.cupy = self._import("cupy") if want_cuda else None
        if self.cupy is not None:
            try:
                self.cupy.cuda.runtime.getDeviceCount()
            except Exception as error:  # noqa: BLE001 -- no driver or no device
                self.cupy = None
                self.missing["cupy"] = f"no CUDA device: {error}"
        if want_cuda:
            # JAX: no 75% preallocation of the GPU (the other peers run in this process too),
            # and int64 indices like the other peers'.
            os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
            os.environ.setdefault("JAX_ENABLE_X64", "1")
        self.jax = self._import("jax") if want_cuda else None
        self.pyarrow = self._import("pyarrow")

    def _import(self, name):
        try:
            return importlib.import_module(name)
        except Exception as error:  # noqa: BLE001 -- any import failure means "not available"
            self.missing[name] = f"{type(error).__name__}: {error}"
            return None

    def need(self, name):
        """The library `name` ("cupy", "jax", "pyarrow", ...); raises when it is not available
        (from a Case's setup: the case is then reported and skipped)."""
        module = getattr(self, name)
        if module is None:
            why = self.missing.get(name, "not loaded for this --device")
            raise RuntimeError(f"{name} not available ({why})")
        return module

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


def load_cases(ctx, args):
    """The cases of args.device (all for "all"), named in args.cases if given, whose name
    matches args.filter if given."""
    pattern = re.compile(args.filter) if args.filter else None
    cases = []
    for info in sorted(pkgutil.iter_modules(peers_cases.__path__), key=lambda m: m.name):
        module = importlib.import_module("peers_cases." + info.name)
        if not hasattr(module, "cases"):
            continue
        for case in module.cases(ctx):
            if args.device != "all" and case.device != args.device:
                continue
            if args.cases and case.name not in args.cases:
                continue
            if pattern and not pattern.search(case.name):
                continue
            cases.append(case)
    return cases


def time_call(call, sync, repeats):
    call()  # warm up: allocator, page faults, kernels, JIT compilation
    if sync:
        sync()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        if sync:
            sync()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 timed repeats instead of 7")
    parser.add_argument("--device", choices=["cpu", "cuda", "all"], default="all")
    default_threads = int(os.environ.get("TENSORBUF_NUM_THREADS", "0") or 0) or os.cpu_count()
    parser.add_argument("--threads", type=int, default=default_threads)
    parser.add_argument("--cases", nargs="*", default=[], help="only these case names")
    parser.add_argument("--filter", default=None, metavar="REGEX",
                        help="only the cases whose name matches REGEX (re.search)")
    parser.add_argument("--json", default=None, help="write the results here")
    parser.add_argument("--list", action="store_true",
                        help="print the selected cases (case device peer) and time nothing")
    args = parser.parse_args()

    ctx = Context(args)
    if args.list:
        for case in load_cases(ctx, args):
            print(case.name, case.device, case.peer)
        return
    repeats = 3 if args.quick else 7
    results = []
    skipped = []
    for case in load_cases(ctx, args):
        head = f"{case.name:32s} {case.device:5s} {case.peer:8s}"
        try:
            call = case.setup()
        except Exception as error:  # noqa: BLE001 -- report, skip, go on with the others
            print(f"{head} skipped: {type(error).__name__}: {error}", file=sys.stderr)
            skipped.append({"case": case.name, "device": case.device, "peer": case.peer,
                            "reason": f"{type(error).__name__}: {error}"})
            continue
        try:
            seconds = time_call(call, case.sync, repeats)
        except Exception as error:  # noqa: BLE001 -- report and go on with the others
            print(f"{head} failed: {type(error).__name__}: {error}", file=sys.stderr)
            results.append({"case": case.name, "device": case.device, "peer": case.peer,
                            "error": str(error)})
            continue
        finally:
            del call  # free the case's inputs before the next case builds its own
        gbps = case.bytes / seconds / 1e9
        print(f"{head} {seconds * 1e3:10.3f} ms {gbps:8.2f} GB/s")
        results.append({"case": case.name, "device": case.device, "peer": case.peer,
                        "bytes": case.bytes, "seconds": seconds, "gbps": gbps})
    doc = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "machine": machine(), "threads": args.threads, "versions": ctx.versions(),
           "repeats": repeats, "results": results, "skipped": skipped}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
