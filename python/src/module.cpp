// The extension module hepex._hepex: Kokkos for the life of the interpreter,
// hepex::Error as Python exceptions, and each family's functions
// (bind_*.cpp). The Python layer (hepex/__init__.py) gives them their
// documented signatures.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "device_arrays.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/runtime.hpp"
#include "hepex/field/primes.hpp"
#include "python_call.hpp"

namespace py = pybind11;

namespace {

// Kokkos's message when an allocation fails ("Kokkos failed to allocate
// memory for label ..."), shortened to its first line: the rest is Kokkos's
// advice on tracebacks.
bool is_allocation_failure(const std::string& what) {
  return what.find("allocate") != std::string::npos &&
         (what.find("Kokkos") != std::string::npos || what.find("memory") != std::string::npos);
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

PYBIND11_MODULE(_hepex, m) {
  m.doc() = "hepex: exact and high-throughput kernels for high-energy physics";
  // Kokkos starts on import (unless the program already started it; it
  // reads KOKKOS_NUM_THREADS, KOKKOS_DEVICE_ID and the like from the
  // environment) and ends at interpreter exit, or after it when the last
  // object holding Kokkos memory goes (python_call.hpp).
  hepex::python::start_kokkos();
  py::module_::import("atexit").attr("register")(
      py::cpp_function([] { hepex::python::finish_kokkos(); }));

  // hepex::Error by kind, as the CLI's exit codes 1, 2 and 3.
  static py::exception<hepex::Error> invalid(m, "InvalidInputError", PyExc_ValueError);
  static py::exception<hepex::Error> failure(m, "RuntimeFailure", PyExc_RuntimeError);
  static py::exception<hepex::Error> negative(m, "NegativeAnswer", PyExc_ArithmeticError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const hepex::Error& e) {
      switch (e.kind()) {
        case hepex::ErrorKind::invalid_input: invalid(e.what()); break;
        case hepex::ErrorKind::runtime: failure(e.what()); break;
        case hepex::ErrorKind::negative_answer: negative(e.what()); break;
      }
    } catch (const std::bad_alloc&) {
      failure("out of memory: the host could not allocate what this call needs");
    } catch (const std::runtime_error& e) {
      // Out of host or device memory inside Kokkos: a RuntimeFailure (the
      // CLI's exit 2); any other runtime_error is pybind11's to translate.
      if (!is_allocation_failure(e.what())) throw;
      failure(("out of memory: " + first_line(e.what())).c_str());
    }
  });

  const auto build = hepex::build_info();
  m.attr("__version__") = build.hepex_version;
  m.def("version_line", &hepex::version_line, "what `hepex --version` prints");
  m.def(
      "check_prime", [](std::uint64_t p) { hepex::field::check_prime_argument(p, 63, "p"); },
      py::arg("p"), "InvalidInputError unless p is a prime below 2^63");
  m.def(
      "info",
      [] {
        const auto b = hepex::build_info();
        py::dict d;
        d["version"] = b.hepex_version;
        d["kokkos"] = b.kokkos_version;
        d["execution_spaces"] = b.exec_spaces;
        d["default_space"] = b.default_space;
        d["gpu"] = hepex::has_accelerator;
        d["mpi"] = b.mpi;
        py::list devices;
        for (const auto& dev : hepex::devices()) {
          py::dict one;
          one["name"] = dev.name;
          one["memory_bytes"] = dev.memory_bytes;
          one["kind"] = dev.kind;
          devices.append(one);
        }
        d["devices"] = devices;
        return d;
      },
      "the build and its devices (what `hepex info` prints)");

  hepex::python::bind_device_arrays(m);
  hepex::python::bind_linalg(m);
  hepex::python::bind_gemm(m);
  hepex::python::bind_reconstruct(m);
  hepex::python::bind_reduce(m);
  hepex::python::bind_amplitudes(m);
  hepex::python::bind_jobs(m);
  hepex::python::bind_row_space(m);
}
