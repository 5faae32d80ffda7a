#include "hepex/reconstruct/detail/expand_expression.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <utility>

namespace hepex::reconstruct::detail {

namespace {

using Monomial = std::vector<std::uint32_t>;
using Poly = std::map<Monomial, mpq_class>;                 // no zero coefficients
using FactorPowers = std::map<std::size_t, std::uint64_t>;  // factor index -> exponent

struct Exceeded {};      // a limit was reached
struct NeverDefined {};  // a divisor is zero over Q

// num / prod factor^exponent: the value of a subexpression.
struct Fraction {
  Poly num;
  FactorPowers den;
};

// Runs the stack program on Fractions instead of numbers.
class Expander {
 public:
  Expander(std::size_t variables, const ExpansionLimits& limits)
      : variables_(variables), limits_(limits) {}

  ExpandedExpression run(const io::Expression& e) {
    std::vector<Fraction> stack;
    for (const io::Instruction ins : e.code()) {
      switch (ins.op) {
        case io::Op::constant:
          stack.push_back({constant(mpq_class(e.constants()[ins.operand])), {}});
          break;
        case io::Op::variable: {
          Monomial m(variables_, 0);
          m[ins.operand] = 1;
          stack.push_back({Poly{{m, mpq_class(1)}}, {}});
          break;
        }
        case io::Op::add:
        case io::Op::sub:
        case io::Op::mul:
        case io::Op::div: {
          Fraction b = std::move(stack.back());
          stack.pop_back();
          Fraction& a = stack.back();
          if (ins.op == io::Op::mul) {
            a = product(a, b);
          } else if (ins.op == io::Op::div) {
            a = quotient(a, b);
          } else {
            a = sum(std::move(a), std::move(b), ins.op == io::Op::sub);
          }
          break;
        }
        case io::Op::neg:
          for (auto& term : stack.back().num) term.second = -term.second;
          break;
        case io::Op::pow: stack.back() = power(stack.back(), ins.operand); break;
        case io::Op::pow_inverse: stack.back() = inverse_power(stack.back(), ins.operand); break;
      }
    }
    const Fraction& value = stack.back();
    ExpandedExpression out;
    out.num = to_polynomial(value.num);
    out.den = to_polynomial(expand_powers(value.den));
    for (std::size_t f = 0; f < factors_.size(); ++f) {
      if (value.den.count(f) == 0) out.guards.push_back(to_polynomial(factors_[f]));
    }
    std::sort(constant_divisors_.begin(), constant_divisors_.end());
    constant_divisors_.erase(std::unique(constant_divisors_.begin(), constant_divisors_.end()),
                             constant_divisors_.end());
    out.constant_divisors = std::move(constant_divisors_);
    return out;
  }

 private:
  Poly constant(const mpq_class& c) const {
    if (c == 0) return {};
    return Poly{{Monomial(variables_, 0), c}};
  }

  static bool is_constant(const Poly& p) {
    return p.size() == 1 && std::all_of(p.begin()->first.begin(), p.begin()->first.end(),
                                        [](std::uint32_t e) { return e == 0; });
  }

  void check_size(const Poly& p) const {
    if (p.size() > limits_.terms) throw Exceeded{};
  }

  // a += b (a -= b when subtract).
  void add_to(Poly& a, const Poly& b, bool subtract) const {
    for (const auto& [e, c] : b) {
      const auto it = a.try_emplace(e).first;
      if (subtract) {
        it->second -= c;
      } else {
        it->second += c;
      }
      if (it->second == 0) a.erase(it);
    }
    check_size(a);
  }

  // The bits of a poly's largest coefficient (numerator and denominator).
  static std::size_t coefficient_bits(const Poly& p) {
    std::size_t bits = 0;
    for (const auto& term : p) {
      bits = std::max(bits, mpz_sizeinbase(term.second.get_num_mpz_t(), 2) +
                                mpz_sizeinbase(term.second.get_den_mpz_t(), 2));
    }
    return bits;
  }

  Poly multiply(const Poly& a, const Poly& b) {
    if (a.empty() || b.empty()) return {};
    if (a.size() > (limits_.products - products_) / b.size()) throw Exceeded{};
    // A product's coefficients have about the bits of both factors': beyond
    // the limit the expansion would hold (and remember, expand_powers) ever
    // larger numbers. (34567^2468 + x^2 - y)^-122 + y asked the fuzzer for
    // 8 GB here: every power up to the 80th, megabits per coefficient.
    const std::size_t bits = coefficient_bits(a) + coefficient_bits(b);
    if (bits > limits_.coefficient_bits) throw Exceeded{};
    // And all products together hold at most max_bits_made bits of
    // coefficients (128 MiB: the expanded powers are remembered).
    if (a.size() * b.size() > (max_bits_made - bits_made_) / std::max<std::size_t>(bits, 1)) {
      throw Exceeded{};
    }
    bits_made_ += a.size() * b.size() * std::max<std::size_t>(bits, 1);
    products_ += a.size() * b.size();
    Poly out;
    Monomial m(variables_);
    for (const auto& [ea, ca] : a) {
      for (const auto& [eb, cb] : b) {
        std::uint64_t degree = 0;
        for (std::size_t v = 0; v < variables_; ++v) degree += m[v] = ea[v] + eb[v];
        if (degree > limits_.degree) throw Exceeded{};
        out.try_emplace(m).first->second += ca * cb;
        check_size(out);
      }
    }
    for (auto it = out.begin(); it != out.end();) it = it->second == 0 ? out.erase(it) : ++it;
    return out;
  }

  // a^k, k >= 0 (0^0 = 1).
  Poly power(const Poly& a, std::uint64_t k) {
    if (k == 0) return constant(1);
    if (a.empty() || k == 1) return a;
    // log2 of the largest coefficient's growth factor, per power.
    std::size_t bits = 0;
    for (const auto& term : a) {
      bits = std::max(bits, mpz_sizeinbase(term.second.get_num_mpz_t(), 2) - 1 +
                                mpz_sizeinbase(term.second.get_den_mpz_t(), 2) - 1);
    }
    if (bits > 0 && k > limits_.coefficient_bits / bits) throw Exceeded{};
    if (is_constant(a)) {  // k may be huge here: c = +-1 or a small power
      const mpq_class& c = a.begin()->second;
      mpq_class r;
      mpz_pow_ui(r.get_num_mpz_t(), c.get_num_mpz_t(), k);
      mpz_pow_ui(r.get_den_mpz_t(), c.get_den_mpz_t(), k);  // coprime powers: canonical
      return constant(r);
    }
    if (k > limits_.degree) throw Exceeded{};  // a has a term of degree >= 1
    Poly out = a;
    for (std::uint64_t i = 1; i < k; ++i) out = multiply(out, a);
    return out;
  }

  // prod factor^exponent, expanded. Remembered: a sum of fractions with new
  // denominators asks for the product of all earlier ones at each '+', and
  // each such product is then one multiplication away from the last. The
  // recursion is at most `degree` deep (check_degree).
  const Poly& expand_powers(const FactorPowers& powers) {
    if (const auto it = expanded_.find(powers); it != expanded_.end()) return it->second;
    Poly out = constant(1);
    if (!powers.empty()) {
      FactorPowers rest = powers;
      const auto last = std::prev(rest.end());
      const std::size_t f = last->first;
      if (--last->second == 0) rest.erase(last);
      out = multiply(expand_powers(rest), factors_[f]);
    }
    return expanded_.emplace(powers, std::move(out)).first->second;
  }

  void multiply_by_powers(Poly& p, const FactorPowers& powers) {
    if (!powers.empty()) p = multiply(p, expand_powers(powers));
  }

  static void scale(Poly& p, const mpq_class& c) {
    for (auto& term : p) term.second *= c;
  }

  // A factor has degree >= 1, so factor powers whose exponents add up to
  // more than the degree limit cannot be expanded.
  void check_degree(const FactorPowers& p) const {
    std::uint64_t sum = 0;
    for (const auto& term : p) {
      if ((sum += term.second) > limits_.degree) throw Exceeded{};
    }
  }

  FactorPowers times(FactorPowers a, const FactorPowers& b) const {
    for (const auto& [f, e] : b) a[f] += e;  // both <= degree: no overflow
    check_degree(a);
    return a;
  }

  FactorPowers raised(FactorPowers a, std::uint64_t k) const {
    if (k == 0) return {};
    for (auto& [f, e] : a) {
      if (e > limits_.degree / k) throw Exceeded{};
      e *= k;
    }
    check_degree(a);
    return a;
  }

  std::size_t factor(Poly f) {
    const auto [it, inserted] = factor_index_.try_emplace(std::move(f), factors_.size());
    if (inserted) factors_.push_back(it->first);
    return it->second;
  }

  struct Divisor {
    mpq_class content;
    FactorPowers factors;
  };

  // Splits a divisor d = content * x^m * f (expand_expression.hpp) and records
  // its parts: the variables of x^m and f as factors, the content's numerator.
  Divisor divisor(const Poly& d) {
    if (d.empty()) throw NeverDefined{};
    mpz_class numerators = 0, denominators = 1;
    Monomial low = d.begin()->first;
    for (const auto& [e, c] : d) {
      mpz_gcd(numerators.get_mpz_t(), numerators.get_mpz_t(), c.get_num_mpz_t());
      mpz_lcm(denominators.get_mpz_t(), denominators.get_mpz_t(), c.get_den_mpz_t());
      for (std::size_t v = 0; v < variables_; ++v) low[v] = std::min(low[v], e[v]);
    }
    Divisor out{mpq_class(numerators, denominators), {}};
    out.content.canonicalize();
    if (d.begin()->second < 0) out.content = -out.content;
    if (abs(out.content.get_num()) != 1) constant_divisors_.push_back(abs(out.content.get_num()));
    for (std::size_t v = 0; v < variables_; ++v) {
      if (low[v] == 0) continue;
      Monomial x(variables_, 0);
      x[v] = 1;
      out.factors[factor(Poly{{x, mpq_class(1)}})] = low[v];
    }
    if (d.size() > 1) {
      Poly f;
      for (const auto& [e, c] : d) {
        Monomial shifted = e;
        for (std::size_t v = 0; v < variables_; ++v) shifted[v] -= low[v];
        f.emplace(std::move(shifted), c / out.content);
      }
      out.factors[factor(std::move(f))] += 1;
    }
    return out;
  }

  // a/b + c/d over the least common multiple of b and d.
  Fraction sum(Fraction a, Fraction b, bool subtract) {
    FactorPowers den = a.den;
    for (const auto& [f, e] : b.den) den[f] = std::max(den[f], e);
    check_degree(den);
    multiply_by_powers(a.num, missing(den, a.den));
    multiply_by_powers(b.num, missing(den, b.den));
    if (!subtract && a.num.size() < b.num.size()) std::swap(a.num, b.num);
    add_to(a.num, b.num, subtract);
    return {std::move(a.num), std::move(den)};
  }

  // The factor powers of `all` beyond those of `part`.
  static FactorPowers missing(const FactorPowers& all, const FactorPowers& part) {
    FactorPowers out;
    for (const auto& [f, e] : all) {
      const auto it = part.find(f);
      const std::uint64_t have = it == part.end() ? 0 : it->second;
      if (e > have) out[f] = e - have;
    }
    return out;
  }

  Fraction product(const Fraction& a, const Fraction& b) {
    return {multiply(a.num, b.num), times(a.den, b.den)};
  }

  // (a.num / a.den) / (c x^m f / b.den) = a.num b.den / c  /  (a.den x^m f).
  Fraction quotient(const Fraction& a, const Fraction& b) {
    const Divisor d = divisor(b.num);
    Poly num = a.num;
    multiply_by_powers(num, b.den);
    scale(num, 1 / d.content);
    return {std::move(num), times(a.den, d.factors)};
  }

  Fraction power(const Fraction& a, std::uint64_t k) { return {power(a.num, k), raised(a.den, k)}; }

  // (a.num / a.den)^-k = (a.den / c)^k / (x^m f)^k with a.num = c x^m f.
  Fraction inverse_power(const Fraction& a, std::uint64_t k) {
    Divisor d = divisor(a.num);
    Poly base = expand_powers(a.den);
    scale(base, 1 / d.content);
    return {power(base, k), raised(std::move(d.factors), k)};
  }

  PolynomialQ to_polynomial(const Poly& p) const {
    PolynomialQ out{variables_, {}, {}};
    for (const auto& [e, c] : p) out.add_term(e.data(), c);
    return out;
  }

  std::size_t variables_;
  ExpansionLimits limits_;
  static constexpr std::size_t max_bits_made = std::size_t{1} << 30;
  std::size_t bits_made_ = 0;  // bound on the coefficient bits multiply made so far
  std::size_t products_ = 0;
  std::vector<Poly> factors_;
  std::map<Poly, std::size_t> factor_index_;
  std::map<FactorPowers, Poly> expanded_;
  std::vector<mpz_class> constant_divisors_;
};

}  // namespace

std::optional<ExpandedExpression> expand(const io::Expression& expression,
                                         const ExpansionLimits& limits) {
  try {
    return Expander(expression.variables(), limits).run(expression);
  } catch (const Exceeded&) {
    return std::nullopt;
  } catch (const NeverDefined&) {
    return ExpandedExpression{PolynomialQ{expression.variables(), {}, {}},
                              PolynomialQ{expression.variables(), {}, {}},
                              {},
                              {}};
  }
}

}  // namespace hepex::reconstruct::detail
