#include "hepex/reconstruct/balanced_zippel.hpp"

#include <algorithm>
#include <numeric>

#include "hepex/core/kokkos_lock.hpp"
#include "hepex/reconstruct/detail/line_target.hpp"
#include "hepex/reconstruct/detail/sparse_interpolation.hpp"
#include "hepex/reconstruct/detail/univariate.hpp"

namespace hepex::reconstruct {

namespace {

using detail::Thiele;

// Rounds of t values on the first line before the choices are declared unlucky.
constexpr std::size_t max_first_line_rounds = 64;
// Rounds without a single point where the black box is defined before the
// function is declared undefined everywhere (8 random points a round).
constexpr std::size_t undefined_after_rounds = 8;

// The degrees of every function along one random line t (1, z) + s (Thiele
// in t until each function is predicted); negative answer beyond the limit.
detail::LineDegrees first_line(const BlackBox& box, const field::Zp64& f, RandomElements& random,
                               const std::vector<std::uint64_t>& shift, const ZippelOptions& options) {
  const std::size_t max_degree = options.max_degree;
  const std::size_t n = box.variables(), F = box.functions();
  std::vector<std::uint64_t> z(n);
  z[0] = 1;
  for (std::size_t l = 1; l < n; ++l) z[l] = random.next(f);
  std::vector<Thiele> thiele(F, Thiele(f));
  std::vector<std::uint8_t> done(F, 0);
  const std::size_t limit = 2 * max_degree + 2, per_round = 8;
  std::size_t defined = 0;
  for (std::size_t round = 0; std::count(done.begin(), done.end(), 0) > 0; ++round) {
    if (round == undefined_after_rounds && defined == 0) throw BoxUndefined(round * per_round, f.modulus());
    if (round > max_first_line_rounds + limit / per_round)
      throw UnluckyChoice("balanced zippel: the black box keeps failing on the first line");
    std::vector<std::uint64_t> ts, points;
    for (std::size_t r = 0; r < per_round; ++r) {
      ts.push_back(random.next(f));
      for (std::size_t l = 0; l < n; ++l) points.push_back(f.fma(ts.back(), z[l], shift[l]));
    }
    std::vector<std::uint64_t> out;
    std::vector<std::uint8_t> ok;
    box.evaluate(f, per_round, points, out, ok);
    for (std::size_t r = 0; r < per_round; ++r) {
      if (ok[r] == 0) continue;
      ++defined;
      for (std::size_t g = 0; g < F; ++g) {
        if (done[g] != 0) continue;
        if (thiele[g].add(ts[r], out[r * F + g]) == Thiele::Added::predicted) done[g] = 1;
        if (!done[g] && thiele[g].size() >= limit) {
          throw Error(degree_limit_message("the total degree", max_degree, options.max_degree_name),
                      ErrorKind::negative_answer);
        }
      }
    }
  }
  detail::LineDegrees degrees;
  for (std::size_t g = 0; g < F; ++g) {
    std::vector<std::uint64_t> num, den;
    thiele[g].to_rational(num, den);
    if (den.empty() || den[0] == 0)
      throw UnluckyChoice("balanced zippel: the line passes a zero of the denominator");
    degrees.num.push_back(num.empty() ? 0 : num.size() - 1);
    degrees.den.push_back(den.size() - 1);
  }
  return degrees;
}

// z-polynomial of degree <= level -> homogeneous polynomial of that degree in x.
void add_homogenised(const PolynomialModP& q, std::size_t level, PolynomialModP& into) {
  std::vector<std::uint32_t> e(into.variables);
  for (std::size_t t = 0; t < q.terms(); ++t) {
    const std::uint32_t* z = q.exponent(t);
    const std::uint64_t degree = std::accumulate(z, z + q.variables, std::uint64_t{0});
    if (degree > level) throw UnluckyChoice("balanced zippel: a part exceeds its degree");
    e[0] = static_cast<std::uint32_t>(level - degree);
    std::copy(z, z + q.variables, e.begin() + 1);
    into.add_term(e.data(), q.coefficients[t]);
  }
}

}  // namespace

std::vector<RationalModP> balanced_zippel(const BlackBox& box, const field::Zp64& f,
                                          std::uint64_t seed, const ZippelOptions& options) {
  const KokkosLock lock;
  const std::size_t n = box.variables(), F = box.functions();
  RandomElements random(seed);
  std::vector<RationalModP> result(F);
  const auto polynomials = [&](const std::vector<PolynomialModP>& p) {
    for (std::size_t g = 0; g < F; ++g) {
      result[g].num = p[g];
      result[g].den = PolynomialModP{n, std::vector<std::uint32_t>(n, 0), {1}};
    }
    return result;
  };
  std::vector<std::uint64_t> shift(n, 0), out;
  std::vector<std::uint8_t> ok;
  box.evaluate(f, 1, shift, out, ok);
  if (n == 0) {
    if (ok.at(0) == 0) throw BoxUndefined(1, f.modulus());  // a constant, undefined mod f
    return polynomials(zippel(box, f, seed, options));
  }
  // No shift when the black box is regular at the origin: then D(0) != 0.
  if (ok[0] == 0) {
    for (auto& s : shift) s = random.next(f);
  }
  const auto degrees = first_line(box, f, random, shift, options);
  if (std::all_of(degrees.den.begin(), degrees.den.end(), [](std::size_t d) { return d == 0; })) {
    ZippelOptions polynomial_options = options;
    polynomial_options.degree_bounds = degrees.num;
    return polynomials(zippel(box, f, random.next(f), polynomial_options));
  }

  detail::LineTarget target(box, f, random, shift, degrees);
  std::vector<std::size_t> bounds;
  for (const auto& part : target.parts()) bounds.push_back(part.r);
  const auto parts = detail::interpolate(target, f, random.next(f), options, bounds);
  for (std::size_t g = 0; g < F; ++g) {
    result[g].num = result[g].den = PolynomialModP{n, {}, {}};
    if (!target.shifted()) result[g].den.add_term(std::vector<std::uint32_t>(n, 0).data(), 1);
  }
  for (std::size_t q = 0; q < parts.size(); ++q) {
    const auto& part = target.parts()[q];
    add_homogenised(parts[q], part.r, part.den ? result[part.g].den : result[part.g].num);
  }
  return result;
}

}  // namespace hepex::reconstruct
