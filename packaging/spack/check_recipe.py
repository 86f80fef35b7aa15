"""Checks packaging/spack/package.py without Spack (Spack is not a Debian package, and its
sources are too large to fetch here): the recipe is executed against stand-ins of the parts of
Spack's package API it uses, with the directive signatures of spack/spack's
lib/spack/spack/directives.py (variant, depends_on, conflicts, extends, version, maintainers);
then its variants, dependencies and cmake_args() for every variant combination are compared
with the project's CMake options, and its stand-alone tests with the files they use.
It does not solve specs, fetch, build or run the recipe's tests (docs/packaging.md, "Spack").
usage: /usr/bin/python3 packaging/spack/check_recipe.py"""
import inspect
import itertools
import pathlib
import re
import sys
import types

ROOT = pathlib.Path(__file__).resolve().parents[2]
directives = []  # (name, bound arguments)


def directive(name, signature):
    sig = inspect.signature(signature)

    def record(*args, **kwargs):
        directives.append((name, sig.bind(*args, **kwargs).arguments))  # TypeError if misused
    return record


# Signatures as in spack/spack lib/spack/spack/directives.py.
def _variant(name, default=None, description="", values=None, multi=None, validator=None,
             when=None, sticky=False): ...
def _depends_on(spec, when=None, type=("build", "link"), patches=None): ...
def _conflicts(conflict_spec, when=None, msg=None): ...
def _extends(spec, when=None, type=("build", "run"), patches=None): ...
def _version(ver, checksum=None, *, preferred=None, deprecated=None, no_cache=None, url=None,
             extension=None, expand=None, fetch_options=None, md5=None, sha1=None, sha224=None,
             sha256=None, sha384=None, sha512=None, git=None, commit=None, tag=None,
             branch=None, get_full_repo=None, submodules=None, submodules_delete=None,
             svn=None, hg=None, cvs=None, revision=None, date=None): ...
def _maintainers(*names): ...
def _run_after(phase, when=None): ...


class Variant:
    def __init__(self, value):
        self.value = value


class Spec:
    """What cmake_args() reads of a concrete spec: satisfies('+v'), variants, spec['dep']."""

    def __init__(self, variants):
        self.variants = {k: Variant(v) for k, v in variants.items()}

    def satisfies(self, text):
        for part in text.split():
            if part.startswith(("+", "~")):
                if bool(self.variants[part[1:]].value) != part.startswith("+"):
                    return False
            else:
                raise AssertionError(f"stand-in Spec cannot evaluate '{part}'")
        return True

    def __getitem__(self, name):
        assert name == "python", name
        return types.SimpleNamespace(
            command=types.SimpleNamespace(path="/spack/python/bin/python3"),
            package=types.SimpleNamespace(platlib="lib/python3.11/site-packages"))


class CMakePackage:
    """CMakeBuilder's define / define_from_variant, as in lib/spack/spack/build_systems/cmake.py."""

    run_tests = False

    def define(self, cmake_var, value):
        if isinstance(value, bool):
            kind, value = "BOOL", "ON" if value else "OFF"
        else:
            kind = "STRING"
            if isinstance(value, (list, tuple)):
                value = ";".join(str(v) for v in value)
        return f"-D{cmake_var}:{kind}={value}"

    def define_from_variant(self, cmake_var, variant=None):
        variant = variant or cmake_var.lower()
        assert variant in declared_variants(), f"define_from_variant: no variant {variant}"
        return self.define(cmake_var, self.spec.variants[variant].value)


class CudaPackage:
    """CudaPackage's variants: cuda (default off) and the multi-valued cuda_arch."""


def declared_variants():
    names = {args["name"] for kind, args in directives if kind == "variant"}
    return names | {"cuda", "cuda_arch"}


package_api = types.ModuleType("spack.package")
package_api.__dict__.update(
    CMakePackage=CMakePackage, CudaPackage=CudaPackage,
    variant=directive("variant", _variant), depends_on=directive("depends_on", _depends_on),
    conflicts=directive("conflicts", _conflicts), extends=directive("extends", _extends),
    version=directive("version", _version),
    maintainers=directive("maintainers", _maintainers),
    run_after=lambda *a, **k: (directive("run_after", _run_after)(*a, **k), lambda f: f)[1],
    cache_extra_test_sources=None, which=None, working_dir=None, join_path=None,
    SkipTest=Exception)
package_api.__all__ = list(package_api.__dict__)
spack = types.ModuleType("spack")
spack.package = package_api
sys.modules.update({"spack": spack, "spack.package": package_api})

recipe_path = ROOT / "packaging/spack/package.py"
namespace = {"__name__": "tensorbuf_recipe"}
exec(compile(recipe_path.read_text(), str(recipe_path), "exec"), namespace)
Tensorbuf = namespace["Tensorbuf"]
assert issubclass(Tensorbuf, CMakePackage) and issubclass(Tensorbuf, CudaPackage)
problems = []

# Variants the issue asks for, each boolean with a description.
variants = {args["name"]: args for kind, args in directives if kind == "variant"}
for name in ("shared", "mpi", "python", "fortran"):
    if name not in variants or not isinstance(variants[name].get("default"), bool):
        problems.append(f"variant {name}: missing or not boolean")
    elif not variants[name].get("description"):
        problems.append(f"variant {name}: no description")
deps = [(args["spec"], args.get("when")) for kind, args in directives if kind == "depends_on"]
for spec, when in (("mpi", "+mpi"), ("py-numpy", "+python"), ("py-pybind11@2.6:", "+python"),
                   ("fortran", "+fortran"), ("cmake@3.25:", None)):
    if (spec, when) not in deps:
        problems.append(f"no depends_on('{spec}', when={when!r})")

# Every -D the recipe passes must be a cache variable of the project (or CMake's own).
cmake_text = "\n".join(p.read_text() for p in list(ROOT.glob("**/CMakeLists.txt")) +
                       list(ROOT.glob("cmake/*.cmake")) if "build" not in p.parts)
project_vars = set(re.findall(r"option\((\w+)", cmake_text))
project_vars |= set(re.findall(r"set\((\w+)[^)]*CACHE", cmake_text))
cmake_own = {"BUILD_SHARED_LIBS", "CMAKE_CUDA_ARCHITECTURES", "Python_EXECUTABLE"}
combos = 0
for values in itertools.product([False, True], repeat=6):
    shared, mpi, python, fortran, cuda, run_tests = values
    pkg = Tensorbuf.__new__(Tensorbuf)
    pkg.spec = Spec(dict(shared=shared, mpi=mpi, python=python, fortran=fortran, cuda=cuda,
                         cuda_arch=("90",) if cuda else ("none",)))
    pkg.run_tests = run_tests
    args = pkg.cmake_args()
    defined = {}
    for arg in args:
        m = re.fullmatch(r"-D(\w+):(BOOL|STRING)=(.*)", arg)
        if not m:
            problems.append(f"malformed argument {arg}")
            continue
        defined[m.group(1)] = m.group(3)
        if m.group(1) not in project_vars | cmake_own:
            problems.append(f"{arg}: not a cache variable of the project")
    expect = {"BUILD_SHARED_LIBS": shared, "TENSORBUF_WITH_MPI": mpi,
              "TENSORBUF_WITH_PYTHON": python, "TENSORBUF_WITH_FORTRAN": fortran,
              "TENSORBUF_WITH_CUDA": cuda, "TENSORBUF_BUILD_TESTS": run_tests}
    for var, on in expect.items():
        if defined.get(var) != ("ON" if on else "OFF"):
            problems.append(f"{values}: {var}={defined.get(var)}, expected {'ON' if on else 'OFF'}")
    if cuda and defined.get("CMAKE_CUDA_ARCHITECTURES") != "90":
        problems.append(f"{values}: CMAKE_CUDA_ARCHITECTURES={defined.get('CMAKE_CUDA_ARCHITECTURES')}")
    if python and "TENSORBUF_PYTHON_INSTALL_DIR" not in defined:
        problems.append(f"{values}: no TENSORBUF_PYTHON_INSTALL_DIR")
    combos += 1

# Stand-alone tests: test_* methods with a docstring (Spack prints it), and the cached
# sources exist in the repository.
tests = [n for n, f in vars(Tensorbuf).items() if n.startswith("test_") and callable(f)]
for name in tests:
    if not (getattr(Tensorbuf, name).__doc__ or "").strip():
        problems.append(f"{name}: no docstring")
for path in re.findall(r'"(tests/[^"]+)"', recipe_path.read_text()):
    if not (ROOT / path).exists():
        problems.append(f"cached test source {path} does not exist")

if problems:
    print("check_recipe: " + "\ncheck_recipe: ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"check_recipe: {len(directives)} directives, variants {sorted(declared_variants())}, "
      f"cmake_args for {combos} variant combinations, tests {tests}: OK")
