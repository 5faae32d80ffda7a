#pragma once
// Expressions compiled into monomial tables: each chosen expression's N, D
// and guards (expand_expression.hpp) as sums of coefficient * product of
// powers, evaluated mod p per point with one multiply per factor.
//
// Layout (device): per point, a table of powers x_v^1..x_v^{d_v} (d_v the
// largest exponent of x_v in any compiled polynomial) is filled by repeated
// multiplication into a local array of max_power_slots words, so the kernel
// allocates nothing; a term is its coefficient times the slots of its
// variables' powers. Expressions whose tables would not fit stay interpreted.
// Everything but the coefficients is the same for every prime.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hepex/core/kokkos_compat.hpp"
#include "hepex/core/vector_view.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/io/expression.hpp"
#include "hepex/reconstruct/detail/expand_expression.hpp"

namespace hepex::reconstruct::detail {

// The power table of one point: 2 KiB per thread (GPU local memory).
inline constexpr std::size_t max_power_slots = 256;

struct CompileOptions {
  // Compile an expression only when its tables cost fewer multiplications
  // per point than its program (false: whenever the expansion succeeds).
  bool only_when_cheaper = true;
};

// Host, prime-independent: which expressions are compiled, their tables.
class CompiledExpressions {
 public:
  CompiledExpressions(const std::vector<io::Expression>& expressions, std::size_t variables,
                      const CompileOptions& options);

  bool compiled(std::size_t function) const {
    return polynomial_begin_[function + 1] > polynomial_begin_[function];
  }

  // See CompiledTable.
  const std::vector<std::uint32_t>& polynomial_begin() const { return polynomial_begin_; }
  const std::vector<std::uint32_t>& term_begin() const { return term_begin_; }
  const std::vector<std::uint32_t>& factor_begin() const { return factor_begin_; }
  const std::vector<std::uint16_t>& factors() const { return factors_; }
  const std::vector<std::uint32_t>& slot_begin() const { return slot_begin_; }

  // The terms' coefficients mod p; zero for the whole of a function when p
  // divides one of its constant divisors (its D is then 0: it always fails).
  std::vector<std::uint64_t> coefficients(const field::Zp64& f) const;

 private:
  void append(const ExpandedExpression& e);
  void append(const PolynomialQ& p);

  std::vector<std::uint32_t> polynomial_begin_{0}, term_begin_{0}, factor_begin_{0}, slot_begin_;
  std::vector<std::uint16_t> factors_;
  std::vector<mpq_class> coefficients_;
  std::vector<std::vector<mpz_class>> constant_divisors_;  // per function
};

template <class MemorySpace>
struct CompiledTable {
  template <class T>
  using View = Kokkos::View<const T*, MemorySpace>;
  View<std::uint32_t> polynomial_begin;  // function j: polynomials [j, j+1): N, D, guards;
                                         // none when j is interpreted
  View<std::uint32_t> term_begin;        // per polynomial
  View<std::uint64_t> coefficients;      // per term, mod p
  View<std::uint32_t> factor_begin;      // per term
  View<std::uint16_t> factors;           // power-table slots
  View<std::uint32_t> slot_begin;        // variable v: slots [v, v+1) hold x_v^1, x_v^2, ...

  KOKKOS_INLINE_FUNCTION bool compiled(std::size_t j) const {
    return polynomial_begin(j + 1) > polynomial_begin(j);
  }

  KOKKOS_INLINE_FUNCTION void fill_powers(const field::Zp64& f, const std::uint64_t* x,
                                          std::uint64_t* powers) const {
    for (std::size_t v = 0; v + 1 < slot_begin.extent(0); ++v) {
      std::uint64_t p = 1;
      for (std::uint32_t s = slot_begin(v); s < slot_begin(v + 1); ++s) {
        p = f.mul(p, x[v]);
        powers[s] = p;
      }
    }
  }

  KOKKOS_INLINE_FUNCTION std::uint64_t polynomial(const field::Zp64& f, std::size_t q,
                                                  const std::uint64_t* powers) const {
    std::uint64_t sum = 0;
    for (std::uint32_t t = term_begin(q); t < term_begin(q + 1); ++t) {
      std::uint64_t m = coefficients(t);
      for (std::uint32_t k = factor_begin(t); k < factor_begin(t + 1); ++k) {
        m = f.mul(m, powers[factors(k)]);
      }
      sum = f.add(sum, m);
    }
    return sum;
  }

  // Function j (compiled) at the point whose powers are given; false where
  // the expression divides by zero.
  KOKKOS_INLINE_FUNCTION bool evaluate(const field::Zp64& f, std::size_t j,
                                       const std::uint64_t* powers, std::uint64_t& value) const {
    const std::uint32_t first = polynomial_begin(j);
    for (std::uint32_t q = first + 2; q < polynomial_begin(j + 1); ++q) {
      if (polynomial(f, q, powers) == 0) return false;
    }
    const std::uint64_t den = polynomial(f, first + 1, powers);
    if (den == 0) return false;
    value = f.mul(polynomial(f, first, powers), f.inv(den));
    return true;
  }
};

template <class MemorySpace>
CompiledTable<MemorySpace> make_compiled_table(const CompiledExpressions& c, const field::Zp64& f) {
  return {to_view<MemorySpace>(c.polynomial_begin(), "hepex::compiled::polynomial_begin"),
          to_view<MemorySpace>(c.term_begin(), "hepex::compiled::term_begin"),
          to_view<MemorySpace>(c.coefficients(f), "hepex::compiled::coefficients"),
          to_view<MemorySpace>(c.factor_begin(), "hepex::compiled::factor_begin"),
          to_view<MemorySpace>(c.factors(), "hepex::compiled::factors"),
          to_view<MemorySpace>(c.slot_begin(), "hepex::compiled::slot_begin")};
}

}  // namespace hepex::reconstruct::detail
