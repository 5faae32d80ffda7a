#include "hepex/linalg/modgemm_methods.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "hepex/core/error.hpp"

namespace hepex::linalg {

GemmMethod parse_gemm_method(const std::string& name) {
  if (name == "auto") return GemmMethod::automatic;
  if (name == "fp64") return GemmMethod::fp64;
  if (name == "int64") return GemmMethod::int64;
  if (name == "int8") return GemmMethod::int8;
  if (name == "multiword") return GemmMethod::multiword;
  throw Error("unknown --method '" + name + "': use auto, fp64, multiword, int64 or int8");
}

const char* gemm_method_name(GemmMethod method) {
  switch (method) {
    case GemmMethod::fp64: return "fp64";
    case GemmMethod::multiword: return "multiword";
    case GemmMethod::int64: return "int64";
    case GemmMethod::int8: return "int8";
    default: return "auto";
  }
}

GemmMethod resolve_gemm_method(GemmMethod requested, std::uint64_t p, Place where) {
  const bool fp64_exact = fp64_blocks(p).width >= 1;
  if (requested == GemmMethod::automatic) {
    if (where == Place::device) return GemmMethod::int8;
    if (fp64_exact) return GemmMethod::fp64;
    return multiword_split(p).four.width >= 1 ? GemmMethod::multiword : GemmMethod::int64;
  }
  if (requested == GemmMethod::fp64 && !fp64_exact) {
    throw Error("--method fp64 is not exact for p = " + std::to_string(p) +
                ": centred residues up to p/2 have products above 2^53; use int8, int64 or auto");
  }
  if (requested == GemmMethod::multiword && multiword_split(p).four.width < 1) {
    throw Error(
        "--method multiword is not exact for p = " + std::to_string(p) +
        ": its half-word products exceed 2^53 (it reaches p of about 2^54.5); use int8 or int64");
  }
  return requested;
}

namespace {
constexpr double two53 = 9007199254740992.0;
// floor(budget / term), capped; 0 when a single term can exceed the budget.
std::uint64_t terms_within(double budget, double term) {
  const double width = std::floor(budget / term);
  return width >= 1 ? static_cast<std::uint64_t>(std::min(width, 1e12)) : 0;
}
std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b, std::uint64_t p) {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(a) * b % p);
}
}  // namespace

ExactBlocks exact_blocks(double term, std::uint64_t p) {
  const double dp = static_cast<double>(p);
  const std::uint64_t carried =
      p < (std::uint64_t{1} << 51) ? terms_within(two53 - 4 * dp, term) : 0;
  if (carried >= 1) return {carried, true};
  return {terms_within(two53, term), false};
}

ExactBlocks fp64_blocks(std::uint64_t p) {
  const double h = static_cast<double>(p / 2);
  return exact_blocks(h * h, p);
}

MultiwordForm MultiwordSplit::form(std::uint64_t k, Place where) const {
  // One k-block beyond the DGEMM's own work (centring the partial sums, the
  // DGEMM reading them back, a short-k DGEMM's lower rate) costs about as
  // much as this many DGEMM columns. Measured at p = 2^31 - 1 with the
  // B-split form: one CPU core, n = 2048, 0.79 s for 2 products of 9 blocks
  // where a DGEMM takes 0.37 s (about 20 columns a block); the H100,
  // n = 8192, 89.5 ms for 2 products of 33 blocks, 18.6 ms a DGEMM (about 370).
  const double pass = where == Place::device ? 384 : 24;
  auto cost = [&](const ExactBlocks& b, int products) {
    if (b.width < 1) return std::numeric_limits<double>::infinity();
    const double blocks = std::ceil(static_cast<double>(k) / static_cast<double>(b.width));
    return products * (static_cast<double>(k) + pass * blocks);
  };
  const double two = cost(split_b, 2), three = cost(karatsuba, 3), four_products = cost(four, 4);
  if (two <= three && two <= four_products) return MultiwordForm::split_b;
  return three <= four_products ? MultiwordForm::karatsuba : MultiwordForm::four;
}

MultiwordSplit multiword_split(std::uint64_t p) {
  int width = 0;
  for (std::uint64_t h = p / 2; h != 0; h >>= 1) ++width;
  MultiwordSplit s{};
  s.bits = std::max(1, (width + 1) / 2);
  s.high = std::floor(static_cast<double>(p / 2) / std::ldexp(1.0, s.bits)) + 1;
  s.low = std::ldexp(1.0, s.bits - 1);
  const double h = static_cast<double>(p / 2), part = std::max(s.high, s.low);
  s.split_b = exact_blocks(h * part, p);
  s.karatsuba = exact_blocks((s.high + s.low) * (s.high + s.low), p);
  s.four = exact_blocks(part * part, p);
  return s;
}

Int8CrtBasis int8_crt_basis(std::uint64_t p, std::uint64_t depth) {
  // Bits the moduli must cover: M > 4 depth h^2 (the factor 4 keeps
  // |C| / M <= 1/4, away from the rounding point of q).
  const double h = static_cast<double>(std::max<std::uint64_t>(p / 2, 1));
  const double needed = 2.0 + std::log2(static_cast<double>(std::max<std::uint64_t>(depth, 1))) +
                        2.0 * std::log2(h) + 1e-6;
  Int8CrtBasis basis;
  double bits = 0;
  for (std::uint32_t m = 256; m >= 2 && bits < needed; --m) {
    bool coprime = true;
    for (int t = 0; t < basis.count && coprime; ++t) coprime = std::gcd(m, basis.modulus[t]) == 1;
    if (!coprime) continue;
    if (basis.count == Int8CrtBasis::capacity) break;
    basis.modulus[basis.count++] = m;
    bits += std::log2(static_cast<double>(m));
  }
  if (bits < needed) {
    throw Error("int8 CRT basis: " + std::to_string(basis.count) + " moduli cover " +
                    std::to_string(bits) + " of " + std::to_string(needed) + " bits",
                ErrorKind::runtime);
  }
  basis.product_mod_p = 1 % p;
  for (int t = 0; t < basis.count; ++t) {
    const std::uint32_t m = basis.modulus[t];
    basis.product_mod_p = mul_mod(basis.product_mod_p, m % p, p);
    std::uint64_t cofactor_mod_m = 1, cofactor_mod_p = 1 % p;
    for (int s = 0; s < basis.count; ++s) {
      if (s == t) continue;
      cofactor_mod_m = cofactor_mod_m * basis.modulus[s] % m;
      cofactor_mod_p = mul_mod(cofactor_mod_p, basis.modulus[s] % p, p);
    }
    std::uint32_t inverse = 1;
    while (inverse < m && cofactor_mod_m * inverse % m != 1 % m) ++inverse;
    basis.reciprocal[t] = static_cast<std::uint32_t>((std::uint64_t{1} << 32) / m);
    basis.two31[t] = static_cast<std::uint32_t>((std::uint64_t{1} << 31) % m);
    basis.two32[t] = static_cast<std::uint32_t>((std::uint64_t{1} << 32) % m);
    basis.p_residue[t] = static_cast<std::uint32_t>(p % m);
    basis.cofactor_inverse[t] = inverse;
    basis.inverse[t] = 1.0 / m;
    basis.cofactor_mod_p[t] = cofactor_mod_p;
  }
  return basis;
}

}  // namespace hepex::linalg
