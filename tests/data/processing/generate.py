#!/usr/bin/python3
"""Writes vectors.txt: uint8 images -> per-channel normalize -> float32 (and -> float16), the
expected values computed by NumPy's float32 arithmetic (independent of tensorbuf).

Run with /usr/bin/python3 (Debian's python3-numpy, 1.24) from this folder:
    /usr/bin/python3 generate.py > vectors.txt

Expected: y = (x.astype(float32) - mean) / std with float32 mean and std (NumPy computes
float32 - float32 and float32 / float32 in float32, each rounded once: IEEE), and
y.astype(float16) (NumPy rounds float32 to float16 to nearest even, overflow to inf).

Format, one case per block (values as hex bit patterns, so nothing is lost in print):
    case NAME
    shape 4 5 3
    input <uint8 values, decimal>
    mean <float32 bits, hex> ...        (one per channel)
    std <float32 bits, hex> ...
    float32 <float32 bits, hex> ...     (one per element)
    float16 <float16 bits, hex> ...
    end
"""
import numpy as np


def bits32(a):
    return " ".join("%08x" % v for v in np.asarray(a, dtype=np.float32).view(np.uint32).ravel())


def bits16(a):
    return " ".join("%04x" % v for v in np.asarray(a, dtype=np.float16).view(np.uint16).ravel())


def case(name, x, mean, std):
    mean = np.asarray(mean, dtype=np.float32)
    std = np.asarray(std, dtype=np.float32)
    y = (x.astype(np.float32) - mean) / std
    assert y.dtype == np.float32
    print("case", name)
    print("shape", " ".join(str(d) for d in x.shape))
    print("input", " ".join(str(v) for v in x.ravel()))
    print("mean", bits32(mean))
    print("std", bits32(std))
    print("float32", bits32(y))
    with np.errstate(over="ignore"):  # overflow to inf is the expected value
        print("float16", bits16(y.astype(np.float16)))
    print("end")


def main():
    rng = np.random.default_rng(37)
    # Every uint8 value in every channel, then random pixels: [16, 24, 3] = 1152 elements,
    # more than one of the Processor's blocks of 1024.
    every = np.repeat(np.arange(256, dtype=np.uint8), 3).reshape(256, 3)
    random = rng.integers(0, 256, size=(16 * 24 - 256, 3), dtype=np.uint8)
    image = np.concatenate([every, random]).reshape(16, 24, 3)
    case("tflite_127_5", image, [127.5] * 3, [127.5] * 3)
    case("imagenet_255", image, [123.675, 116.28, 103.53], [58.395, 57.12, 57.375])
    # Tiny stddevs: float16 overflows to inf, subnormal float16 results near the means.
    case("float16_extremes", image, [100.0, 0.0, 255.0], [0.001, -0.0009765625, 3e4])
    # A random mean and std per channel, an odd shape.
    odd = rng.integers(0, 256, size=(7, 11, 3), dtype=np.uint8)
    case("random_odd_shape", odd, rng.uniform(-50, 300, 3), rng.uniform(0.1, 90, 3))


if __name__ == "__main__":
    main()
