#pragma once
// The factor scan (FireFly's, Klappert, Lange, Comput. Phys. Commun. 264
// (2021) 107968, §2.3): factors of a numerator or denominator that depend on
// one variable alone (x_i^k, d - 4, 2d - 7, x4 - 3 ...) are found from two
// univariate lines in that variable, divided out of the black box before the
// multivariate work, and multiplied back at the end over Q.
//
// Along x_i = t, the other variables at random values, N and D are
// univariate; a factor q(x_i) of D divides D's restriction on every such
// line, other factors move with the random values: q is the monic gcd of the
// restrictions on two lines (w.h.p.). Its coefficients are lifted to Q by
// Wang's rational reconstruction mod the first prime; a wrong q (probability
// about degree / p) only costs work, since the answer is checked as always.
//
// Which variables: every one, or (automatic) those whose hyperplane x_i = 0
// makes a denominator vanish, found by one probe each when the black box is
// undefined at the origin: monomial factors (the s, t of IBP denominators)
// are what makes a shift necessary, and a shift that must include x_i is
// expensive.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include <gmpxx.h>

#include "hepex/core/host_threads.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/polynomial.hpp"
#include "hepex/reconstruct/zippel.hpp"

namespace hepex::reconstruct::detail {

// A monic polynomial in one variable over Q, lowest degree first.
struct UnivariateFactor {
  std::size_t variable = 0;
  std::vector<mpq_class> coefficients;
  std::size_t degree() const { return coefficients.size() - 1; }
};

struct FunctionFactors {
  std::vector<UnivariateFactor> num, den;
  bool empty() const { return num.empty() && den.empty(); }
};

// The variables whose hyperplane x_i = 0 (the others random) is outside the
// black box's domain: one batch of n probes.
std::vector<std::size_t> vanishing_hyperplanes(const BlackBox& box, const field::Zp64& f,
                                               RandomElements& random);

// Every function's univariate factors in the given variables (two lines each).
std::vector<FunctionFactors> scan_factors(const BlackBox& box, const field::Zp64& f,
                                          RandomElements& random, const ZippelOptions& options,
                                          const std::vector<std::size_t>& variables);

// The black box with each function multiplied by its denominator factors and
// divided by its numerator factors (undefined where those vanish, or where
// the prime divides a factor's coefficient's denominator).
class FactoredBox : public BlackBox {
 public:
  // threads (may be null): the points of a batch divided on them.
  FactoredBox(const BlackBox& box, std::vector<FunctionFactors> factors,
              HostThreads* threads = nullptr)
      : box_(box), factors_(std::move(factors)), threads_(threads) {
    for (const auto& g : factors_) none_ = none_ && g.num.empty() && g.den.empty();
  }
  std::size_t variables() const override { return box_.variables(); }
  std::size_t functions() const override { return box_.functions(); }
  void evaluate(const field::Zp64& f, std::size_t count, const std::vector<std::uint64_t>& points,
                std::vector<std::uint64_t>& values, std::vector<std::uint8_t>& ok) const override;
  const std::vector<FunctionFactors>& factors() const { return factors_; }

 private:
  // The factors mod one prime: each distinct factor once (IBP tables share
  // s, t, d - 4 ... between most of their coefficients), and per function
  // the indices of its numerator and denominator factors.
  struct Reduced {
    std::uint64_t modulus = 0;
    bool usable = true;  // false: the prime divides a coefficient's denominator
    std::vector<std::pair<std::size_t, std::vector<std::uint64_t>>> distinct;  // (variable, q)
    std::vector<std::vector<std::size_t>> num, den;
  };
  std::shared_ptr<const Reduced> reduced(const field::Zp64& f) const;

  const BlackBox& box_;
  std::vector<FunctionFactors> factors_;
  HostThreads* threads_;
  bool none_ = true;          // no factor anywhere: the user's values as they are
  mutable std::mutex mutex_;  // guards reduced_
  mutable std::shared_ptr<const Reduced> reduced_;  // the last prime's
};

// r's numerator times the numerator factors, denominator times the
// denominator factors (exact over Q).
void multiply_back(RationalFunction& r, const FunctionFactors& factors);

}  // namespace hepex::reconstruct::detail
