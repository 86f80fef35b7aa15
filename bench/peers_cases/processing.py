"""Peers of bench/bench_processing.cpp: PyTorch `(x.float() - mean) / std` (and `.half()` of it)
on the CPU and on CUDA, and NumPy `(x.astype(np.float32) - mean) / std` (and
`.astype(np.float16)`) on the CPU.

Same cases, sizes and data as the C++ file: a uint8 image [h, w, 3] of random_ints(n, 0, 256,
seed 37), ImageNet's means and stddevs on the 0-255 scale (float32). Bytes as the C++ case
counts them: the image read (1 byte per element) and the output written (4 or 2).
"""
import numpy as np

from . import Case, random_floats, random_ints

MEANS = [123.675, 116.28, 103.53]
STDDEVS = [58.395, 57.12, 57.375]

# name: (height, width, output dtype)
CASES = {
    "processing_u8_1080p_normalize_f32": (1080, 1920, "float32"),
    "processing_u8_1080p_normalize_f16": (1080, 1920, "float16"),
    "processing_u8_224_normalize_f32": (224, 224, "float32"),
    "processing_u8_224_normalize_f16": (224, 224, "float16"),
}

# uint8 image -> normalize -> quantize (zero point -3, scale 0.02) -> int8 (an int8 model's input)
INT8_CASES = {
    "processing_u8_1080p_normalize_quantize_i8": (1080, 1920),
    "processing_u8_224_normalize_quantize_i8": (224, 224),
}

# quantize_linear float32 [h, w, 3] (uniform in [-3, 3), seed 38) -> uint8, scale 0.02, zero 128
QUANTIZE_LINEAR_CASES = {
    "quantize_linear_f32_1080p_u8": (1080, 1920),
    "quantize_linear_f32_224_u8": (224, 224),
}

# spec/processing.md 7: >= 0.7x a memcpy of the same bytes, >= 3x PyTorch on the CPU; on a GPU
# >= 0.7x a device-to-device copy.
TARGETS = {
    ("processing_u8_1080p_normalize_f32", "cpu"): {"ratio_to_limit": 0.7, "vs": {"torch": 3.0}},
    ("processing_u8_1080p_normalize_f16", "cpu"): {"ratio_to_limit": 0.7, "vs": {"torch": 3.0}},
    ("processing_u8_1080p_normalize_f32", "cuda"): {"ratio_to_limit": 0.7},
    ("processing_u8_1080p_normalize_f16", "cuda"): {"ratio_to_limit": 0.7},
    ("quantize_linear_f32_1080p_u8", "cpu"): {"ratio_to_limit": 0.7},
}


def _image(height, width):
    n = height * width * 3
    return random_ints(n, 0, 256, 37).astype(np.uint8).reshape(height, width, 3)


def cases(ctx):
    torch = ctx.torch
    out = []
    for name, (height, width, dtype) in CASES.items():
        n = height * width * 3
        nbytes = n * (1 + np.dtype(dtype).itemsize)

        def numpy_setup(height=height, width=width, dtype=dtype):
            x = _image(height, width)
            mean = np.asarray(MEANS, dtype=np.float32)
            std = np.asarray(STDDEVS, dtype=np.float32)
            if dtype == "float32":
                return lambda: (x.astype(np.float32) - mean) / std
            return lambda: ((x.astype(np.float32) - mean) / std).astype(np.float16)
        out.append(Case(name, "cpu", "numpy", nbytes, numpy_setup))

        if torch is None:
            continue

        for device in ["cpu"] + (["cuda"] if ctx.torch_cuda else []):
            def torch_setup(height=height, width=width, dtype=dtype, device=device):
                x = torch.from_numpy(_image(height, width)).to(device)
                mean = torch.tensor(MEANS, dtype=torch.float32, device=device)
                std = torch.tensor(STDDEVS, dtype=torch.float32, device=device)
                if dtype == "float32":
                    return lambda: (x.float() - mean) / std
                return lambda: ((x.float() - mean) / std).half()
            sync = torch.cuda.synchronize if device == "cuda" else None
            out.append(Case(name, device, "torch", nbytes, torch_setup, sync))
    return out + int8_cases(ctx) + quantize_linear_cases(ctx) + single_cases(ctx)


def int8_cases(ctx):
    torch = ctx.torch
    out = []
    for name, (height, width) in INT8_CASES.items():
        nbytes = height * width * 3 * 2

        def numpy_setup(height=height, width=width):
            x = _image(height, width)
            mean = np.asarray(MEANS, dtype=np.float32)
            std = np.asarray(STDDEVS, dtype=np.float32)
            scale = np.float32(0.02)
            return lambda: (((x.astype(np.float32) - mean) / std) / scale - 3).astype(np.int8)
        out.append(Case(name, "cpu", "numpy", nbytes, numpy_setup))
        if torch is None:
            continue

        def torch_setup(height=height, width=width):
            x = torch.from_numpy(_image(height, width))
            mean = torch.tensor(MEANS, dtype=torch.float32)
            std = torch.tensor(STDDEVS, dtype=torch.float32)
            return lambda: (((x.float() - mean) / std) / 0.02 - 3).to(torch.int8)
        out.append(Case(name, "cpu", "torch", nbytes, torch_setup))
    return out


def quantize_linear_cases(ctx):
    torch = ctx.torch
    out = []
    for name, (height, width) in QUANTIZE_LINEAR_CASES.items():
        n = height * width * 3
        nbytes = n * 5

        def numpy_setup(n=n, height=height, width=width):
            x = random_floats(n, -3.0, 3.0, 38).reshape(height, width, 3)
            scale = np.float32(0.02)
            return lambda: np.clip(np.rint(x / scale) + 128, 0, 255).astype(np.uint8)
        out.append(Case(name, "cpu", "numpy", nbytes, numpy_setup))
        if torch is None:
            continue

        def torch_setup(n=n, height=height, width=width):
            x = torch.from_numpy(random_floats(n, -3.0, 3.0, 38).reshape(height, width, 3))
            return lambda: torch.quantize_per_tensor(x, 0.02, 128, torch.quint8)
        out.append(Case(name, "cpu", "torch", nbytes, torch_setup))
    return out


# The single ops of bench_processing.cpp at 1080p: cast float32 (uniform in [-3, 3), seed 38)
# -> float16 (6 bytes per element); dequantize and dequantize_linear of the uint8 image
# (zero point 128, scale 0.02) -> float32 (5 bytes per element).
SINGLE_CASES = ["cast_f32_1080p_f16", "dequantize_u8_1080p_f32", "dequantize_linear_u8_1080p_f32"]


def single_cases(ctx):
    torch = ctx.torch
    out = []
    n = 1080 * 1920 * 3
    for name in SINGLE_CASES:
        cast = name.startswith("cast")
        nbytes = n * (6 if cast else 5)

        def inputs(cast=cast):
            if cast:
                return random_floats(n, -3.0, 3.0, 38).reshape(1080, 1920, 3)
            return _image(1080, 1920)

        def numpy_setup(cast=cast):
            x = inputs()
            if cast:
                return lambda: x.astype(np.float16)
            return lambda: (x.astype(np.float32) - np.float32(128)) * np.float32(0.02)
        out.append(Case(name, "cpu", "numpy", nbytes, numpy_setup))
        if torch is None:
            continue

        def torch_setup(cast=cast):
            x = torch.from_numpy(inputs())
            if cast:
                return lambda: x.half()
            return lambda: (x.float() - 128) * 0.02
        out.append(Case(name, "cpu", "torch", nbytes, torch_setup))
    return out
