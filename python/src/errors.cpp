#include "errors.hpp"

#include <array>
#include <string>

#include "tensorbuf/error_classes.hpp"
#include "tensorbuf/errors.hpp"

namespace tensorbuf::python {

namespace py = pybind11;

namespace {

// Owned references, alive for the process (the module is never unloaded); in
// kErrorClasses' order, so an ErrorCode indexes it.
std::array<PyObject*, kErrorClasses.size()> classes{};

PyObject* add_class(py::module_& m, const ErrorClass& row, py::handle base,
                    py::handle builtin) {
  const std::string name(row.class_name);
  const std::string qualified = "tensorbuf." + name;
  const std::string doc(row.summary);
  py::tuple bases = py::make_tuple(base, builtin);
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc.c_str(), bases.ptr(), nullptr);
  if (cls == nullptr) throw py::error_already_set();
  m.add_object(name.c_str(), py::handle(cls));  // steals nothing: add_object increments
  return cls;
}

}  // namespace

void bind_errors(py::module_& m) {
  PyObject* base = PyErr_NewExceptionWithDoc("tensorbuf.Error", "Base of tensorbuf's errors.",
                                             PyExc_Exception, nullptr);
  if (base == nullptr) throw py::error_already_set();
  m.add_object("Error", py::handle(base));
  const py::module_ builtins = py::module_::import("builtins");
  for (std::size_t i = 0; i < classes.size(); ++i) {
    const ErrorClass& row = kErrorClasses[i];
    const py::object builtin = builtins.attr(std::string(row.python_base).c_str());
    classes[i] = add_class(m, row, base, builtin);
  }
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      PyErr_SetString(classes[static_cast<std::size_t>(error_class(e.code()).code)],
                      e.what());
    }
  });
}

}  // namespace tensorbuf::python
