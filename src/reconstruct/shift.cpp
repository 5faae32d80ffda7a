#include "hepex/reconstruct/detail/shift.hpp"

#include <algorithm>
#include <numeric>

#include "hepex/core/error.hpp"
#include "hepex/reconstruct/detail/univariate.hpp"

namespace hepex::reconstruct::detail {

namespace {

// Rounds of t values on a line before the choices are declared unlucky.
constexpr std::size_t max_line_rounds = 64;
// Rounds without a single point where the black box is defined before the
// function is declared undefined there (8 random points a round).
constexpr std::size_t undefined_after_rounds = 8;
// Working shifts of one size (single variables, pairs ...) tried before the
// sparsest of them is taken.
constexpr std::size_t numerator_candidates = 3;
// Lines fitted by the scan over subsets of variables to shift (each about
// twice the degree in probes) before every variable is shifted.
constexpr std::size_t max_shift_lines = 48;

// Nonzero coefficients of a fitted line (its density: a shift that adds
// terms adds powers of t).
std::size_t nonzero(const std::vector<LineFit>& fits) {
  std::size_t count = 0;
  for (const auto& fit : fits) {
    count += static_cast<std::size_t>(
        std::count_if(fit.num.begin(), fit.num.end(), [](auto c) { return c != 0; }));
    count += static_cast<std::size_t>(
        std::count_if(fit.den.begin(), fit.den.end(), [](auto c) { return c != 0; }));
  }
  return count;
}

}  // namespace

std::vector<LineFit> fit_along(const BlackBox& box, const field::Zp64& f, RandomElements& random,
                               const std::vector<std::uint64_t>& base,
                               const std::vector<std::uint64_t>& direction,
                               const ZippelOptions& options,
                               const std::vector<std::uint64_t>* at_base) {
  const std::size_t n = box.variables(), F = box.functions();
  const std::size_t max_degree = options.max_degree;
  const std::size_t limit = 2 * max_degree + 3, per_round = 8;
  std::vector<RationalFit> fit(F, RationalFit(f, per_round));
  std::vector<std::uint8_t> done(F, 0);
  std::size_t defined = 0;
  if (at_base != nullptr) {
    // t = 0 is the first point (it cannot be predicted yet), and the first
    // round draws one t fewer: the rounds stay aligned with the fit's batch.
    if (at_base->size() != F)
      throw Error("fit_along: values at the base point for the wrong number of functions");
    for (std::size_t g = 0; g < F; ++g) fit[g].add(0, (*at_base)[g]);
    ++defined;
  }
  for (std::size_t round = 0; std::count(done.begin(), done.end(), 0) > 0; ++round) {
    if (round == undefined_after_rounds && defined == 0)
      throw BoxUndefined(round * per_round, f.modulus());
    if (round > max_line_rounds + limit / per_round)
      throw UnluckyChoice("balanced zippel: the black box keeps failing on a line");
    std::vector<std::uint64_t> ts, points;
    const std::size_t draws = round == 0 && at_base != nullptr ? per_round - 1 : per_round;
    while (ts.size() < draws) {
      std::uint64_t t = random.next(f);
      if (at_base != nullptr && t == 0) continue;  // t = 0 is taken (a node twice divides by zero)
      ts.push_back(t);
      for (std::size_t l = 0; l < n; ++l) points.push_back(f.fma(ts.back(), direction[l], base[l]));
    }
    std::vector<std::uint64_t> out;
    std::vector<std::uint8_t> ok;
    box.evaluate(f, draws, points, out, ok);
    for (std::size_t r = 0; r < draws; ++r) defined += ok[r] != 0 ? 1 : 0;
    // Each function's fit takes the round's points on its own (the host threads).
    for_each_on(
        options.threads, F,
        [&](std::size_t begin, std::size_t end) {
          for (std::size_t g = begin; g < end; ++g) {
            for (std::size_t r = 0; r < draws && done[g] == 0; ++r) {
              if (ok[r] == 0) continue;
              if (fit[g].add(ts[r], out[r * F + g]) == RationalFit::Added::predicted) done[g] = 1;
              if (!done[g] && fit[g].size() >= limit) {
                throw Error(
                    degree_limit_message("the total degree", max_degree, options.max_degree_name),
                    ErrorKind::negative_answer);
              }
            }
          }
        },
        16);
  }
  std::vector<LineFit> fits(F);
  for (std::size_t g = 0; g < F; ++g) fit[g].to_rational(fits[g].num, fits[g].den);
  return fits;
}

std::vector<LineFit> fit_line(const BlackBox& box, const field::Zp64& f, RandomElements& random,
                              const std::vector<std::uint64_t>& shift, const ZippelOptions& options,
                              const std::vector<std::uint64_t>* at_shift) {
  std::vector<std::uint64_t> direction(box.variables());
  direction[0] = 1;
  for (std::size_t l = 1; l < direction.size(); ++l) direction[l] = random.next(f);
  return fit_along(box, f, random, shift, direction, options, at_shift);
}

bool shape_of(const LineFit& fit, LineShape& shape) {
  const bool den_side = !fit.den.empty() && fit.den[0] != 0;
  if (!den_side && (fit.num.empty() || fit.num[0] == 0)) return false;
  shape.num_side = !den_side;
  shape.num_degree = fit.num.size() - 1;
  shape.den_degree = fit.den.size() - 1;
  shape.num_zero.assign(fit.num.size(), 0);
  shape.den_zero.assign(fit.den.size(), 0);
  for (std::size_t r = 0; r < fit.num.size(); ++r) shape.num_zero[r] = fit.num[r] == 0 ? 1 : 0;
  for (std::size_t r = 0; r < fit.den.size(); ++r) shape.den_zero[r] = fit.den[r] == 0 ? 1 : 0;
  return true;
}

ShiftChoice choose_shift(const BlackBox& box, const field::Zp64& f, RandomElements& random,
                         const ZippelOptions& options) {
  const std::size_t n = box.variables(), F = box.functions();
  ShiftChoice choice;
  const auto with_shape = [&](std::vector<std::uint64_t> shift,
                              const std::vector<std::uint64_t>* at_shift) -> bool {
    const auto fits = fit_line(box, f, random, shift, options, at_shift);
    std::vector<LineShape> shapes(F);
    for (std::size_t g = 0; g < F; ++g)
      if (!shape_of(fits[g], shapes[g])) return false;
    choice = {std::move(shift), std::move(shapes)};
    return true;
  };
  // 1. The origin; then, where the black box is undefined there, single
  // variables shifted (one batch of n probes). A point where the black box
  // is defined has D(s) != 0 for every function (not for a black box that
  // cannot be probed on the coordinate hyperplanes: step 2 tests the
  // origin's line too). The origin's values are the first point of its line.
  if (options.probes_on_hyperplanes) {
    std::vector<std::uint64_t> origin(n, 0), at_origin;
    std::vector<std::uint8_t> ok;
    box.evaluate(f, 1, origin, at_origin, ok);
    if (ok[0] != 0 && with_shape(std::move(origin), &at_origin)) return choice;
    std::vector<std::uint64_t> points(n * n, 0), out;
    std::vector<std::uint64_t> values(n);
    for (std::size_t i = 0; i < n; ++i) points[i * n + i] = values[i] = random.next(f);
    box.evaluate(f, n, points, out, ok);
    for (std::size_t i = n; i-- > 0;) {  // the last variable first, as FireFly
      if (ok[i] == 0) continue;
      std::vector<std::uint64_t> shift(n, 0);
      shift[i] = values[i];
      const std::vector<std::uint64_t> at_shift(
          out.begin() + static_cast<std::ptrdiff_t>(i * F),
          out.begin() + static_cast<std::ptrdiff_t>((i + 1) * F));
      if (with_shape(std::move(shift), &at_shift)) return choice;
      break;  // D(s) != 0, yet no constant on the line: unlucky, try the others below
    }
  }
  // 2. The degrees of a line shifted in every variable; a line through a
  // shift that keeps them has N(s) or D(s) nonzero (no power of t cancels).
  // The origin's line (probes_on_hyperplanes false), then single variables,
  // then pairs, triples ... (FireFly's scan over subsets by size: an IBP
  // table's Gram determinant has no constant term and no single variable
  // gives it one, yet a shift in every variable makes its coefficients
  // several times denser). Of the first few of one size that work, the one
  // with the fewest nonzero coefficients along its line; at most
  // max_shift_lines lines in all.
  std::vector<std::uint64_t> all(n);
  for (auto& s : all) s = random.next(f);
  const auto reference = fit_line(box, f, random, all, options);
  std::size_t lines = 0;
  const auto works = [&](const std::vector<LineFit>& fits, std::vector<LineShape>& shapes) {
    for (std::size_t g = 0; g < F; ++g) {
      if (fits[g].num.size() != reference[g].num.size() ||
          fits[g].den.size() != reference[g].den.size() || !shape_of(fits[g], shapes[g]))
        return false;
    }
    return true;
  };
  if (!options.probes_on_hyperplanes) {
    std::vector<std::uint64_t> origin(n, 0);
    std::vector<LineShape> shapes(F);
    ++lines;
    if (works(fit_line(box, f, random, origin, options), shapes))
      return {std::move(origin), std::move(shapes)};  // no shift at all
  }
  for (std::size_t size = 1; size < n && lines < max_shift_lines; ++size) {
    std::size_t found = 0, sparsest = 0;
    ShiftChoice best;
    // The subsets of `size` variables, the last variables first (as FireFly):
    // chosen[0] > chosen[1] > ..., in decreasing lexicographic order.
    std::vector<std::size_t> chosen(size);
    for (std::size_t k = 0; k < size; ++k) chosen[k] = n - 1 - k;
    while (found < numerator_candidates && lines < max_shift_lines) {
      std::vector<std::uint64_t> shift(n, 0);
      for (const std::size_t i : chosen) shift[i] = random.next(f);
      const auto fits = fit_line(box, f, random, shift, options);
      ++lines;
      std::vector<LineShape> shapes(F);
      if (works(fits, shapes)) {
        const std::size_t density = nonzero(fits);
        if (found++ == 0 || density < sparsest) {
          sparsest = density;
          best = {std::move(shift), std::move(shapes)};
        }
      }
      // The next subset: lower the last index that can go lower, and put
      // the ones after it just below it.
      std::size_t k = size;
      while (k-- > 0 && chosen[k] <= size - 1 - k) {
      }
      if (k == SIZE_MAX) break;
      --chosen[k];
      for (std::size_t l = k + 1; l < size; ++l) chosen[l] = chosen[l - 1] - 1;
    }
    if (found > 0) return best;
  }
  // 3. Every variable.
  std::vector<LineShape> shapes(F);
  for (std::size_t g = 0; g < F; ++g)
    if (!shape_of(reference[g], shapes[g]))
      throw UnluckyChoice("balanced zippel: a shift in every variable leaves no constant");
  return {std::move(all), std::move(shapes)};
}

namespace {

// Exponent vectors as sort keys for unshift(): packed into one word, bits
// per variable, when the degrees fit (a shifted IBP table expands into
// millions of terms: a vector key is an allocation each), else the vector.
struct PackedExponents {
  using Key = std::uint64_t;
  std::size_t n, bits;
  Key encode(const std::uint32_t* e) const {
    Key k = 0;
    for (std::size_t i = 0; i < n; ++i) k |= Key{e[i]} << (bits * i);
    return k;
  }
  void decode(Key k, std::uint32_t* e) const {
    for (std::size_t i = 0; i < n; ++i)
      e[i] = static_cast<std::uint32_t>((k >> (bits * i)) & ((Key{1} << bits) - 1));
  }
  // The key with x_i's exponent lowered from `from` to `to`.
  Key lowered(Key k, std::size_t i, std::uint32_t from, std::uint32_t to) const {
    return k - (Key{from - to} << (bits * i));
  }
};

struct VectorExponents {
  using Key = std::vector<std::uint32_t>;
  std::size_t n;
  Key encode(const std::uint32_t* e) const { return Key(e, e + n); }
  void decode(const Key& k, std::uint32_t* e) const { std::copy(k.begin(), k.end(), e); }
  Key lowered(Key k, std::size_t i, std::uint32_t, std::uint32_t to) const {
    k[i] = to;
    return k;
  }
};

template <class Exponents>
PolynomialModP unshift_with(const field::Zp64& f, const std::vector<PolynomialModP>& nu,
                            const std::vector<std::uint64_t>& shift, const Exponents& codec) {
  const std::size_t n = shift.size();
  PolynomialModP out{n, {}, {}};
  std::vector<std::size_t> shifted;
  for (std::size_t i = 0; i < n; ++i)
    if (shift[i] != 0) shifted.push_back(i);
  // Binomials mod p up to the top degree.
  const std::size_t top = nu.size() - 1;
  std::vector<std::vector<std::uint64_t>> binomial(top + 1);
  for (std::size_t e = 0; e <= top; ++e) {
    binomial[e].assign(e + 1, 1);
    for (std::size_t k = 1; k < e; ++k)
      binomial[e][k] = f.add(binomial[e - 1][k - 1], binomial[e - 1][k]);
  }
  // Powers of the shift values.
  std::vector<std::vector<std::uint64_t>> power(n);
  for (const std::size_t i : shifted) {
    power[i].assign(top + 1, 1);
    for (std::size_t k = 1; k <= top; ++k) power[i][k] = f.mul(power[i][k - 1], shift[i]);
  }
  // images[r]: what the higher parts of N contribute to the degree-r part of
  // N(x + s), homogeneous in x_0..x_{n-1}, negated, one entry per
  // contribution (sorted and added up when degree r is reached: cheaper
  // than a hash map's node per term).
  using Key = typename Exponents::Key;
  std::vector<std::vector<std::pair<Key, std::uint64_t>>> images(top + 1);
  std::vector<std::uint32_t> e(n), exponent(n);
  for (std::size_t r = top + 1; r-- > 0;) {
    // H_r from nu_r: x_0's exponent makes it homogeneous of degree r.
    std::vector<std::pair<Key, std::uint64_t>> part = std::move(images[r]);
    const PolynomialModP& p = nu[r];
    for (std::size_t t = 0; t < p.terms(); ++t) {
      const std::uint32_t* z = p.exponent(t);
      const std::size_t degree = std::accumulate(z, z + p.variables, std::size_t{0});
      if (degree > r) throw UnluckyChoice("balanced zippel: a coefficient exceeds its degree");
      e[0] = static_cast<std::uint32_t>(r - degree);
      std::copy(z, z + p.variables, e.begin() + 1);
      // P_r = H_r - images[r]: images were stored negated, so add.
      part.emplace_back(codec.encode(e.data()), p.coefficients[t]);
    }
    std::sort(part.begin(), part.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::size_t kept = 0;
    for (std::size_t k = 0; k < part.size(); ++k) {
      if (kept > 0 && part[kept - 1].first == part[k].first)
        part[kept - 1].second = f.add(part[kept - 1].second, part[k].second);
      else if (kept++ != k)
        part[kept - 1] = std::move(part[k]);
    }
    part.resize(kept);
    for (const auto& [key, c] : part) {
      if (c == 0) continue;
      codec.decode(key, exponent.data());
      out.add_term(exponent.data(), c);
      if (shifted.empty()) continue;
      // The lower-degree terms of c x^e at x + s: prod over the shifted i of
      // sum_k C(e_i, k) x_i^k s_i^(e_i - k), all but the top term, stored
      // negated in images[] (they are subtracted from the lower H's).
      const auto expand = [&](auto&& self, std::size_t which, std::uint64_t weight,
                              std::size_t dropped, const typename Exponents::Key& lowered) -> void {
        if (which == shifted.size()) {
          if (dropped != 0) images[r - dropped].emplace_back(lowered, f.neg(weight));
          return;
        }
        const std::size_t i = shifted[which];
        const std::uint32_t ei = exponent[i];
        for (std::uint32_t k = 0; k <= ei; ++k) {
          const std::uint64_t w = f.mul(weight, f.mul(binomial[ei][k], power[i][ei - k]));
          self(self, which + 1, w, dropped + (ei - k), codec.lowered(lowered, i, ei, k));
        }
      };
      expand(expand, 0, c, 0, key);
    }
  }
  out.sort();
  return out;
}

}  // namespace

PolynomialModP unshift(const field::Zp64& f, const std::vector<PolynomialModP>& nu,
                       const std::vector<std::uint64_t>& shift) {
  const std::size_t n = shift.size();
  if (nu.empty()) return PolynomialModP{n, {}, {}};
  // Every exponent is at most the top degree.
  std::size_t bits = 1;
  while ((std::size_t{1} << bits) <= nu.size() - 1) ++bits;
  if (bits * n <= 64) return unshift_with(f, nu, shift, PackedExponents{n, bits});
  return unshift_with(f, nu, shift, VectorExponents{n});
}

namespace {

// Function g's nu_r (or delta_r) for r = 0..top from the interpolated
// coefficients: the normalising one 1, those known to be zero empty.
std::vector<PolynomialModP> coefficients_of(const LineTarget& target,
                                            const std::vector<PolynomialModP>& parts, std::size_t g,
                                            bool den, std::size_t m) {
  const LineShape& shape = target.shapes()[g];
  std::vector<PolynomialModP> nu((den ? shape.den_degree : shape.num_degree) + 1,
                                 PolynomialModP{m, {}, {}});
  if (den != shape.num_side) nu[0].add_term(std::vector<std::uint32_t>(m, 0).data(), 1);
  for (std::size_t r = 0; r < nu.size(); ++r) {
    const long q = target.part_index(g, den, r);
    if (q >= 0) nu[r] = parts[static_cast<std::size_t>(q)];
  }
  return nu;
}

}  // namespace

std::vector<RationalModP> rationals_along_lines(const LineTarget& target,
                                                const std::vector<PolynomialModP>& parts,
                                                const field::Zp64& f) {
  const std::size_t F = target.shapes().size(), n = target.shift().size();
  std::vector<RationalModP> result(F);
  for_each_on(target.threads(), F, [&](std::size_t begin, std::size_t end) {
    for (std::size_t g = begin; g < end; ++g) {
      result[g].num = unshift(f, coefficients_of(target, parts, g, false, n - 1), target.shift());
      result[g].den = unshift(f, coefficients_of(target, parts, g, true, n - 1), target.shift());
    }
  });
  return result;
}

}  // namespace hepex::reconstruct::detail
