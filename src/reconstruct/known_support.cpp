#include "hepex/reconstruct/known_support.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/reconstruct/detail/line_target.hpp"
#include "hepex/reconstruct/detail/shift.hpp"
#include "hepex/reconstruct/detail/vandermonde.hpp"
#include "hepex/reconstruct/zippel.hpp"

namespace hepex::reconstruct {

namespace {

using detail::TransposedVandermonde;
using detail::VandermondeSystems;

bool constant_only(const PolynomialModP& p) {
  return p.terms() == 1 && std::all_of(p.exponent(0), p.exponent(0) + p.variables,
                                       [](std::uint32_t e) { return e == 0; });
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

// The batches of points z_j = y^j of the known-support solves: a part of k
// terms is solved once z_1..z_k are done, so the batches end at the distinct
// nonzero term counts, ascending.
std::vector<std::size_t> batch_ends(std::vector<std::size_t> counts) {
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  if (!counts.empty() && counts.front() == 0) counts.erase(counts.begin());
  return counts;
}

// z_{j0+1}..z_end as rows of m coordinates, `power` (y^j0 on entry) advanced
// to y^end.
std::vector<std::uint64_t> geometric_points(const field::Zp64& f,
                                            const std::vector<std::uint64_t>& y,
                                            std::vector<std::uint64_t>& power, std::size_t j0,
                                            std::size_t end) {
  const std::size_t m = y.size();
  std::vector<std::uint64_t> z((end - j0) * m);
  for (std::size_t j = j0; j < end; ++j)
    for (std::size_t l = 0; l < m; ++l) z[(j - j0) * m + l] = power[l] = f.mul(power[l], y[l]);
  return z;
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
    for (std::size_t t = 0; t < p.terms(); ++t)
      systems.nodes.push_back(monomial(f, p.exponent(t), y.data(), n));
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

// Along lines through a shift on the plan's variables (fresh values), the
// coefficients in t of known monomials: the fit at z_j = (y^j) solves for the
// coefficients with at least j monomials, each solved by one transposed
// Vandermonde system once it has as many values as monomials and known at
// the later points.
std::vector<RationalModP> rationals(const BlackBox& box, const field::Zp64& f,
                                    RandomElements& random, const LinePlan& plan) {
  const std::size_t n = box.variables(), m = n - 1;
  std::vector<std::uint64_t> shift(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    if (plan.shifted[i]) shift[i] = random.next(f);
  detail::LineTarget target(box, f, random, shift, plan.shapes);
  const auto& parts = target.parts();
  const std::size_t P = parts.size();
  if (plan.supports.size() != P)
    throw UnluckyChoice("known support: the plan does not fit its lines");
  std::vector<std::uint64_t> y(m);
  for (auto& v : y) v = random.next(f);
  // Each part's nodes once solved, and c_k node_k^j at the last point z_j done.
  std::vector<std::vector<std::uint64_t>> nodes(P), current(P);
  std::vector<std::uint8_t> solved_part(P, 0);
  std::vector<PolynomialModP> solution = plan.supports;
  for (std::size_t q = 0; q < P; ++q) solved_part[q] = plan.supports[q].terms() == 0 ? 1 : 0;
  // Values of each part at z_1, z_2, ..: batches of j over which the parts
  // still unknown stay the same.
  std::vector<std::size_t> counts;
  for (const auto& p : plan.supports) counts.push_back(p.terms());
  std::vector<std::vector<std::uint64_t>> values(P);
  std::size_t j0 = 0;  // z_1..z_j0 done
  std::vector<std::uint64_t> power(m, 1);
  for (const std::size_t end : batch_ends(std::move(counts))) {
    const std::size_t count = end - j0;
    const std::vector<std::uint64_t> z = geometric_points(f, y, power, j0, end);
    std::vector<std::uint64_t> out;
    std::vector<std::uint8_t> ok;
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
    for (std::size_t q = 0; q < P; ++q) {
      const PolynomialModP& p = plan.supports[q];
      if (p.terms() < end) continue;
      for (std::size_t j = j0; j < end; ++j) values[q].push_back(out[(j - j0) * P + q]);
      if (p.terms() != end) continue;
      for (std::size_t t = 0; t < p.terms(); ++t)
        nodes[q].push_back(monomial(f, p.exponent(t), y.data(), m));
      systems.nodes.insert(systems.nodes.end(), nodes[q].begin(), nodes[q].end());
      systems.offsets.push_back(systems.nodes.size());
      rhs.insert(rhs.end(), values[q].begin(), values[q].end());
      solved.push_back(q);
    }
    const auto c = solve_groups(f, systems, rhs);
    for (std::size_t k = 0; k < solved.size(); ++k) {
      const std::size_t q = solved[k];
      for (std::size_t t = 0; t < solution[q].terms(); ++t) {
        const std::uint64_t coefficient = c[systems.offsets[k] + t];
        solution[q].coefficients[t] = coefficient;
        current[q].push_back(f.mul(coefficient, f.pow(nodes[q][t], end)));
      }
      solved_part[q] = 1;
    }
    j0 = end;
  }
  return detail::rationals_along_lines(target, solution, f);
}

}  // namespace

std::vector<RationalModP> from_support(const BlackBox& box, const field::Zp64& f,
                                       std::uint64_t seed, const std::vector<RationalModP>& support,
                                       const LinePlan* plan) {
  const KokkosLock lock;
  RandomElements random(seed);
  const bool polynomial = std::all_of(support.begin(), support.end(),
                                      [](const RationalModP& r) { return constant_only(r.den); });
  if (!polynomial && box.variables() > 0 && plan == nullptr) {
    throw UnluckyChoice("known support: rational functions need the first prime's line plan");
  }
  auto result = polynomial || box.variables() == 0 ? polynomials(box, f, random, support)
                                                   : rationals(box, f, random, *plan);
  for (auto& r : result)
    if (!normalise(r, f)) throw UnluckyChoice("known support: zero denominator");
  return result;
}

std::optional<std::vector<RationalModP>> from_support_knowing(
    const BlackBox& box, const field::Zp64& f, std::uint64_t seed,
    const std::vector<RationalModP>& support, const KnownCoefficients& known) {
  const KokkosLock lock;
  const std::size_t n = box.variables(), F = box.functions();
  if (n == 0 || F == 0) return std::nullopt;
  const std::size_t m = n - 1;
  const auto degree = [&](const PolynomialModP& p, std::size_t t) {
    return std::accumulate(p.exponent(t), p.exponent(t) + n, std::size_t{0});
  };
  // Each function's shape along lines through the origin, unnormalised; it
  // needs a class of known coefficients, not all zero.
  std::vector<detail::LineShape> shapes(F);
  for (std::size_t g = 0; g < F; ++g) {
    detail::LineShape& shape = shapes[g];
    shape.normalised = false;
    bool normaliser = false;
    for (int den = 0; den < 2; ++den) {
      const PolynomialModP& p = den ? support[g].den : support[g].num;
      const auto& is_known = den ? known.den[g] : known.num[g];
      const auto& value = den ? known.den_value[g] : known.num_value[g];
      std::size_t top = 0;
      for (std::size_t t = 0; t < p.terms(); ++t) top = std::max(top, degree(p, t));
      std::vector<std::uint8_t> empty(top + 1, 1), all_known(top + 1, 1), nonzero(top + 1, 0);
      for (std::size_t t = 0; t < p.terms(); ++t) {
        const std::size_t r = degree(p, t);
        empty[r] = 0;
        if (!is_known[t]) all_known[r] = 0;
        if (is_known[t] && value[t] != 0) nonzero[r] = 1;
      }
      for (std::size_t r = 0; r <= top; ++r)
        if (!empty[r] && all_known[r] && nonzero[r]) normaliser = true;
      (den ? shape.den_degree : shape.num_degree) = top;
      (den ? shape.den_zero : shape.num_zero) = empty;
    }
    if (!normaliser) return std::nullopt;
  }
  RandomElements random(seed);
  detail::LineTarget target(box, f, random, std::vector<std::uint64_t>(n, 0), shapes);
  const auto& parts = target.parts();
  const std::size_t P = parts.size();
  std::vector<std::uint64_t> y(m);
  for (auto& v : y) v = random.next(f);
  // Per part: its terms, and for the known and the unknown ones the nodes and
  // c_k node_k^j at the last point done.
  struct Terms {
    std::vector<std::size_t> known, unknown;
    std::vector<std::uint64_t> known_nodes, known_current, nodes, current;
    std::vector<std::uint64_t> values;  // the unknown terms' share at z_1, z_2, ..
    bool solved = false;
  };
  std::vector<Terms> terms(P);
  std::vector<RationalModP> result = support;
  for (std::size_t q = 0; q < P; ++q) {
    const detail::Part& part = parts[q];
    const PolynomialModP& p = part.den ? support[part.g].den : support[part.g].num;
    const auto& is_known = part.den ? known.den[part.g] : known.num[part.g];
    const auto& value = part.den ? known.den_value[part.g] : known.num_value[part.g];
    auto& into = part.den ? result[part.g].den : result[part.g].num;
    for (std::size_t t = 0; t < p.terms(); ++t) {
      if (degree(p, t) != part.r) continue;
      const std::uint64_t node = monomial(f, p.exponent(t) + 1, y.data(), m);
      if (is_known[t]) {
        terms[q].known.push_back(t);
        terms[q].known_nodes.push_back(node);
        terms[q].known_current.push_back(value[t]);
        into.coefficients[t] = value[t];
      } else {
        terms[q].unknown.push_back(t);
        terms[q].nodes.push_back(node);
      }
    }
    terms[q].solved = terms[q].unknown.empty();
  }
  const auto advance = [&](std::vector<std::uint64_t>& current,
                           const std::vector<std::uint64_t>& nodes) {
    std::uint64_t sum = 0;
    for (std::size_t k = 0; k < current.size(); ++k)
      sum = f.add(sum, current[k] = f.mul(current[k], nodes[k]));
    return sum;
  };
  std::vector<std::size_t> counts;
  for (const auto& t : terms) counts.push_back(t.unknown.size());
  std::size_t j0 = 0;
  std::vector<std::uint64_t> power(m, 1);
  for (const std::size_t end : batch_ends(std::move(counts))) {
    const std::size_t count = end - j0;
    const std::vector<std::uint64_t> z = geometric_points(f, y, power, j0, end);
    std::vector<std::uint64_t> out;
    std::vector<std::uint8_t> ok;
    // Known shares at z_{j0+1}..z_end: whole parts once solved, else the
    // known terms' (kept to subtract).
    detail::KnownValues values{std::vector<std::uint8_t>(count * P, 0),
                               std::vector<std::uint64_t>(count * P, 0)};
    std::vector<std::uint64_t> known_share(count * P, 0);
    for (std::size_t q = 0; q < P; ++q) {
      for (std::size_t i = 0; i < count; ++i) {
        const std::uint64_t share = advance(terms[q].known_current, terms[q].known_nodes);
        known_share[i * P + q] = share;
        if (!terms[q].solved) continue;
        values.mask[i * P + q] = 1;
        values.values[i * P + q] = f.add(share, advance(terms[q].current, terms[q].nodes));
      }
    }
    target.evaluate(f, count, z, values, out, ok);
    if (std::count(ok.begin(), ok.end(), 0) > 0)
      throw UnluckyChoice("known support: a fit along t failed");
    VandermondeSystems systems;
    std::vector<std::uint64_t> rhs;
    std::vector<std::size_t> solved;
    for (std::size_t q = 0; q < P; ++q) {
      Terms& tq = terms[q];
      if (tq.solved || tq.unknown.size() < end) continue;
      for (std::size_t i = 0; i < count; ++i)
        tq.values.push_back(f.sub(out[i * P + q], known_share[i * P + q]));
      if (tq.unknown.size() != end) continue;
      systems.nodes.insert(systems.nodes.end(), tq.nodes.begin(), tq.nodes.end());
      systems.offsets.push_back(systems.nodes.size());
      rhs.insert(rhs.end(), tq.values.begin(), tq.values.end());
      solved.push_back(q);
    }
    const auto c = solve_groups(f, systems, rhs);
    for (std::size_t k = 0; k < solved.size(); ++k) {
      Terms& tq = terms[solved[k]];
      const detail::Part& part = parts[solved[k]];
      auto& into = part.den ? result[part.g].den : result[part.g].num;
      for (std::size_t u = 0; u < tq.unknown.size(); ++u) {
        const std::uint64_t coefficient = c[systems.offsets[k] + u];
        into.coefficients[tq.unknown[u]] = coefficient;
        tq.current.push_back(f.mul(coefficient, f.pow(tq.nodes[u], end)));
      }
      tq.solved = true;
    }
    j0 = end;
  }
  for (auto& r : result)
    if (!normalise(r, f)) throw UnluckyChoice("known support: zero denominator");
  return result;
}

}  // namespace hepex::reconstruct
