"""Peers of bench/bench_elements.cpp, on the CPU and, where PyTorch sees a GPU, on CUDA:
 - scatter_elements_add_f32_64kx64: PyTorch `t.scatter_reduce_(0, idx, upd, "sum")` (in place,
   include_self), NumPy `np.add.at(t, (idx, columns), upd)`;
 - gather_elements_f32_64kx64: PyTorch `t.gather(0, idx)`, NumPy `np.take_along_axis(t, idx, 0)`;
 - gather_f32_1mx64_rows: PyTorch `index_select`, NumPy `np.take(p, i, axis=0)`.

Same data as the C++ file: tensor random_floats(64K * 64, -1, 1, seed 31), indices
random_ints(64K * 64, 0, 64K, seed 32), updates random_floats(..., seed 33); the gather rows as
bench_gather_nd (seeds 21 and 22). Bytes as the C++ cases count them.
"""
from . import Case, cupy_sync, random_floats, random_ints

ROWS, WIDTH = 1 << 16, 64
PARAMS_ROWS = 1 << 20

TARGETS = {
    ("scatter_elements_add_f32_64kx64", "cpu"): {"vs": {"torch": 3.0}},
    ("gather_f32_1mx64_rows", "cpu"): {"ratio_to_limit": 0.7, "vs": {"torch": 1.2, "numpy": 3.0}},
}


def _elements():
    n = ROWS * WIDTH
    tensor = random_floats(n, -1.0, 1.0, 31).reshape(ROWS, WIDTH)
    idx = random_ints(n, 0, ROWS, 32).reshape(ROWS, WIDTH)
    updates = random_floats(n, -1.0, 1.0, 33).reshape(ROWS, WIDTH)
    return tensor, idx, updates


def _rows():
    params = random_floats(PARAMS_ROWS * WIDTH, -1.0, 1.0, 21).reshape(PARAMS_ROWS, WIDTH)
    return params, random_ints(PARAMS_ROWS, 0, PARAMS_ROWS, 22)


def _numpy_cases(np):
    n = ROWS * WIDTH

    def scatter():
        tensor, idx, updates = _elements()
        columns = np.broadcast_to(np.arange(WIDTH), idx.shape)
        return lambda: np.add.at(tensor, (idx, columns), updates)

    def gather_elements():
        tensor, idx, _ = _elements()
        return lambda: np.take_along_axis(tensor, idx, 0)

    def gather():
        params, idx = _rows()
        return lambda: params.take(idx, axis=0)

    return [
        Case("scatter_elements_add_f32_64kx64", "cpu", "numpy", 20.0 * n, scatter),
        Case("gather_elements_f32_64kx64", "cpu", "numpy", 16.0 * n, gather_elements),
        Case("gather_f32_1mx64_rows", "cpu", "numpy",
             8.0 * PARAMS_ROWS + 8.0 * PARAMS_ROWS * WIDTH, gather),
    ]


def _torch_cases(torch, device):
    n = ROWS * WIDTH
    sync = torch.cuda.synchronize if device == "cuda" else None

    def scatter():
        tensor, idx, updates = (torch.from_numpy(a).to(device) for a in _elements())
        return lambda: tensor.scatter_reduce_(0, idx, updates, "sum")

    def gather_elements():
        tensor, idx, _ = (torch.from_numpy(a).to(device) for a in _elements())
        return lambda: tensor.gather(0, idx)

    def gather():
        params, idx = (torch.from_numpy(a).to(device) for a in _rows())
        return lambda: params.index_select(0, idx)

    return [
        Case("scatter_elements_add_f32_64kx64", device, "torch", 20.0 * n, scatter, sync),
        Case("gather_elements_f32_64kx64", device, "torch", 16.0 * n, gather_elements, sync),
        Case("gather_f32_1mx64_rows", device, "torch",
             8.0 * PARAMS_ROWS + 8.0 * PARAMS_ROWS * WIDTH, gather, sync),
    ]


def cases(ctx):
    out = _numpy_cases(ctx.numpy)

    def cupy_gather_elements():
        cp = ctx.need("cupy")
        tensor, idx, _ = (cp.asarray(a) for a in _elements())
        return lambda: cp.take_along_axis(tensor, idx, 0)
    out.append(Case("gather_elements_f32_64kx64", "cuda", "cupy", 16.0 * ROWS * WIDTH,
                    cupy_gather_elements, cupy_sync(ctx)))

    if ctx.torch is not None:
        for device in ["cpu"] + (["cuda"] if ctx.torch_cuda else []):
            out.extend(_torch_cases(ctx.torch, device))
    return out
