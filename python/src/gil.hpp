// Running Python code from callbacks that tensorbuf may call on any thread.
#pragma once

#include <pybind11/pybind11.h>

namespace tensorbuf::python {

// Runs `f` holding the GIL (taken if this thread lacks it). While the interpreter shuts down,
// does nothing: a reference leaked then is better than a crash.
template <class F>
void with_gil(F&& f) {
#if PY_VERSION_HEX >= 0x030D0000
  if (Py_IsFinalizing()) return;
#else
  if (_Py_IsFinalizing()) return;
#endif
  PyGILState_STATE state = PyGILState_Ensure();
  f();
  PyGILState_Release(state);
}

}  // namespace tensorbuf::python
