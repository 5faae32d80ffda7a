#pragma once
// A matrix in or out as the commands take it: a file (".npy" by its name,
// Matrix Market otherwise) or Matrix Market text already read, written as
// Matrix Market array or coordinate text or as .npy.

#include <fstream>
#include <istream>
#include <ostream>
#include <sstream>
#include <string>

#include "hepex/core/error.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/io/matrix_market.hpp"
#include "hepex/io/npy.hpp"

namespace hepex::io {

// A matrix to read: a file, or Matrix Market text already read (standard
// input, which only rank 0 sees under mpiexec).
struct MatrixSource {
  std::string name;  // the file's path; for text, the name its errors carry
  std::string text;
  bool is_text = false;

  static MatrixSource file(std::string path) { return {std::move(path), {}, false}; }
  static MatrixSource contents(std::string name, std::string text) {
    return {std::move(name), std::move(text), true};
  }
};

enum class MatrixFormat { array, coordinate, npy };

inline bool is_npy_path(const std::string& path) {
  const std::string suffix = ".npy";
  return path.size() >= suffix.size() &&
         path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Reads the whole matrix; hepex::Error naming the source on any fault.
template <class F>
Matrix<typename F::value_type> read_matrix(const MatrixSource& source, const F& f,
                                           const ReadLimits& limits) {
  if (source.is_text) {
    std::istringstream in(source.text);
    return read_matrix_market(in, source.name, f, limits);
  }
  if (is_npy_path(source.name)) return read_npy(source.name, f, limits);
  std::ifstream in(source.name);
  if (!in) throw Error(source.name + ": cannot open the file");
  return read_matrix_market(in, source.name, f, limits);
}

template <class F>
void write_matrix(std::ostream& out, const Matrix<typename F::value_type>& a, const F& f,
                  MatrixFormat format) {
  switch (format) {
    case MatrixFormat::array: return write_matrix_market(out, a, f);
    case MatrixFormat::coordinate: return write_matrix_market_coordinate(out, a, f);
    case MatrixFormat::npy: return write_npy(out, a, f, "--out");
  }
}

// The bytes of a's output, so that it is built without regrowing: counted
// for Z/p array text (decimal digits) and .npy (128 bytes of header at most
// for any shape); 0 (unknown) otherwise.
template <class F>
std::size_t output_bytes(const Matrix<typename F::value_type>& a, const F&, MatrixFormat format) {
  if (format == MatrixFormat::npy) return 128 + a.data.size() * sizeof(typename F::value_type);
  if constexpr (!F::is_exact) {
    return 0;
  } else {
    if (format == MatrixFormat::coordinate) return 0;
    std::size_t bytes = 128;  // the two header lines
    for (auto x : a.data) {
      std::size_t digits = 1;
      for (; x >= 10; x /= 10) ++digits;
      bytes += digits + 1;
    }
    return bytes;
  }
}

}  // namespace hepex::io
