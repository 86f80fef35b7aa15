# Spack recipe for tensorbuf (docs/packaging.md, "Spack"). Put this file in a Spack package
# repository as packages/tensorbuf/package.py (Spack v1: spack_repo/<namespace>/packages/tensorbuf/
# package.py) and `spack repo add` that repository.
#
# tensorbuf has no published address yet: Spack clones it from TENSORBUF_GIT (default
# ~/src/tensorbuf, any URL git accepts), or builds a checkout with
#   spack develop --path /path/to/tensorbuf tensorbuf@main
import os

from spack.package import *

try:  # Spack v1 keeps the build systems in its builtin package repository
    from spack_repo.builtin.build_systems.cmake import CMakePackage
    from spack_repo.builtin.build_systems.cuda import CudaPackage
except ImportError:  # Spack 0.x: spack.package gives them
    pass


class Tensorbuf(CMakePackage, CudaPackage):
    """Typed host/device tensor buffers with lazy sync, and tensor operations (scatter_nd,
    boolean_mask, gather_nd, substr, processing) on CPU and CUDA, with C, Fortran, MPI and
    Python interfaces."""

    homepage = "file://" + os.environ.get("TENSORBUF_GIT", os.path.expanduser("~/src/tensorbuf"))
    git = homepage

    maintainers("tensorbuf")

    version("main", branch="main")

    # CudaPackage adds +cuda and cuda_arch=: the CUDA backend for those architectures.
    variant("shared", default=True,
            description="Shared libraries (libtensorbuf.so.0.1; the CUDA runtime linked in)")
    variant("mpi", default=True, description="tensorbuf::mpi, the distributed ops")
    variant("fortran", default=True, description="The Fortran module tensorbuf_f")
    variant("python", default=False, description="The Python package tensorbuf")

    depends_on("c", type="build")
    depends_on("cxx", type="build")
    depends_on("fortran", type="build", when="+fortran")
    depends_on("cmake@3.25:", type="build")
    depends_on("pkgconfig", type="test")
    depends_on("googletest", type="test")

    depends_on("cuda@13:", when="+cuda")  # the toolkit tensorbuf is tested with (C++20 in nvcc)
    depends_on("mpi", when="+mpi")
    extends("python", when="+python")
    depends_on("python@3.8:", when="+python", type=("build", "link", "run"))
    depends_on("py-pybind11@2.6:", when="+python", type="build")
    depends_on("py-numpy", when="+python", type=("build", "run"))

    # C++20: the library's compilers (docs/packaging.md).
    conflicts("%gcc@:11", msg="tensorbuf needs C++20 (GCC 12 or later)")
    conflicts("%clang@:13", msg="tensorbuf needs C++20 (clang 14 or later)")
    conflicts("cuda_arch=none", when="+cuda", msg="+cuda needs cuda_arch=<compute capability>")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define_from_variant("BUILD_SHARED_LIBS", "shared"),
            self.define_from_variant("TENSORBUF_WITH_CUDA", "cuda"),
            self.define_from_variant("TENSORBUF_WITH_MPI", "mpi"),
            self.define_from_variant("TENSORBUF_WITH_FORTRAN", "fortran"),
            self.define_from_variant("TENSORBUF_WITH_PYTHON", "python"),
            # The tests only for `spack install --test=root` (googletest then), never the
            # benchmarks; the `tensorbuf` command-line tool always.
            self.define("TENSORBUF_BUILD_TESTS", self.run_tests),
            self.define("TENSORBUF_BUILD_BENCH", False),
            self.define("TENSORBUF_BUILD_APPS", True),
        ]
        if spec.satisfies("+cuda"):
            args.append(self.define("CMAKE_CUDA_ARCHITECTURES", spec.variants["cuda_arch"].value))
        if spec.satisfies("+python"):
            python = spec["python"]
            args.append(self.define("Python_EXECUTABLE", python.command.path))
            # Where Spack's python finds extensions (lib/pythonX.Y/site-packages).
            args.append(self.define("TENSORBUF_PYTHON_INSTALL_DIR", python.package.platlib))
        return args

    # `spack install --test=root`: CMakePackage's check() runs the project's ctest suite
    # (CPU tests; the CUDA ones skip without a GPU) in the build directory.

    # `spack test run tensorbuf`: consumers of the installed package.
    @run_after("install")
    def cache_consumer_sources(self):
        cache_extra_test_sources(self, ["tests/c_api/example.c", "tests/consumer/main.cpp"])

    def _pkg_config_flags(self, module):
        """--cflags --libs of an installed module (--static for a static install)."""
        pkg_config = which("pkg-config", required=True)
        pc_dirs = [d for d in (self.prefix.lib.pkgconfig, self.prefix.lib64.pkgconfig)
                   if os.path.isdir(d)]
        pkg_config.add_default_env("PKG_CONFIG_PATH", os.pathsep.join(pc_dirs))
        static = [] if self.spec.satisfies("+shared") else ["--static"]
        flags = pkg_config("--cflags", "--libs", *static, module, output=str).split()
        libdir = pkg_config("--variable=libdir", module, output=str).strip()
        return flags + ["-Wl,-rpath," + libdir]

    def test_c_api(self):
        """docs/c_api.md's C example, compiled with cc and pkg-config, runs"""
        sources = self.test_suite.current_test_cache_dir.tests
        cc = which(os.environ.get("CC", "cc"), required=True)
        with working_dir(self.test_suite.current_test_cache_dir):
            cc("-std=c99", join_path(sources.c_api, "example.c"), "-o", "example_c",
               *self._pkg_config_flags("tensorbuf"))
            which("./example_c", required=True)()

    def test_cxx(self):
        """a C++20 consumer, compiled with c++ and pkg-config, runs"""
        sources = self.test_suite.current_test_cache_dir.tests
        cxx = which(os.environ.get("CXX", "c++"), required=True)
        with working_dir(self.test_suite.current_test_cache_dir):
            cxx("-std=c++20", join_path(sources.consumer, "main.cpp"), "-o", "consumer",
                *self._pkg_config_flags("tensorbuf"))
            which("./consumer", required=True)()

    def test_cli(self):
        """the installed `tensorbuf` tool runs its examples"""
        which(self.prefix.bin.tensorbuf, required=True)("examples")

    def test_python(self):
        """`import tensorbuf` scatters into a NumPy array in place"""
        if not self.spec.satisfies("+python"):
            raise SkipTest("built without +python")
        python = self.spec["python"].command
        out = python(
            "-c",
            "import numpy as np, tensorbuf as tb\n"
            "a = np.zeros((2, 2), np.float32)\n"
            "tb.tensor_scatter_nd_add_in_place(a, [[1]], [[1.0, 2.0]])\n"
            "print(a.tolist())",
            output=str,
        )
        assert out.strip() == "[[0.0, 0.0], [1.0, 2.0]]", out
