#pragma once
// A FLINT nmod_poly owned by a C++ object, the tests' oracle for products
// mod p.
#include <flint/nmod_poly.h>

#include <cstdint>
#include <vector>

namespace hepex::test {

class FlintPoly {
 public:
  explicit FlintPoly(std::uint64_t p) { nmod_poly_init(p_, p); }
  FlintPoly(const std::vector<std::uint64_t>& c, std::uint64_t p) : FlintPoly(p) {
    for (std::size_t k = 0; k < c.size(); ++k)
      nmod_poly_set_coeff_ui(p_, static_cast<slong>(k), c[k]);
  }
  ~FlintPoly() { nmod_poly_clear(p_); }
  FlintPoly(const FlintPoly&) = delete;
  FlintPoly& operator=(const FlintPoly&) = delete;
  nmod_poly_struct* get() { return p_; }
  // Coefficients padded with zeros to `length`.
  std::vector<std::uint64_t> coefficients(std::size_t length) const {
    std::vector<std::uint64_t> c(length, 0);
    for (std::size_t k = 0; k < length; ++k)
      c[k] = nmod_poly_get_coeff_ui(p_, static_cast<slong>(k));
    return c;
  }

 private:
  nmod_poly_t p_;
};

}  // namespace hepex::test
