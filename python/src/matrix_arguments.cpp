#include "matrix_arguments.hpp"

namespace hepex::python {

Argument argument(const py::object& a, const std::string& what) {
  Argument arg;
  if (is_device_array(a)) {
    arg.device = device_input(a, what);
    return arg;
  }
  arg.host = py::array::ensure(a);
  if (!*arg.host) throw Error(what + ": not an array of numbers");
  return arg;
}

}  // namespace hepex::python
