"""Peers of bench/bench_gather_nd.cpp: NumPy `np.take(params, idx, axis=0)` and PyTorch
`params.index_select(0, idx)` on the CPU and, where PyTorch sees a GPU, on CUDA; CuPy `take` on
CUDA.

Same case, sizes and data as the C++ file: params random_floats(rows * 64, -1, 1, seed 21) of
shape [rows, 64], indices random_ints(rows, 0, rows, seed 22). Bytes as the C++ case counts
them: the indices, the selected rows read and the output written.
"""
from . import Case, cupy_sync, random_floats, random_ints

TARGETS = {
    ("gather_nd_f32_1mx64_rows", "cpu"): {"ratio_to_limit": 0.7,
                                          "vs": {"torch": 1.2, "numpy": 3.0}},
}

# name: (params rows, width, gathered rows)
CASES = {
    "gather_nd_f32_1mx64_rows": (1 << 20, 64, 1 << 20),
}


def _data(params_rows, width, rows):
    params = random_floats(params_rows * width, -1.0, 1.0, 21).reshape(params_rows, width)
    idx = random_ints(rows, 0, params_rows, 22)
    return params, idx


def cases(ctx):
    torch = ctx.torch
    out = []
    for name, (params_rows, width, rows) in CASES.items():
        nbytes = 8.0 * rows + 2.0 * 4.0 * rows * width

        def numpy_setup(p=params_rows, w=width, r=rows):
            params, idx = _data(p, w, r)
            return lambda: params.take(idx, axis=0)
        out.append(Case(name, "cpu", "numpy", nbytes, numpy_setup))

        def cupy_setup(p=params_rows, w=width, r=rows):
            cp = ctx.need("cupy")
            params, idx = (cp.asarray(a) for a in _data(p, w, r))
            return lambda: params.take(idx, axis=0)
        out.append(Case(name, "cuda", "cupy", nbytes, cupy_setup, cupy_sync(ctx)))

        if torch is None:
            continue
        for device in ["cpu"] + (["cuda"] if ctx.torch_cuda else []):
            def torch_setup(p=params_rows, w=width, r=rows, device=device):
                params, idx = (torch.from_numpy(a).to(device) for a in _data(p, w, r))
                return lambda: params.index_select(0, idx)
            sync = torch.cuda.synchronize if device == "cuda" else None
            out.append(Case(name, device, "torch", nbytes, torch_setup, sync))
    return out
