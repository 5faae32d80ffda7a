#pragma once
// A block of rows of a .npy file, read without the rest: what one MPI rank of
// a distributed elimination holds (linalg/distributed_rref.hpp), so that no
// rank needs the memory of the whole matrix. In C order the block is one
// contiguous stretch of the data, read and converted in chunks; a Fortran-order
// file is read whole and the block taken (its rows are strided through the
// file). Every check of read_npy (npy.hpp) applies to the whole file: the
// header, the dtype, the data's length; an entry the field refuses is named
// with its place in the whole matrix (a[i, j], 0-based).

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/io/npy.hpp"

namespace hepex::io {

// The shape of the file's matrix (rows x cols; a 1-D array is a column).
struct NpyShape {
  std::size_t rows = 0, cols = 0;
};

template <class F>
Matrix<typename F::value_type> read_npy_rows(const std::string& path, const F& field,
                                             std::size_t first, std::size_t count,
                                             const ReadLimits& limits = {},
                                             NpyShape* shape = nullptr) {
  using T = typename F::value_type;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open the file");
  const detail::NpyHeader h = detail::read_npy_header(in, path);
  if (shape != nullptr) *shape = {h.rows, h.cols};
  if (first > h.rows || count > h.rows - first) {
    throw Error(path + ": rows " + std::to_string(first) + " .. " + std::to_string(first + count) +
                " of a matrix of " + std::to_string(h.rows) + " rows");
  }
  if (h.fortran_order) {
    const Matrix<T> whole = read_npy(path, field, limits);
    Matrix<T> block(count, whole.cols);
    std::copy_n(whole.data.begin() + static_cast<std::ptrdiff_t>(first * whole.cols),
                count * whole.cols, block.data.begin());
    return block;
  }
  // The data's length, checked as read_npy checks it by reading to its end.
  const std::streamoff start = in.tellg();
  in.seekg(0, std::ios::end);
  const auto bytes = static_cast<std::size_t>(in.tellg() - start);
  if (bytes != h.rows * h.cols * h.item_bytes) {
    throw Error(path + ": the data holds " + std::to_string(bytes) + " bytes, its shape " +
                std::to_string(h.rows) + " x " + std::to_string(h.cols) + " of " +
                std::to_string(h.item_bytes) + "-byte entries needs " +
                std::to_string(h.rows * h.cols * h.item_bytes));
  }
  Matrix<T> block;
  detail::visit_npy_type(h.type, [&](auto raw) {
    using Raw = decltype(raw);
    if constexpr (!detail::npy_converts<F, Raw>()) {
      detail::refuse_npy_dtype<F>(h, path);
    } else {
      detail::check_fits(count, h.cols, sizeof(T), path, limits);
      block = detail::fresh_matrix(count, h.cols, field.zero());
      const std::size_t offset = first * h.cols, values = count * h.cols;
      in.seekg(start + static_cast<std::streamoff>(offset * sizeof(Raw)));
      constexpr std::size_t chunk = std::size_t{1} << 16;
      std::vector<unsigned char> buffer(std::min(values, chunk) * sizeof(Raw));
      for (std::size_t done = 0; done < values; done += chunk) {
        const std::size_t n = std::min(chunk, values - done);
        detail::read_npy_data(in, reinterpret_cast<char*>(buffer.data()), n * sizeof(Raw),
                              (offset + done) * sizeof(Raw), h, path);
        for (std::size_t k = 0; k < n; ++k) {
          const Raw x = h.swap ? detail::load_npy<Raw, true>(buffer.data() + k * sizeof(Raw))
                               : detail::load_npy<Raw, false>(buffer.data() + k * sizeof(Raw));
          if (!detail::npy_element(field, x, block.data[done + k])) {
            detail::npy_entry_error(h, offset + done + k, path, detail::npy_refusal(x));
          }
        }
      }
    }
  });
  return block;
}

}  // namespace hepex::io
