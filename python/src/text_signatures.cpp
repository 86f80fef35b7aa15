#include "text_signatures.hpp"

#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tensorbuf::python {

namespace py = pybind11;

namespace {

// The end of the bracket or quote that starts at text[at] (one past it), or npos.
std::size_t skip_group(std::string_view text, std::size_t at) {
  const char open = text[at];
  if (open == '\'' || open == '"') {
    for (std::size_t i = at + 1; i < text.size(); ++i) {
      if (text[i] == '\\') {
        ++i;
      } else if (text[i] == open) {
        return i + 1;
      }
    }
    return std::string_view::npos;
  }
  const char close = open == '(' ? ')' : open == '[' ? ']' : '}';
  for (std::size_t i = at + 1; i < text.size();) {
    if (text[i] == close) return i + 1;
    if (std::strchr("([{'\"", text[i]) != nullptr) {
      i = skip_group(text, i);
      if (i == std::string_view::npos) return i;
    } else {
      ++i;
    }
  }
  return std::string_view::npos;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// The parts of `list` separated by `separator` outside brackets and quotes.
std::optional<std::vector<std::string_view>> split_top_level(std::string_view list,
                                                             char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i < list.size();) {
    if (list[i] == separator) {
      parts.push_back(list.substr(start, i - start));
      start = ++i;
    } else if (std::strchr("([{'\"", list[i]) != nullptr) {
      i = skip_group(list, i);
      if (i == std::string_view::npos) return std::nullopt;
    } else {
      ++i;
    }
  }
  parts.push_back(list.substr(start));
  return parts;
}

// pybind11's "name(a: int, b: str = 'x', *, c: handle = None) -> T" as CPython's text
// signature "name(a, b='x', *, c=None)": the names, markers and defaults, without the types.
std::optional<std::string> text_signature(std::string_view name, std::string_view doc) {
  if (!doc.starts_with(name) || doc.size() == name.size() || doc[name.size()] != '(') {
    return std::nullopt;  // no signature line (or "Overloaded function.")
  }
  const std::size_t end = skip_group(doc, name.size());
  if (end == std::string_view::npos) return std::nullopt;
  const std::string_view list = doc.substr(name.size() + 1, end - name.size() - 2);
  std::string out(name);
  out += '(';
  if (!trim(list).empty()) {
    const auto params = split_top_level(list, ',');
    if (!params) return std::nullopt;
    bool first = true;
    for (const std::string_view raw : *params) {
      const auto name_and_default = split_top_level(trim(raw), '=');
      if (!name_and_default || name_and_default->size() > 2) return std::nullopt;
      const std::string_view annotated = trim((*name_and_default)[0]);
      const std::string_view param = trim(annotated.substr(0, annotated.find(':')));
      if (param.empty()) return std::nullopt;
      if (!first) out += ", ";
      first = false;
      out += param;
      if (name_and_default->size() == 2) {
        out += '=';
        out += trim((*name_and_default)[1]);
      }
    }
  }
  out += ')';
  return out;
}

}  // namespace

bool add_text_signature(py::handle function) {
  if (!PyCFunction_Check(function.ptr())) return false;
  PyMethodDef* def = reinterpret_cast<PyCFunctionObject*>(function.ptr())->m_ml;
  if (def->ml_doc == nullptr) return false;
  const std::string_view doc = def->ml_doc;
  if (doc.find("\n--\n\n") != std::string_view::npos) return true;  // has one already
  const std::optional<std::string> signature = text_signature(def->ml_name, doc);
  if (!signature) return false;
  const std::string full = *signature + "\n--\n\n" + std::string(doc);
  // pybind11 made ml_doc with strdup and frees it with std::free: the same here.
  char* fresh = static_cast<char*>(std::malloc(full.size() + 1));
  if (fresh == nullptr) throw std::bad_alloc();
  std::memcpy(fresh, full.c_str(), full.size() + 1);
  std::free(const_cast<char*>(def->ml_doc));
  def->ml_doc = fresh;
  return true;
}

void add_text_signatures(py::module_& m) {
  for (const auto item : m.attr("__dict__").cast<py::dict>()) {
    const py::handle value = item.second;
    if (PyType_Check(value.ptr())) {
      for (const auto member : value.attr("__dict__").cast<py::dict>()) {
        py::handle function = member.second;
        if (PyInstanceMethod_Check(function.ptr())) {
          function = PyInstanceMethod_GET_FUNCTION(function.ptr());
        } else if (py::isinstance<py::staticmethod>(function)) {
          function = function.attr("__func__");
        }
        add_text_signature(function);
      }
    } else {
      add_text_signature(value);
    }
  }
}

}  // namespace tensorbuf::python
