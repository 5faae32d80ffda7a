#include "hepex/reconstruct/known_support.hpp"

#include <algorithm>
#include <numeric>

#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/reconstruct/detail/line_target.hpp"
#include "hepex/reconstruct/detail/vandermonde.hpp"
#include "hepex/reconstruct/zippel.hpp"

namespace hepex::reconstruct {

namespace {

using detail::TransposedVandermonde;
using detail::VandermondeSystems;

bool constant_only(const PolynomialModP& p) {
  return p.terms() == 1 &&
         std::all_of(p.exponent(0), p.exponent(0) + p.variables, [](std::uint32_t e) { return e == 0; });
}

bool has_constant(const PolynomialModP& p) {
  for (std::size_t t = 0; t < p.terms(); ++t)
    if (std::all_of(p.exponent(t), p.exponent(t) + p.variables, [](std::uint32_t e) { return e == 0; }))
      return true;
  return false;
}

// Solves the groups' systems sum_t c_t m_t^j = b_j (j = 1..T_g) for the
// coefficients; rhs per group back to back.
std::vector<std::uint64_t> solve_groups(const field::Zp64& f, const VandermondeSystems& systems,
                                        const std::vector<std::uint64_t>& rhs) {
  std::vector<std::uint64_t> sorted;
  for (std::size_t g = 0; g < systems.groups(); ++g) {
    sorted.assign(systems.nodes.begin() + systems.offsets[g],
                  systems.nodes.begin() + systems.offsets[g + 1]);
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      throw UnluckyChoice("known support: two monomials take the same value");
  }
  if (systems.nodes.empty()) return {};
  return TransposedVandermonde<DeviceSpace>(f, systems).solve(1, rhs);
}

std::vector<RationalModP> polynomials(const BlackBox& box, const field::Zp64& f,
                                      RandomElements& random,
                                      const std::vector<RationalModP>& support) {
  const std::size_t n = box.variables(), F = box.functions();
  std::vector<std::uint64_t> y(n);
  for (auto& v : y) v = random.next(f);
  std::size_t T = 0;
  for (const auto& s : support) T = std::max(T, s.num.terms());
  std::vector<std::uint64_t> points(T * n), out;
  std::vector<std::uint8_t> ok;
  std::vector<std::uint64_t> power(n, 1);
  for (std::size_t j = 0; j < T; ++j)
    for (std::size_t l = 0; l < n; ++l) points[j * n + l] = power[l] = f.mul(power[l], y[l]);
  box.evaluate(f, T, points, out, ok);
  if (std::count(ok.begin(), ok.end(), 0) > 0)
    throw UnluckyChoice("known support: the black box fails at a probe");
  VandermondeSystems systems;
  std::vector<std::uint64_t> rhs;
  for (std::size_t g = 0; g < F; ++g) {
    const PolynomialModP& p = support[g].num;
    for (std::size_t t = 0; t < p.terms(); ++t) systems.nodes.push_back(monomial(f, p.exponent(t), y.data(), n));
    systems.offsets.push_back(systems.nodes.size());
    for (std::size_t j = 0; j < p.terms(); ++j) rhs.push_back(out[j * F + g]);
  }
  const auto c = solve_groups(f, systems, rhs);
  std::vector<RationalModP> result(support);
  for (std::size_t g = 0; g < F; ++g)
    std::copy(c.begin() + systems.offsets[g], c.begin() + systems.offsets[g + 1],
              result[g].num.coefficients.begin());
  return result;
}

std::vector<RationalModP> rationals(const BlackBox& box, const field::Zp64& f,
                                    RandomElements& random,
                                    const std::vector<RationalModP>& support) {
  const std::size_t n = box.variables(), F = box.functions(), m = n - 1;
  detail::LineDegrees degrees;
  const auto degree = [&](const PolynomialModP& p, std::size_t t) {
    return std::accumulate(p.exponent(t), p.exponent(t) + n, std::size_t{0});
  };
  for (const auto& s : support) {
    std::size_t dn = 0, dd = 0;
    for (std::size_t t = 0; t < s.num.terms(); ++t) dn = std::max(dn, degree(s.num, t));
    for (std::size_t t = 0; t < s.den.terms(); ++t) dd = std::max(dd, degree(s.den, t));
    degrees.num.push_back(dn);
    degrees.den.push_back(dd);
  }
  detail::LineTarget target(box, f, random, std::vector<std::uint64_t>(n, 0), degrees);
  const auto& parts = target.parts();
  std::vector<std::uint64_t> y(m);
  for (auto& v : y) v = random.next(f);
  const std::size_t P = parts.size();
  // Each part's terms (indices into its function's num or den); once a part
  // is solved, its nodes and c_k node_k^j at the last point z_j done.
  std::vector<std::vector<std::size_t>> terms(P);
  std::vector<std::vector<std::uint64_t>> nodes(P), current(P);
  std::vector<std::uint8_t> solved_part(P, 0);
  for (std::size_t q = 0; q < P; ++q) {
    const PolynomialModP& p = parts[q].den ? support[parts[q].g].den : support[parts[q].g].num;
    for (std::size_t t = 0; t < p.terms(); ++t)
      if (degree(p, t) == parts[q].r) terms[q].push_back(t);
    solved_part[q] = terms[q].empty() ? 1 : 0;
  }
  // Values of each part at z_1, z_2, ..: batches of j over which the parts
  // still unknown stay the same.
  std::vector<std::size_t> ends;
  for (const auto& t : terms) ends.push_back(t.size());
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  std::vector<std::vector<std::uint64_t>> values(parts.size());
  std::vector<RationalModP> result(support);
  std::size_t j0 = 0;  // z_1..z_j0 done
  std::vector<std::uint64_t> power(m, 1);
  for (const std::size_t end : ends) {
    if (end == 0) continue;
    const std::size_t count = end - j0;
    std::vector<std::uint64_t> z(count * m), out;
    std::vector<std::uint8_t> ok;
    for (std::size_t j = j0; j < end; ++j)
      for (std::size_t l = 0; l < m; ++l) z[(j - j0) * m + l] = power[l] = f.mul(power[l], y[l]);
    // The solved parts' values at z_{j0+1}..z_end.
    detail::KnownValues known{std::vector<std::uint8_t>(count * P, 0),
                              std::vector<std::uint64_t>(count * P, 0)};
    for (std::size_t q = 0; q < P; ++q) {
      if (!solved_part[q]) continue;
      for (std::size_t i = 0; i < count; ++i) {
        std::uint64_t sum = 0;
        for (std::size_t k = 0; k < current[q].size(); ++k)
          sum = f.add(sum, current[q][k] = f.mul(current[q][k], nodes[q][k]));
        known.mask[i * P + q] = 1;
        known.values[i * P + q] = sum;
      }
    }
    target.evaluate(f, count, z, known, out, ok);
    if (std::count(ok.begin(), ok.end(), 0) > 0)
      throw UnluckyChoice("known support: a fit along t failed");
    VandermondeSystems systems;
    std::vector<std::uint64_t> rhs;
    std::vector<std::size_t> solved;
    for (std::size_t q = 0; q < parts.size(); ++q) {
      if (terms[q].size() < end) continue;
      for (std::size_t j = j0; j < end; ++j) values[q].push_back(out[(j - j0) * P + q]);
      if (terms[q].size() != end) continue;
      const PolynomialModP& p = parts[q].den ? support[parts[q].g].den : support[parts[q].g].num;
      for (const std::size_t t : terms[q]) nodes[q].push_back(monomial(f, p.exponent(t) + 1, y.data(), m));
      systems.nodes.insert(systems.nodes.end(), nodes[q].begin(), nodes[q].end());
      systems.offsets.push_back(systems.nodes.size());
      rhs.insert(rhs.end(), values[q].begin(), values[q].end());
      solved.push_back(q);
    }
    const auto c = solve_groups(f, systems, rhs);
    for (std::size_t s = 0; s < solved.size(); ++s) {
      const std::size_t q = solved[s];
      const PolynomialModP& p = parts[q].den ? support[parts[q].g].den : support[parts[q].g].num;
      PolynomialModP& into = parts[q].den ? result[parts[q].g].den : result[parts[q].g].num;
      for (std::size_t k = 0; k < terms[q].size(); ++k) {
        const std::uint64_t coefficient = c[systems.offsets[s] + k];
        into.coefficients[terms[q][k]] = coefficient;
        current[q].push_back(f.mul(coefficient, f.pow(nodes[q][k], end)));
      }
      solved_part[q] = 1;
    }
    j0 = end;
  }
  // The normalisation of the fits: D(0) = 1.
  for (std::size_t g = 0; g < F; ++g) {
    const PolynomialModP& d = support[g].den;
    for (std::size_t t = 0; t < d.terms(); ++t)
      if (degree(d, t) == 0) result[g].den.coefficients[t] = 1;
  }
  return result;
}

}  // namespace

bool support_reusable(const std::vector<RationalModP>& support) {
  return std::all_of(support.begin(), support.end(),
                     [](const RationalModP& r) { return constant_only(r.den); }) ||
         std::all_of(support.begin(), support.end(),
                     [](const RationalModP& r) { return has_constant(r.den); });
}

std::vector<RationalModP> from_support(const BlackBox& box, const field::Zp64& f,
                                       std::uint64_t seed,
                                       const std::vector<RationalModP>& support) {
  const KokkosLock lock;
  RandomElements random(seed);
  const bool polynomial = std::all_of(support.begin(), support.end(),
                                      [](const RationalModP& r) { return constant_only(r.den); });
  auto result = polynomial || box.variables() == 0 ? polynomials(box, f, random, support)
                                                    : rationals(box, f, random, support);
  for (auto& r : result) {
    if (r.den.coefficients.back() == 0)
      throw UnluckyChoice("known support: the prime divides the normalising coefficient");
    if (!normalise(r, f)) throw UnluckyChoice("known support: zero denominator");
  }
  return result;
}

}  // namespace hepex::reconstruct
