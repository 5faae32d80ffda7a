#pragma once
// Arrays in GPU memory. Inputs: what CuPy, PyTorch, Numba and JAX hand
// over through __cuda_array_interface__ (version 3, Numba's specification)
// or DLPack (__dlpack__ / __dlpack_device__ of the Python array API), read
// where they are. Results: DeviceArray, a matrix hepex keeps in device
// memory and exposes through the same interface, so that cupy.asarray(r) or
// torch.as_tensor(r, device="cuda") takes it without a copy.

#include <functional>
#include <memory>

#include "arrays.hpp"
#include "python_call.hpp"

namespace hepex::python {

// A borrowed C-ordered 1-D or 2-D array in device memory.
struct DeviceInput {
  void* data = nullptr;
  Shape shape;
  std::string typestr;  // numpy's "<u4", "<f8", ...
  py::object owner;     // keeps the producer's array alive
};

// Whether obj exposes __cuda_array_interface__, or DLPack on a GPU.
bool is_device_array(const py::handle& obj);

// Its description: refused (hepex::Error naming `what`) in builds without a
// GPU, for other than 1 or 2 dimensions, strided layouts and masks. Waits
// for the stream the producer names (for DLPack: for the whole device).
DeviceInput device_input(const py::handle& obj, const std::string& what);

// numpy's type string of T ("<u4").
template <class T>
std::string typestr() {
  return std::string(py::str(py::dtype::of<typename NumpyType<T>::type>().attr("str")));
}

class DeviceArray {
 public:
  template <class T>
  explicit DeviceArray(const DeviceMatrix<T, DeviceMemory>& view)
      : keep_(new DeviceMatrix<T, DeviceMemory>(view), release<T>),
        data_(view.data()),
        shape_{view.extent(0), view.extent(1)},
        typestr_(python::typestr<T>()),
        // Through the kept View: a copy here would outlive Kokkos at exit.
        to_numpy_([kept = static_cast<const DeviceMatrix<T, DeviceMemory>*>(keep_.get())] {
          const PythonCall call;
          T* data = nullptr;
          py::array out = new_matrix<T>({kept->extent(0), kept->extent(1)}, data);
          Kokkos::deep_copy(Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace,
                                         Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                                data, kept->extent(0), kept->extent(1)),
                            *kept);
          return out;
        }) {}

  py::tuple shape() const { return py::make_tuple(shape_.rows, shape_.cols); }
  std::string typestr() const { return typestr_; }
  py::dict cuda_array_interface() const;
  py::array to_numpy() const { return to_numpy_(); }

 private:
  KokkosHold hold_;             // first: Kokkos outlives the View below
  std::shared_ptr<void> keep_;  // the View, so that the memory lives as long as this
  void* data_;
  Shape shape_;
  std::string typestr_;
  std::function<py::array()> to_numpy_;

  // Frees the View (Kokkos is still up: hold_).
  template <class T>
  static void release(void* view) {
    delete static_cast<DeviceMatrix<T, DeviceMemory>*>(view);
  }
};

void bind_device_arrays(py::module_& m);

}  // namespace hepex::python
