"""Peers of bench/bench_boolean_mask_update.cpp: NumPy `o = t.copy(); o[m] = u` and `t[m] = u`,
PyTorch the same (`o = t.clone(); o[m] = u`, `t[m] = u`), on the CPU and, where PyTorch sees a
GPU, on CUDA; CuPy the same as NumPy on CUDA.

Same cases, sizes and data as the C++ file: tensor random_floats(rows * inner, -1, 1, seed 11),
a 1-D mask random_bools(rows, density, seed 12), updates [n] + trailing
random_floats(n * inner, 2, 3, seed 13). Bytes as the C++ case counts them: out of place,
tensor read + output written + mask + updates; in place, mask + updates + masked rows written.
"""
from . import Case, cupy_sync, random_bools, random_floats

# name: (rows, inner, density)
CASES = {
    "boolean_mask_update_f32_4mx8_d001": (4 << 20, 8, 0.01),
    "boolean_mask_update_f32_4mx8_d050": (4 << 20, 8, 0.5),
    "boolean_mask_update_f32_4mx8_d099": (4 << 20, 8, 0.99),
    "boolean_mask_update_f32_64m_d050": (1 << 26, 1, 0.5),
}

TARGETS = {
    ("boolean_mask_update_f32_4mx8_d001", "cpu"): {"ratio_to_limit": 0.7},
    ("boolean_mask_update_f32_4mx8_d050", "cpu"): {"ratio_to_limit": 0.7, "vs": {"numpy": 2.5}},
    ("boolean_mask_update_f32_4mx8_d099", "cpu"): {"ratio_to_limit": 0.7},
    ("boolean_mask_update_f32_64m_d050", "cpu"): {"ratio_to_limit": 0.7, "vs": {"numpy": 2.5}},
    ("boolean_mask_update_in_place_f32_4mx8_d050", "cpu"): {"vs": {"numpy": 3.0}},
    ("boolean_mask_update_in_place_f32_64m_d050", "cpu"): {"vs": {"numpy": 3.0}},
    ("boolean_mask_update_in_place_f32_4mx8_d050", "cuda"): {"vs": {"torch": 2.5}},
}


def _in_place_name(name):
    return name.replace("boolean_mask_update_", "boolean_mask_update_in_place_", 1)


def _data(np, rows, inner, density):
    mask = random_bools(rows, density, 12).astype(bool)
    n = int(mask.sum())
    tensor = random_floats(rows * inner, -1.0, 1.0, 11)
    updates = random_floats(n * inner, 2.0, 3.0, 13)
    if inner > 1:
        tensor = tensor.reshape(rows, inner)
        updates = updates.reshape(n, inner)
    return tensor, mask, updates


def traffic_bytes(rows, inner, n, in_place):
    updates = 4.0 * n * inner
    if in_place:
        return rows + 2.0 * updates
    return 2.0 * 4.0 * rows * inner + rows + updates


def _assignment(t, m, u, in_place, copy_method):
    """The timed call: `t[m] = u` in place, else a copy of t (`copy_method`) updated."""
    if in_place:
        def assign():
            t[m] = u
        return assign

    def call():
        o = getattr(t, copy_method)()
        o[m] = u
        return o
    return call


def cases(ctx):
    np = ctx.numpy
    torch = ctx.torch
    out = []
    for base, (rows, inner, density) in CASES.items():
        n = int(random_bools(rows, density, 12).sum())
        for in_place in (False, True):
            name = _in_place_name(base) if in_place else base
            nbytes = traffic_bytes(rows, inner, n, in_place)

            def numpy_setup(rows=rows, inner=inner, density=density, in_place=in_place):
                return _assignment(*_data(np, rows, inner, density), in_place, "copy")
            out.append(Case(name, "cpu", "numpy", nbytes, numpy_setup))

            def cupy_setup(rows=rows, inner=inner, density=density, in_place=in_place):
                cp = ctx.need("cupy")
                arrays = (cp.asarray(a) for a in _data(np, rows, inner, density))
                return _assignment(*arrays, in_place, "copy")
            out.append(Case(name, "cuda", "cupy", nbytes, cupy_setup, cupy_sync(ctx)))

            if torch is None:
                continue
            devices = ["cpu"] + (["cuda"] if ctx.torch_cuda else [])
            for device in devices:
                def torch_setup(rows=rows, inner=inner, density=density, in_place=in_place,
                                device=device):
                    arrays = (torch.from_numpy(a).to(device)
                              for a in _data(np, rows, inner, density))
                    return _assignment(*arrays, in_place, "clone")
                sync = torch.cuda.synchronize if device == "cuda" else None
                out.append(Case(name, device, "torch", nbytes, torch_setup, sync))
    return out
