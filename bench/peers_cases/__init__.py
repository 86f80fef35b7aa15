"""Shared pieces of the peer benchmarks (bench/peers.py).

A case module bench/peers_cases/<area>.py defines

    def cases(ctx):            # -> list of Case
        ...
    TARGETS = {...}            # optional, read by bench/compare.py

Each Case times one peer (NumPy, PyTorch, CuPy, JAX, pyarrow, ...) on the same work as the
tensorbuf case of the same `name` and `device` (bench/bench_<area>.cpp): same sizes, same bytes
(read + written by the op), and the same data -- random_floats / random_ints / random_bools
below give, bit for bit, the values of bench/bench_support.hpp.

A Case's setup gets an optional library with ctx.need("cupy") (raises when it did not import:
bench/peers.py then reports the case on stderr and skips it), so a peer's Cases are listed
whether or not its library is installed. The timed call must include the work's completion:
Case.sync for CuPy / PyTorch CUDA (see cupy_sync), block_until_ready() inside the call for JAX.

TARGETS maps (case, device) to {"ratio_to_limit": x, "vs": {peer: y}}: compare.py checks that
tensorbuf reaches x times the same-run limit and y times the peer's throughput.
"""
import dataclasses
from typing import Callable, Optional

import numpy as np

MiB = 1 << 20
GiB = 1 << 30


@dataclasses.dataclass
class Case:
    name: str                    # the tensorbuf case name, e.g. "load_array_f32_to_u8"
    device: str                  # "cpu" or "cuda"
    peer: str                    # "numpy", "torch", "cupy", "jax", "pyarrow", ...
    bytes: float                 # bytes read + written, as the tensorbuf case counts them
    setup: Callable[[], Callable[[], object]]  # builds the inputs; returns the timed call
    sync: Optional[Callable[[], None]] = None  # waits for device work after each call


def cupy_sync(ctx):
    """Case.sync of a CuPy peer: waits for the current device (called only after a setup that
    got ctx.need("cupy"))."""
    return lambda: ctx.cupy.cuda.Device().synchronize()


_M30 = np.uint64(30)
_M27 = np.uint64(27)
_M31 = np.uint64(31)
_CHUNK = 1 << 22


def random_bits(n, seed):
    """SplitMix64 of (seed << 32) + i for i in [0, n): bench_support.hpp's random_bits."""
    out = np.empty(n, dtype=np.uint64)
    for start in range(0, n, _CHUNK):
        stop = min(n, start + _CHUNK)
        out[start:stop] = _bits_at(np.arange(start, stop, dtype=np.uint64), seed)
    return out


def _unit(bits):
    return (bits >> np.uint64(40)).astype(np.float64) * (2.0 ** -24)


def random_floats(n, lo, hi, seed):
    """float32 values uniform in [lo, hi), identical to bench::random_floats."""
    out = np.empty(n, dtype=np.float32)
    for start in range(0, n, _CHUNK):
        stop = min(n, start + _CHUNK)
        i = np.arange(start, stop, dtype=np.uint64)
        out[start:stop] = (lo + (hi - lo) * _unit(_bits_at(i, seed))).astype(np.float32)
    return out


def _bits_at(i, seed):
    with np.errstate(over="ignore"):
        z = (np.uint64(seed) << np.uint64(32)) + i
        z += np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> _M30)) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> _M27)) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> _M31)


def random_ints(n, lo, hi, seed):
    """int64 values uniform in [lo, hi) (lo + bits % (hi - lo)), identical to bench::random_ints."""
    out = np.empty(n, dtype=np.int64)
    span = np.uint64(hi - lo)
    for start in range(0, n, _CHUNK):
        stop = min(n, start + _CHUNK)
        bits = _bits_at(np.arange(start, stop, dtype=np.uint64), seed)
        out[start:stop] = (bits % span).astype(np.int64) + lo
    return out


def random_bools(n, p_true, seed):
    """uint8 0/1 values, 1 with probability p_true, identical to bench::random_bools."""
    out = np.empty(n, dtype=np.uint8)
    for start in range(0, n, _CHUNK):
        stop = min(n, start + _CHUNK)
        out[start:stop] = _unit(_bits_at(np.arange(start, stop, dtype=np.uint64), seed)) < p_true
    return out
