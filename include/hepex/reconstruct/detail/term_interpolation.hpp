#pragma once
// One Zippel coefficient c(x) as a univariate polynomial in the variable
// being added, from its values at the geometric points x_i = sigma * g^i
// (i = 0, 1, ...), stopping as early as the values allow (early termination
// per monomial: Kaltofen-Lee-Lobo, ISSAC 2000; racing dense and sparse
// interpolation as FireFly does, Klappert-Lange, CPC 247 (2020) 106951, §2.3):
//
//  * sparse (Ben-Or/Tiwari): v_i = sum_e a_e sigma^e (g^e)^i is a linear
//    recurrence whose characteristic roots are the g^e. Berlekamp-Massey on
//    the values gives the shortest recurrence, of length L; it is accepted
//    once 2L <= values and its L roots are distinct powers g^e with e inside
//    the degree budget. A wrong recurrence splitting into L such roots has
//    probability about (budget/p)^L: a single-term coefficient is done after
//    two values whatever its degree;
//  * dense (Newton): a new divided difference of zero means the interpolant
//    through the earlier values predicted the new one (degree + 2 values);
//  * budget: with a true degree bound B, B + 1 values determine c exactly.
//
// The first to finish wins; the result is c's coefficients, lowest first.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hepex/field/zp.hpp"

namespace hepex::reconstruct::detail {

// The points of one variable: sigma * g^i, and the table g^e for the root
// test of the sparse race.
class GeometricPoints {
 public:
  GeometricPoints(const field::Zp64& f, std::uint64_t sigma, std::uint64_t g,
                  std::size_t max_exponent);
  std::uint64_t point(std::size_t i) const;
  std::uint64_t sigma() const { return sigma_; }
  // e with g^e = r and e <= limit, or -1.
  long exponent_of(std::uint64_t r, std::size_t limit) const;
  const field::Zp64& field() const { return f_; }

 private:
  field::Zp64 f_;
  std::uint64_t sigma_, g_;
  std::vector<std::uint64_t> powers_;  // g^0 .. g^max_exponent
  std::vector<std::uint32_t> order_;   // indices of powers_ sorted by value
};

class TermInterpolation {
 public:
  // budget: the degree cannot exceed it (true bound) when `bounded`;
  // otherwise it only limits the root test, and more values than
  // budget + 1 without an answer mean the degree is beyond the limit.
  TermInterpolation(std::size_t budget, bool bounded) : budget_(budget), bounded_(bounded) {}

  // Adds value v at point index i (indices increase; a skipped index ends
  // the sparse race, whose values must be consecutive). Returns true once
  // c is known (then coefficients() holds it).
  bool add(const GeometricPoints& points, std::size_t i, std::uint64_t v);
  bool done() const { return done_; }
  std::size_t values() const { return nodes_.size(); }
  // The values exceed the limit without an answer.
  bool beyond_limit() const { return !done_ && !bounded_ && nodes_.size() > budget_ + 1; }
  const std::vector<std::uint64_t>& coefficients() const { return coefficients_; }
  // c(x) once done.
  std::uint64_t evaluate(const field::Zp64& f, std::uint64_t x) const;

 private:
  bool try_sparse(const GeometricPoints& points);
  void finish_dense(const field::Zp64& f);

  std::size_t budget_;
  bool bounded_;
  bool done_ = false;
  bool consecutive_ = true;
  std::size_t first_ = 0;  // index of the first value
  std::vector<std::uint64_t> nodes_, values_, differences_;
  std::vector<std::uint64_t> coefficients_;
};

}  // namespace hepex::reconstruct::detail
