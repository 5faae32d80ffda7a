#pragma once
// Each family's part of the extension module (bind_<family>.cpp).

#include <pybind11/pybind11.h>

namespace hepex::python {
void bind_linalg(pybind11::module_& m);
void bind_gemm(pybind11::module_& m);
void bind_reconstruct(pybind11::module_& m);
void bind_reduce(pybind11::module_& m);
void bind_amplitudes(pybind11::module_& m);
void bind_jobs(pybind11::module_& m);
void bind_row_space(pybind11::module_& m);
}  // namespace hepex::python
