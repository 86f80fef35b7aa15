#include "errors.hpp"

#include "tensorbuf/errors.hpp"

namespace tensorbuf::python {

namespace py = pybind11;

namespace {

// Owned references, alive for the process (the module is never unloaded).
struct ErrorClasses {
  PyObject* invalid_argument = nullptr;
  PyObject* out_of_range = nullptr;
  PyObject* unavailable = nullptr;
  PyObject* resource_exhausted = nullptr;
  PyObject* internal = nullptr;
};
ErrorClasses classes;

PyObject* add_class(py::module_& m, const char* name, py::handle base, PyObject* builtin,
                    const char* doc) {
  const std::string qualified = std::string("tensorbuf.") + name;
  // Two statements, not `?:`: newer pybind11 gives make_tuple typed results of two types.
  py::tuple bases = py::make_tuple(base);
  if (builtin != nullptr) bases = py::make_tuple(base, py::handle(builtin));
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (cls == nullptr) throw py::error_already_set();
  m.add_object(name, py::handle(cls));  // steals nothing: add_object increments
  return cls;
}

}  // namespace

void bind_errors(py::module_& m) {
  PyObject* base = PyErr_NewExceptionWithDoc("tensorbuf.Error", "Base of tensorbuf's errors.",
                                             PyExc_Exception, nullptr);
  if (base == nullptr) throw py::error_already_set();
  m.add_object("Error", py::handle(base));
  classes.invalid_argument = add_class(m, "InvalidArgumentError", base, PyExc_ValueError,
                                       "A wrong argument: dtype, shape, rank, index, axis, "
                                       "read-only memory for an in-place op, ...");
  classes.out_of_range = add_class(m, "OutOfRangeError", base, PyExc_IndexError,
                                   "An element index outside [0, flat_size).");
  classes.unavailable = add_class(m, "UnavailableError", base, PyExc_RuntimeError,
                                  "CUDA was asked for but cannot be used.");
  classes.resource_exhausted = add_class(m, "ResourceExhaustedError", base, PyExc_MemoryError,
                                         "An allocation failed.");
  classes.internal = add_class(m, "InternalError", base, PyExc_RuntimeError,
                               "A CUDA runtime call failed.");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InvalidArgumentError& e) {
      PyErr_SetString(classes.invalid_argument, e.what());
    } catch (const OutOfRangeError& e) {
      PyErr_SetString(classes.out_of_range, e.what());
    } catch (const UnavailableError& e) {
      PyErr_SetString(classes.unavailable, e.what());
    } catch (const ResourceExhaustedError& e) {
      PyErr_SetString(classes.resource_exhausted, e.what());
    } catch (const InternalError& e) {
      PyErr_SetString(classes.internal, e.what());
    }
  });
}

}  // namespace tensorbuf::python
