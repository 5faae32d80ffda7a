#include "hepex/reconstruct/balanced_zippel.hpp"

#include <algorithm>

#include "hepex/core/kokkos_lock.hpp"
#include "hepex/reconstruct/detail/line_target.hpp"
#include "hepex/reconstruct/detail/shift.hpp"
#include "hepex/reconstruct/detail/sparse_interpolation.hpp"

namespace hepex::reconstruct {

std::vector<RationalModP> balanced_zippel(const BlackBox& box, const field::Zp64& f,
                                          std::uint64_t seed, const ZippelOptions& options,
                                          LinePlan* plan) {
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
  if (n == 0) {
    std::vector<std::uint64_t> out;
    std::vector<std::uint8_t> ok;
    box.evaluate(f, 1, {}, out, ok);
    if (ok.at(0) == 0) throw BoxUndefined(1, f.modulus());  // a constant, undefined mod f
    return polynomials(zippel(box, f, seed, options));
  }
  const auto choice = detail::choose_shift(box, f, random, options);
  const bool shifted =
      std::any_of(choice.shift.begin(), choice.shift.end(), [](std::uint64_t s) { return s != 0; });
  if (!shifted && std::all_of(choice.shapes.begin(), choice.shapes.end(),
                              [](const detail::LineShape& s) { return s.den_degree == 0; })) {
    ZippelOptions polynomial_options = options;
    for (const auto& s : choice.shapes) polynomial_options.degree_bounds.push_back(s.num_degree);
    return polynomials(zippel(box, f, random.next(f), polynomial_options));
  }

  if (options.progress != nullptr) {
    *options.progress << "reconstruct: lines x = t (1, z) + s, shifted in";
    std::size_t count = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (choice.shift[i] != 0) *options.progress << (count++ == 0 ? " x" : ", x") << i;
    if (count == 0) *options.progress << " no variable";
    std::size_t num = 0, den = 0;
    for (const auto& shape : choice.shapes) {
      num = std::max(num, shape.num_degree);
      den = std::max(den, shape.den_degree);
    }
    *options.progress << "; the highest degrees along them " << num << " (numerators), " << den
                      << " (denominators)\n";
  }
  detail::LineTarget target(box, f, random, choice.shift, choice.shapes, options.threads);
  std::vector<std::size_t> bounds;
  for (const auto& part : target.parts()) bounds.push_back(part.r);
  const auto parts = detail::interpolate(target, f, random.next(f), options, bounds);
  if (plan != nullptr) {
    plan->shifted.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) plan->shifted[i] = choice.shift[i] != 0 ? 1 : 0;
    plan->shapes = choice.shapes;
    plan->supports = parts;
  }
  return detail::rationals_along_lines(target, parts, f);
}

}  // namespace hepex::reconstruct
