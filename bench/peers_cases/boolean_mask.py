"""Peers of bench/bench_boolean_mask.cpp: NumPy `t[m]`, PyTorch `t[m]` on the CPU and, where
PyTorch sees a GPU, on CUDA; CuPy `t[m]` on CUDA.

Same cases, sizes and data as the C++ file: tensor random_floats(rows * inner, -1, 1, seed 11),
a 1-D mask random_bools(rows, density, seed 12). Bytes as the C++ case counts them: the mask,
and the selected rows read and written.
"""
from . import Case, cupy_sync, random_bools, random_floats

# name: (rows, inner, density)
CASES = {
    "boolean_mask_f32_4mx8_d001": (4 << 20, 8, 0.01),
    "boolean_mask_f32_4mx8_d050": (4 << 20, 8, 0.5),
    "boolean_mask_f32_4mx8_d099": (4 << 20, 8, 0.99),
    "boolean_mask_f32_64m_d050": (1 << 26, 1, 0.5),
}

# spec/indexing.md's issue: >= 0.7x memcpy and >= 3x NumPy `t[mask]` on the CPU.
TARGETS = {
    ("boolean_mask_f32_4mx8_d050", "cpu"): {"ratio_to_limit": 0.7, "vs": {"numpy": 3.0}},
    ("boolean_mask_f32_64m_d050", "cpu"): {"ratio_to_limit": 0.7, "vs": {"numpy": 3.0}},
}


def _data(rows, inner, density):
    mask = random_bools(rows, density, 12).astype(bool)
    tensor = random_floats(rows * inner, -1.0, 1.0, 11)
    if inner > 1:
        tensor = tensor.reshape(rows, inner)
    return tensor, mask


def cases(ctx):
    torch = ctx.torch
    out = []
    for name, (rows, inner, density) in CASES.items():
        n = int(random_bools(rows, density, 12).sum())
        nbytes = rows + 2.0 * 4.0 * n * inner

        def numpy_setup(rows=rows, inner=inner, density=density):
            t, m = _data(rows, inner, density)
            return lambda: t[m]
        out.append(Case(name, "cpu", "numpy", nbytes, numpy_setup))

        def cupy_setup(rows=rows, inner=inner, density=density):
            cp = ctx.need("cupy")
            t, m = (cp.asarray(a) for a in _data(rows, inner, density))
            return lambda: t[m]
        out.append(Case(name, "cuda", "cupy", nbytes, cupy_setup, cupy_sync(ctx)))

        if torch is None:
            continue
        for device in ["cpu"] + (["cuda"] if ctx.torch_cuda else []):
            def torch_setup(rows=rows, inner=inner, density=density, device=device):
                t, m = (torch.from_numpy(a).to(device) for a in _data(rows, inner, density))
                return lambda: t[m]
            sync = torch.cuda.synchronize if device == "cuda" else None
            out.append(Case(name, device, "torch", nbytes, torch_setup, sync))
    return out + family_cases(ctx)


# The family's other ops of bench_boolean_mask.cpp, [4M, 8] at density 0.5: boolean_mask_into
# (NumPy np.compress into an `out` sized once; PyTorch masked_select of the expanded mask into
# an `out` sized once) and compress on axis 0 (np.compress; PyTorch index_select of the true
# rows, the mask turned into indices inside the call).
def family_cases(ctx):
    np = ctx.numpy
    torch = ctx.torch
    rows, inner, density = CASES["boolean_mask_f32_4mx8_d050"]
    n = int(random_bools(rows, density, 12).sum())
    nbytes = rows + 2.0 * 4.0 * n * inner
    out = []

    def numpy_into():
        t, m = _data(rows, inner, density)
        result = np.empty((n, inner), dtype=np.float32)
        return lambda: np.compress(m, t, axis=0, out=result)

    def numpy_compress():
        t, m = _data(rows, inner, density)
        return lambda: np.compress(m, t, axis=0)
    out.append(Case("boolean_mask_into_f32_4mx8_d050", "cpu", "numpy", nbytes, numpy_into))
    out.append(Case("compress_f32_4mx8_d050", "cpu", "numpy", nbytes, numpy_compress))
    if torch is None:
        return out

    def torch_into():
        t, m = (torch.from_numpy(a) for a in _data(rows, inner, density))
        result = torch.empty(n * inner, dtype=torch.float32)
        return lambda: torch.masked_select(t, m[:, None], out=result)

    def torch_compress():
        t, m = (torch.from_numpy(a) for a in _data(rows, inner, density))
        return lambda: torch.index_select(t, 0, torch.nonzero(m).squeeze(1))
    out.append(Case("boolean_mask_into_f32_4mx8_d050", "cpu", "torch", nbytes, torch_into))
    out.append(Case("compress_f32_4mx8_d050", "cpu", "torch", nbytes, torch_compress))
    return out
