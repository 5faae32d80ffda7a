"""GPU arrays in and out without host copies (CUDA builds only): a minimal
object exposing __cuda_array_interface__ over memory from the CUDA runtime
(ctypes), an object exposing DLPack alone, and CuPy / PyTorch arrays where
those are installed."""
import ctypes
import ctypes.util

import numpy as np
import pytest

import hepex
from conftest import SEED, DLPackOnly, rng_for
from test_linalg import oracle_rref_mod

pytestmark = pytest.mark.skipif(not hepex.info()["gpu"], reason="hepex built without a GPU")


def cudart():
    for name in ("libcudart.so", "libcudart.so.13", "libcudart.so.12", ctypes.util.find_library("cudart")):
        if name:
            try:
                return ctypes.CDLL(name)
            except OSError:
                continue
    pytest.skip("no CUDA runtime library to allocate test memory")


class MinimalCudaArray:
    """Device memory holding a numpy array's bytes, described by version 3 of
    __cuda_array_interface__ and nothing else."""

    def __init__(self, host):
        self.rt = cudart()
        self.host = np.ascontiguousarray(host)
        self.ptr = ctypes.c_void_p()
        assert self.rt.cudaMalloc(ctypes.byref(self.ptr), ctypes.c_size_t(max(self.host.nbytes, 1))) == 0
        assert self.rt.cudaMemcpy(self.ptr, self.host.ctypes.data_as(ctypes.c_void_p),
                                  ctypes.c_size_t(self.host.nbytes), 1) == 0  # host to device
        self.__cuda_array_interface__ = {
            "shape": self.host.shape, "typestr": self.host.dtype.str,
            "data": (self.ptr.value, False), "version": 3, "strides": None, "stream": 1}

    def __del__(self):
        self.rt.cudaFree(self.ptr)


def device_to_numpy(cai, dtype):
    rt = cudart()
    out = np.empty(cai["shape"], dtype=dtype)
    assert rt.cudaMemcpy(out.ctypes.data_as(ctypes.c_void_p), ctypes.c_void_p(cai["data"][0]),
                         ctypes.c_size_t(out.nbytes), 2) == 0  # device to host
    return out


@pytest.mark.parametrize("p,dtype", [(65521, np.uint32), (2**31 - 1, np.uint32),
                                     (2**61 - 1, np.uint64)])
def test_rref_of_a_minimal_cuda_array_stays_on_the_device(p, dtype):
    rng = rng_for("gpu", p)
    a = rng.integers(0, p, (12, 9), dtype=np.uint64).astype(dtype)
    a[5] = a[3]  # rank below 9
    r = hepex.rref(MinimalCudaArray(a), p)
    assert isinstance(r.matrix, hepex.DeviceArray)
    cai = r.matrix.__cuda_array_interface__
    assert cai["shape"] == (12, 9) and cai["typestr"] == np.dtype(dtype).str
    expected, pivots = oracle_rref_mod(a.astype(object), p)
    assert device_to_numpy(cai, dtype).tolist() == expected, f"seed {SEED}"
    assert r.matrix.numpy().tolist() == expected and r.pivots == pivots


def test_modgemm_of_minimal_cuda_arrays():
    p = 65521
    rng = rng_for("gpu gemm")
    a = rng.integers(0, p, (33, 17), dtype=np.uint32)
    b = rng.integers(0, p, (17, 20), dtype=np.uint32)
    c = hepex.modgemm(MinimalCudaArray(a), MinimalCudaArray(b), p)
    assert isinstance(c, hepex.DeviceArray)
    assert c.numpy().tolist() == (a.astype(object).dot(b.astype(object)) % p).tolist()


def test_gpu_inputs_are_checked_on_the_device():
    p = 101
    with pytest.raises(hepex.InvalidInputError, match="a: 1 entries are not reduced below p = 101"):
        hepex.rref(MinimalCudaArray(np.array([[1, 200], [3, 4]], dtype=np.uint32)), p)
    with pytest.raises(hepex.InvalidInputError, match="a GPU array of <i8; .* <u4"):
        hepex.rref(MinimalCudaArray(np.eye(2, dtype=np.int64)), p)
    with pytest.raises(hepex.InvalidInputError, match="1 entries are not finite"):
        hepex.rref(MinimalCudaArray(np.array([[1.0, np.inf]])))


def test_cupy_array_hands_over_without_copies():
    cupy = pytest.importorskip("cupy")
    p = 2**31 - 1
    a = rng_for("cupy").integers(0, p, (64, 64), dtype=np.uint32)
    r = hepex.rref(cupy.asarray(a), p)
    assert cupy.asnumpy(cupy.asarray(r.matrix)).tolist() == hepex.rref(a, p, backend="host").matrix.tolist()


def test_torch_tensor_hands_over_without_copies():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no GPU")
    a = rng_for("torch").standard_normal((40, 30))
    r = hepex.rref(torch.tensor(a, device="cuda"))
    on_gpu = torch.as_tensor(r.matrix, device="cuda")
    expected = hepex.rref(a, backend="host").matrix
    assert np.max(np.abs(on_gpu.cpu().numpy() - expected)) < 1e-12


def test_dlpack_gpu_arrays_are_read_on_the_device():
    p = 65521
    a = rng_for("dlpack gpu").integers(0, p, (20, 15), dtype=np.uint32)
    cupy = pytest.importorskip("cupy")
    on_gpu = cupy.asarray(a)
    r = hepex.rref(DLPackOnly(on_gpu), p)
    assert isinstance(r.matrix, hepex.DeviceArray)
    assert r.matrix.numpy().tolist() == oracle_rref_mod(a.astype(object), p)[0], f"seed {SEED}"
