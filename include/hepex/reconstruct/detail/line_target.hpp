#pragma once
// The coefficients in t of rational functions along lines, as functions of a
// probe target (sparse_interpolation.hpp), for balanced Zippel
// (balanced_zippel.hpp) and the later primes (known_support.hpp).
//
// Along the line x = t (1, z) + s, f = N/D is n(t)/d(t) with
//   n(t) = N(t v + s) = sum_r nu_r(z) t^r,  d(t) = sum_r delta_r(z) t^r,
// v = (1, z). nu_r(z) = H_r(1, z) for H_r the degree-r part of N(x + s), a
// polynomial in z of degree <= r; nu_0 = N(s) and delta_0 = D(s) do not
// depend on z. Each line is normalised by one of them (the function's side:
// D(s) = 1, or N(s) = 1 when D(s) = 0), so every nu_r and delta_r is a
// polynomial in z, and one fit along t at a point z gives every coefficient's
// value there (FireFly, Klappert-Lange CPC 247 (2020) 106951, §3.2). The fit
// solves only for the coefficients not known at z (the engine's known values:
// coefficients that have passed the probe), one t per unknown.
//
// The shift s is zero except on a few variables (shift.hpp chooses them):
// then H_r has the monomials of N's parts with those variables' exponents
// lowered, barely more than N. shift.hpp undoes it mod p at the end.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hepex/core/host_threads.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/detail/sparse_interpolation.hpp"
#include "hepex/reconstruct/zippel.hpp"

namespace hepex::reconstruct::detail {

// What lines through the same shift show of one function.
struct LineShape {
  std::size_t num_degree = 0, den_degree = 0;  // the top powers of t
  bool num_side = false;  // normalised by nu_0 = N(s) = 1, else delta_0 = D(s) = 1
  // False: no coefficient is fixed to 1 (the caller knows some in every fit,
  // which normalises it; known_support.hpp's known coefficients).
  bool normalised = true;
  // Per side, per power r: the coefficient of t^r is zero on every line
  // (seen zero on a random one; empty vector: none known to be).
  std::vector<std::uint8_t> num_zero, den_zero;
  bool zero(bool den, std::size_t r) const {
    const auto& z = den ? den_zero : num_zero;
    return r < z.size() && z[r] != 0;
  }
};

// One coefficient: function g's numerator (den = false) or denominator
// coefficient of t^r.
struct Part {
  std::size_t g;
  bool den;
  std::size_t r;
};

class LineTarget : public ProbeTarget {
 public:
  // shift: per variable (zeros where not shifted); shapes: per function;
  // threads (may be null): the fits of a batch spread over them.
  LineTarget(const BlackBox& box, const field::Zp64& f, RandomElements& random,
             std::vector<std::uint64_t> shift, std::vector<LineShape> shapes,
             HostThreads* threads = nullptr);

  // Every coefficient but the normalising one and those known to be zero.
  const std::vector<Part>& parts() const { return parts_; }
  const std::vector<LineShape>& shapes() const { return shapes_; }
  const std::vector<std::uint64_t>& shift() const { return shift_; }
  HostThreads* threads() const { return threads_; }
  // The index in parts() of function g's coefficient of t^r (den: of the
  // denominator), or -1 for the normalising 1 or one known to be zero.
  long part_index(std::size_t g, bool den, std::size_t r) const {
    const auto& side = index_[g][den ? 1 : 0];
    return r < side.size() ? side[r] : -1;
  }

  std::size_t variables() const override { return n_ - 1; }
  std::size_t functions() const override { return parts_.size(); }
  void evaluate(const field::Zp64& f, std::size_t count, const std::vector<std::uint64_t>& z,
                const KnownValues& known, std::vector<std::uint64_t>& values,
                std::vector<std::uint8_t>& ok) override;
  bool uses_known_values() const override { return true; }
  // A function's fit needs its known coefficients only where some other
  // coefficient of it is still unknown.
  std::vector<std::uint8_t> known_needed(const std::vector<std::uint8_t>& passed,
                                         const std::vector<std::size_t>& terms) const override;

 private:
  // The slots of function g's fit at one point: the powers of the unknown
  // coefficients, and every coefficient's value where known (0 elsewhere).
  // (Reused from function to function: a table of 17,000 coefficients fits
  // each of its functions at every probe, and allocations were most of it.)
  struct Slots {
    std::vector<std::size_t> unknown_num, unknown_den;
    std::vector<std::uint64_t> num, den;
    std::vector<std::uint64_t> a, b, power;  // fit()'s system
    std::size_t unknowns() const { return unknown_num.size() + unknown_den.size(); }
  };
  void slots(std::size_t g, const KnownValues& known, std::size_t point, Slots& s) const;
  // How many of function g's coefficients are unknown at the point.
  std::size_t unknowns(std::size_t g, const KnownValues& known, std::size_t point) const;
  // Solves the fit from (t, y) pairs into s.num and s.den; false when singular.
  bool fit(const field::Zp64& f, Slots& s, const std::uint64_t* t, const std::uint64_t* y,
           std::size_t stride) const;

  const BlackBox& box_;
  RandomElements& random_;
  HostThreads* threads_;
  std::vector<std::uint64_t> shift_;
  std::vector<LineShape> shapes_;
  std::size_t n_;
  std::vector<Part> parts_;
  // index_[g][den][r]: the part's index, or -1 for a known coefficient.
  std::vector<std::vector<std::vector<long>>> index_;
};

// Solves the U x U system a x = b mod p in place (row-major); false when
// singular.
bool solve_dense(const field::Zp64& f, std::size_t U, std::vector<std::uint64_t>& a,
                 std::vector<std::uint64_t>& b);

}  // namespace hepex::reconstruct::detail
