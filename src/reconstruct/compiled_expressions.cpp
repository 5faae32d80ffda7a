#include "hepex/reconstruct/detail/compiled_expressions.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <utility>

#include "hepex/field/big_integer.hpp"

namespace hepex::reconstruct::detail {

namespace {

// Costs in multiplications mod p per point, roughly. A modular inverse
// (extended Euclid, ~40 word divisions) costs about 100.
constexpr std::size_t inverse_cost = 100;

// One per instruction, plus square-and-multiply for powers and the inverses.
std::size_t interpreter_cost(const io::Expression& e) {
  std::size_t cost = 0;
  for (const io::Instruction& ins : e.code()) {
    ++cost;
    if (ins.op == io::Op::pow || ins.op == io::Op::pow_inverse) {
      for (std::uint64_t k = ins.operand; k != 0; k >>= 1) cost += 1 + (k & 1);
    }
    if (ins.op == io::Op::div || ins.op == io::Op::pow_inverse) cost += inverse_cost;
  }
  return cost;
}

template <class F>
void for_each_polynomial(const ExpandedExpression& e, F&& f) {
  f(e.num);
  f(e.den);
  for (const auto& g : e.guards) f(g);
}

// The largest exponent of each variable: the power-table slots it needs.
std::vector<std::uint32_t> degrees(const ExpandedExpression& e, std::size_t variables) {
  std::vector<std::uint32_t> d(variables, 0);
  for_each_polynomial(e, [&](const PolynomialQ& p) {
    for (std::size_t t = 0; t < p.terms(); ++t) {
      for (std::size_t v = 0; v < variables; ++v) d[v] = std::max(d[v], p.exponent(t)[v]);
    }
  });
  return d;
}

// Filling its own power table, a multiply per factor and an add per term, the
// inverse unless D is a constant.
std::size_t compiled_cost(const ExpandedExpression& e, const std::vector<std::uint32_t>& d) {
  std::size_t cost = std::accumulate(d.begin(), d.end(), std::size_t{0});
  for_each_polynomial(e, [&](const PolynomialQ& p) {
    cost += p.terms();
    for (const std::uint32_t x : p.exponents) cost += x != 0 ? 1 : 0;
  });
  const bool constant_den = std::all_of(e.den.exponents.begin(), e.den.exponents.end(),
                                        [](std::uint32_t x) { return x == 0; });
  return cost + (constant_den ? 0 : inverse_cost);
}

}  // namespace

CompiledExpressions::CompiledExpressions(const std::vector<io::Expression>& expressions,
                                         std::size_t variables, const CompileOptions& options) {
  // Expand each expression; keep it when it is cheaper (or always, by the
  // options) and the power table of all kept ones still fits.
  std::vector<std::uint32_t> width(variables, 0);  // slots per variable
  std::vector<std::optional<ExpandedExpression>> kept;
  for (const auto& e : expressions) {
    const std::size_t cost = interpreter_cost(e);
    const std::size_t terms = std::max<std::size_t>(4 * cost, 4096);
    auto expanded = expand(e, {terms, 64 * terms, max_power_slots, std::size_t{1} << 16});
    if (expanded) {
      const auto d = degrees(*expanded, variables);
      std::vector<std::uint32_t> merged(variables);
      for (std::size_t v = 0; v < variables; ++v) merged[v] = std::max(width[v], d[v]);
      const bool fits =
          std::accumulate(merged.begin(), merged.end(), std::size_t{0}) <= max_power_slots;
      if (fits && (!options.only_when_cheaper || compiled_cost(*expanded, d) <= cost)) {
        width = merged;
      } else {
        expanded.reset();
      }
    }
    kept.push_back(std::move(expanded));
  }
  slot_begin_.assign(1, 0);
  for (const std::uint32_t w : width) slot_begin_.push_back(slot_begin_.back() + w);
  for (const auto& e : kept) {
    if (e) append(*e);
    polynomial_begin_.push_back(static_cast<std::uint32_t>(term_begin_.size() - 1));
    constant_divisors_.push_back(e ? e->constant_divisors : std::vector<mpz_class>{});
  }
}

void CompiledExpressions::append(const ExpandedExpression& e) {
  for_each_polynomial(e, [&](const PolynomialQ& p) { append(p); });
}

void CompiledExpressions::append(const PolynomialQ& p) {
  for (std::size_t t = 0; t < p.terms(); ++t) {
    coefficients_.push_back(p.coefficients[t]);
    for (std::size_t v = 0; v < p.variables; ++v) {
      const std::uint32_t e = p.exponent(t)[v];
      if (e != 0) factors_.push_back(static_cast<std::uint16_t>(slot_begin_[v] + e - 1));
    }
    factor_begin_.push_back(static_cast<std::uint32_t>(factors_.size()));
  }
  term_begin_.push_back(static_cast<std::uint32_t>(coefficients_.size()));
}

std::vector<std::uint64_t> CompiledExpressions::coefficients(const field::Zp64& f) const {
  std::vector<std::uint64_t> out(coefficients_.size(), 0);
  for (std::size_t j = 0; j + 1 < polynomial_begin_.size(); ++j) {
    const auto& divisors = constant_divisors_[j];
    if (std::any_of(divisors.begin(), divisors.end(), [&](const mpz_class& d) {
          return mpz_divisible_ui_p(d.get_mpz_t(), f.modulus()) != 0;
        })) {
      continue;
    }
    // No content's numerator is 0 mod p, so no coefficient's denominator is.
    for (std::uint32_t t = term_begin_[polynomial_begin_[j]];
         t < term_begin_[polynomial_begin_[j + 1]]; ++t) {
      out[t] = field::from_big(f, coefficients_[t]);
    }
  }
  return out;
}

}  // namespace hepex::reconstruct::detail
