#include "device_arrays.hpp"

#include "hepex/core/error.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace hepex::python {

bool is_device_array(const py::handle& obj) {
  return py::hasattr(obj, "__cuda_array_interface__");
}

namespace {
// Waits for the producer's stream (1: legacy default, 2: per-thread default,
// or a cudaStream_t) before hepex's own stream reads the array.
void wait_for_stream(const py::handle& stream, const std::string& what) {
  if (stream.is_none()) return;
  const auto handle = stream.cast<std::uintptr_t>();
  if (handle == 0) throw Error(what + ": __cuda_array_interface__ stream 0 is not allowed");
#if defined(KOKKOS_ENABLE_CUDA)
  if (cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(handle)) != cudaSuccess) {
    throw Error(what + ": waiting for its stream failed", ErrorKind::runtime);
  }
#endif
}
}  // namespace

DeviceInput device_input(const py::handle& obj, const std::string& what) {
  if constexpr (!has_accelerator) {
    throw Error(what + ": a GPU array, but this hepex was built without a GPU backend "
                       "(hepex.info()); pass a numpy array");
  }
  const py::dict cai = obj.attr("__cuda_array_interface__");
  DeviceInput in;
  in.owner = py::reinterpret_borrow<py::object>(obj);
  const py::tuple shape = cai["shape"];
  if (shape.size() == 2) {
    in.shape = {shape[0].cast<std::size_t>(), shape[1].cast<std::size_t>()};
  } else if (shape.size() == 1) {
    in.shape = {shape[0].cast<std::size_t>(), 1};
  } else {
    throw Error(what + ": a matrix must have 1 or 2 dimensions, not " +
                std::to_string(shape.size()));
  }
  in.typestr = cai["typestr"].cast<std::string>();
  const py::tuple data = cai["data"];
  in.data = reinterpret_cast<void*>(data[0].cast<std::uintptr_t>());
  if (cai.contains("mask") && !cai["mask"].is_none()) {
    throw Error(what + ": masked GPU arrays are not supported");
  }
  if (cai.contains("strides") && !cai["strides"].is_none()) {
    // C-ordered strides may be given explicitly; anything else is refused.
    const py::tuple strides = cai["strides"];
    const std::size_t item = static_cast<std::size_t>(std::stoi(in.typestr.substr(2)));
    const bool c_order =
        shape.size() == 1 ? strides[0].cast<std::size_t>() == item
                          : strides[1].cast<std::size_t>() == item &&
                                strides[0].cast<std::size_t>() == item * in.shape.cols;
    if (!c_order) {
      throw Error(what + ": the GPU array is not C-contiguous (make it so, e.g. "
                         ".contiguous() or cupy.ascontiguousarray)");
    }
  }
  if (in.shape.size() > 0 && in.data == nullptr) throw Error(what + ": null data pointer");
  wait_for_stream(cai.contains("stream") ? py::handle(cai["stream"]) : py::none(), what);
  return in;
}

py::dict DeviceArray::cuda_array_interface() const {
  py::dict cai;
  cai["shape"] = shape();
  cai["typestr"] = typestr_;
  cai["data"] = py::make_tuple(reinterpret_cast<std::uintptr_t>(data_), false);
  cai["strides"] = py::none();
  cai["version"] = 3;
  // Results are complete when returned (hepex fences): nothing to wait for.
  cai["stream"] = py::none();
  return cai;
}

void bind_device_arrays(py::module_& m) {
  py::class_<DeviceArray>(m, "DeviceArray",
                          "A matrix in GPU memory owned by hepex (a result computed on the "
                          "device from a GPU input). Exposes __cuda_array_interface__; "
                          "numpy() copies it to the host.")
      .def_property_readonly("shape", &DeviceArray::shape)
      .def_property_readonly("typestr", &DeviceArray::typestr)
      .def_property_readonly("__cuda_array_interface__", &DeviceArray::cuda_array_interface)
      .def("numpy", &DeviceArray::to_numpy, "a host copy as a numpy array");
}

}  // namespace hepex::python
