"""Peers of bench/bench_tensor_buffer.cpp: load_array conversions (CPU) and host<->device
copies of 1 GiB from pinned memory (CUDA)."""
from . import Case, GiB, MiB, random_floats

N = 64 * MiB          # kConvertElements
SEED, LO, HI = 1, -64.0, 320.0

TARGETS = {
    ("load_array_f32_to_u8", "cpu"): {"ratio_to_limit": 0.6, "vs": {"torch": 5.0}},
    ("load_array_f32_to_f16", "cpu"): {"ratio_to_limit": 0.5},
    ("load_array_f32_to_bf16", "cpu"): {"ratio_to_limit": 0.5},
}


def cases(ctx):
    out = []
    data = {}

    def floats():
        if "x" not in data:
            data["x"] = random_floats(N, LO, HI, SEED)
        return data["x"]

    np = ctx.numpy
    out.append(Case("load_array_f32_to_u8", "cpu", "numpy", N * 5.0,
                    lambda: (lambda x=floats(): np.clip(x, 0, 255).astype(np.uint8))))
    out.append(Case("load_array_f32_to_f16", "cpu", "numpy", N * 6.0,
                    lambda: (lambda x=floats(): x.astype(np.float16))))
    torch = ctx.torch
    if torch is not None:
        def torch_input():
            return torch.from_numpy(floats())
        out.append(Case("load_array_f32_to_u8", "cpu", "torch", N * 5.0,
                        lambda: (lambda x=torch_input(): x.clamp(0, 255).to(torch.uint8))))
        out.append(Case("load_array_f32_to_f16", "cpu", "torch", N * 6.0,
                        lambda: (lambda x=torch_input(): x.to(torch.float16))))
        out.append(Case("load_array_f32_to_bf16", "cpu", "torch", N * 6.0,
                        lambda: (lambda x=torch_input(): x.to(torch.bfloat16))))
        if ctx.torch_cuda:
            def h2d():
                h = torch.empty(GiB, dtype=torch.uint8).pin_memory()
                d = torch.empty(GiB, dtype=torch.uint8, device="cuda")
                return lambda: d.copy_(h, non_blocking=True)

            def d2h():
                h = torch.empty(GiB, dtype=torch.uint8).pin_memory()
                d = torch.empty(GiB, dtype=torch.uint8, device="cuda")
                return lambda: h.copy_(d, non_blocking=True)
            out.append(Case("sync_host_to_device_1gib", "cuda", "torch", float(GiB), h2d,
                            torch.cuda.synchronize))
            out.append(Case("sync_device_to_host_1gib", "cuda", "torch", float(GiB), d2h,
                            torch.cuda.synchronize))
    cp = ctx.cupy
    if cp is not None:
        def cupy_h2d():
            h = cp.cuda.alloc_pinned_memory(GiB)
            host = np.frombuffer(h, dtype=np.uint8, count=GiB)
            d = cp.empty(GiB, dtype=cp.uint8)
            return lambda: d.set(host)

        def cupy_d2h():
            h = cp.cuda.alloc_pinned_memory(GiB)
            host = np.frombuffer(h, dtype=np.uint8, count=GiB)
            d = cp.empty(GiB, dtype=cp.uint8)
            return lambda: d.get(out=host)
        sync = cp.cuda.Device().synchronize
        out.append(Case("sync_host_to_device_1gib", "cuda", "cupy", float(GiB), cupy_h2d, sync))
        out.append(Case("sync_device_to_host_1gib", "cuda", "cupy", float(GiB), cupy_d2h, sync))
    return out
