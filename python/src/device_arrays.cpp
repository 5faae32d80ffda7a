#include "device_arrays.hpp"

#include <dlpack/dlpack.h>

#include "hepex/core/error.hpp"

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#endif

namespace hepex::python {

namespace {
// A DLPack producer's device type (__dlpack_device__), or -1 for none.
int dlpack_device_type(const py::handle& obj) {
  if (!py::hasattr(obj, "__dlpack__") || !py::hasattr(obj, "__dlpack_device__")) return -1;
  const py::tuple device = obj.attr("__dlpack_device__")();
  return device[0].cast<int>();
}
}  // namespace

bool is_device_array(const py::handle& obj) {
  if (py::hasattr(obj, "__cuda_array_interface__")) return true;
  const int type = dlpack_device_type(obj);
  return type == kDLCUDA || type == kDLCUDAManaged;
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

namespace {

// A DLPack tensor (the "dltensor" capsule of obj.__dlpack__()): taken over as
// the protocol says (the capsule renamed "used_dltensor"), its deleter called
// when the returned input is dropped. The producer's stream is not known
// here: the whole device is synchronised first.
DeviceInput dlpack_input(const py::handle& obj, const std::string& what) {
  const py::capsule capsule = obj.attr("__dlpack__")();
  if (std::string(capsule.name() ? capsule.name() : "") != "dltensor") {
    throw Error(what + ": __dlpack__ returned a used or unknown capsule");
  }
  auto* managed = static_cast<DLManagedTensor*>(capsule.get_pointer());
  PyCapsule_SetName(capsule.ptr(), "used_dltensor");
  DeviceInput in;
  in.owner = py::capsule(managed, [](void* p) {
    auto* m = static_cast<DLManagedTensor*>(p);
    if (m->deleter != nullptr) m->deleter(m);
  });
  const DLTensor& t = managed->dl_tensor;
  if (t.ndim != 1 && t.ndim != 2) {
    throw Error(what + ": a matrix must have 1 or 2 dimensions, not " + std::to_string(t.ndim));
  }
  in.shape = t.ndim == 2
                 ? Shape{static_cast<std::size_t>(t.shape[0]), static_cast<std::size_t>(t.shape[1])}
                 : Shape{static_cast<std::size_t>(t.shape[0]), 1};
  const char kind = t.dtype.code == kDLUInt      ? 'u'
                    : t.dtype.code == kDLInt     ? 'i'
                    : t.dtype.code == kDLFloat   ? 'f'
                    : t.dtype.code == kDLComplex ? 'c'
                                                 : '?';
  if (kind == '?' || t.dtype.lanes != 1 || t.dtype.bits % 8 != 0) {
    throw Error(what + ": DLPack type code " + std::to_string(t.dtype.code) + " with " +
                std::to_string(t.dtype.bits) + " bits x " + std::to_string(t.dtype.lanes) +
                " lanes is not a number type hepex reads");
  }
  in.typestr = std::string("<") + kind + std::to_string(t.dtype.bits / 8);
  // Strides are in elements; none means C order.
  const bool c_order =
      t.strides == nullptr ||
      (t.ndim == 1
           ? t.strides[0] == 1 || in.shape.rows <= 1
           : (t.strides[1] == 1 || in.shape.cols <= 1) &&
                 (t.strides[0] == static_cast<std::int64_t>(in.shape.cols) || in.shape.rows <= 1));
  if (!c_order) {
    throw Error(what + ": the GPU array is not C-contiguous (make it so, e.g. .contiguous())");
  }
  in.data = static_cast<char*>(t.data) + t.byte_offset;
#if defined(KOKKOS_ENABLE_CUDA)
  if (cudaDeviceSynchronize() != cudaSuccess) {
    throw Error(what + ": synchronising the device failed", ErrorKind::runtime);
  }
#endif
  return in;
}

}  // namespace

DeviceInput device_input(const py::handle& obj, const std::string& what) {
  if constexpr (!has_accelerator) {
    throw Error(what +
                ": a GPU array, but this hepex was built without a GPU backend "
                "(hepex.info()); pass a numpy array");
  }
  if (!py::hasattr(obj, "__cuda_array_interface__")) return dlpack_input(obj, what);
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
    const bool c_order = shape.size() == 1
                             ? strides[0].cast<std::size_t>() == item
                             : strides[1].cast<std::size_t>() == item &&
                                   strides[0].cast<std::size_t>() == item * in.shape.cols;
    if (!c_order) {
      throw Error(what +
                  ": the GPU array is not C-contiguous (make it so, e.g. "
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
