#pragma once
// The homogeneous parts of rational functions as functions of a probe target
// (sparse_interpolation.hpp), for balanced Zippel (balanced_zippel.hpp).
//
// Along the line x = t (1, z) + s, f = N/D is n(t)/d(t) with d(0) = D(s),
// constant in z. Normalised to d(0) = 1, the coefficient of t^r in n (d) is,
// for s = 0, the degree-r part N_r (D_r) dehomogenised by x_0 = 1 and divided
// by D(0): a polynomial in z of degree <= r. So one fit along t at a point z
// gives every part's value at z (FireFly, Klappert-Lange CPC 247 (2020)
// 106951, §3.2). The fit solves only for the parts not known at z (the
// engine's known values: parts that have passed the probe), and needs one t
// per unknown part (the degrees in t are known from a first line).
//
// With a shift s != 0 (needed when D(0) = 0), the coefficient of t^r is the
// degree-r part of N(x + s): N_r plus terms of the higher parts of N. Parts
// are then found from the top degree down, each once the higher ones are
// known (ready()), their contributions along the line subtracted (adjust()),
// and every fit solves for all coefficients in t.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/detail/sparse_interpolation.hpp"
#include "hepex/reconstruct/zippel.hpp"

namespace hepex::reconstruct::detail {

// Degrees in t of function g's numerator and denominator.
struct LineDegrees {
  std::vector<std::size_t> num, den;
};

// One homogeneous part: function g's numerator (den = false) or denominator
// part of degree r.
struct Part {
  std::size_t g;
  bool den;
  std::size_t r;
};

class LineTarget : public ProbeTarget {
 public:
  LineTarget(const BlackBox& box, const field::Zp64& f, RandomElements& random, std::vector<std::uint64_t> shift,
             LineDegrees degrees);

  const std::vector<Part>& parts() const { return parts_; }
  bool shifted() const { return shifted_; }

  std::size_t variables() const override { return n_ - 1; }
  std::size_t functions() const override { return parts_.size(); }
  void evaluate(const field::Zp64& f, std::size_t count, const std::vector<std::uint64_t>& z,
                const KnownValues& known, std::vector<std::uint64_t>& values,
                std::vector<std::uint8_t>& ok) override;
  bool uses_known_values() const override { return !shifted_; }
  std::uint64_t adjust(std::size_t q, const std::uint64_t* z, std::uint64_t raw) override;
  bool ready(std::size_t q) const override;
  void finished(std::size_t q, const PolynomialModP& p) override;

 private:
  // The slots of function g's fit at one point: the degrees r of the
  // unknown parts, and every part's value where known (0 elsewhere).
  struct Slots {
    std::vector<std::size_t> unknown_num, unknown_den;
    std::vector<std::uint64_t> num, den;
    std::size_t unknowns() const { return unknown_num.size() + unknown_den.size(); }
  };
  Slots slots(std::size_t g, const KnownValues& known, std::size_t point) const;
  // Solves the fit from (t, y) pairs into s.num and s.den; false when singular.
  bool fit(const field::Zp64& f, Slots& s, const std::uint64_t* t, const std::uint64_t* y,
           std::size_t stride) const;
  // [t^r] of the known parts of (g, den) of degree > r at t (1, z) + s.
  std::uint64_t known_along_line(std::size_t g, bool den, std::size_t r,
                                 const std::uint64_t* z);

  const BlackBox& box_;
  field::Zp64 f_;
  RandomElements& random_;
  std::vector<std::uint64_t> shift_;
  bool shifted_;
  LineDegrees degrees_;
  std::size_t n_;
  std::vector<Part> parts_;
  // index_[g][den] [r]: the part's index, or none for den r = 0 unshifted.
  std::vector<std::vector<std::vector<std::optional<std::size_t>>>> index_;
  // The finished parts (shifted: what ready() and adjust() need).
  std::vector<std::optional<PolynomialModP>> known_;
  // Shifted: per (z, g, den) the known parts' polynomial in t and how many
  // parts it holds.
  std::map<std::vector<std::uint64_t>, std::pair<std::size_t, std::vector<std::uint64_t>>> along_;
};

}  // namespace hepex::reconstruct::detail
