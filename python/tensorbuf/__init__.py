"""tensorbuf: typed buffers and scatter / mask-update / substr ops on CPU and CUDA.

The ops take PyTorch tensors, NumPy arrays, CuPy / JAX arrays (DLPack), Arrow string arrays and
Python lists; ``*_in_place`` ops write into the caller's own memory. See docs/python.md.
"""

from ._tensorbuf import (  # noqa: F401
    Error,
    InternalError,
    InvalidArgumentError,
    OutOfRangeError,
    ResourceExhaustedError,
    StringTensor,
    TensorBuffer,
    UnavailableError,
    __version__,
    asarray,
    boolean_mask_update,
    boolean_mask_update_in_place,
    cpu_thread_count,
    cuda_availability_reason,
    cuda_available,
    cuda_device_count,
    from_dlpack,
    reset_stats,
    stats,
    substr,
    synchronize,
    tensor_scatter_nd_add,
    tensor_scatter_nd_add_in_place,
    tensor_scatter_nd_max,
    tensor_scatter_nd_max_in_place,
    tensor_scatter_nd_min,
    tensor_scatter_nd_min_in_place,
    tensor_scatter_nd_sub,
    tensor_scatter_nd_sub_in_place,
    tensor_scatter_nd_update,
    tensor_scatter_nd_update_in_place,
)

__all__ = [name for name in dir() if not name.startswith("_")] + ["__version__"]
