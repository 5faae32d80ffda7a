#include "hepex/reconstruct/detail/product_tree.hpp"

#include <gmp.h>

#include <algorithm>

#include "hepex/reconstruct/detail/univariate.hpp"

namespace hepex::reconstruct::detail {

namespace {

// Each coefficient of a product of polynomials with coefficients below
// 2^63 and at most 2^64 terms per sum fits in three 64-bit limbs: one slot.
constexpr std::size_t slot_limbs = 3;
static_assert(sizeof(mp_limb_t) == sizeof(std::uint64_t), "64-bit GMP limbs");

// Below this length (of the shorter factor) the schoolbook product is faster.
constexpr std::size_t kronecker_threshold = 48;

// The integer sum_k a_k 2^(192 k).
void pack(mpz_t out, const std::vector<std::uint64_t>& a) {
  mp_limb_t* limbs = mpz_limbs_write(out, static_cast<mp_size_t>(a.size() * slot_limbs));
  std::fill(limbs, limbs + a.size() * slot_limbs, mp_limb_t{0});
  for (std::size_t k = 0; k < a.size(); ++k) limbs[k * slot_limbs] = a[k];
  mp_size_t size = static_cast<mp_size_t>(a.size() * slot_limbs);
  while (size > 0 && limbs[size - 1] == 0) --size;
  mpz_limbs_finish(out, size);
}

std::vector<std::uint64_t> kronecker(const field::Zp64& f, const std::vector<std::uint64_t>& a,
                                     const std::vector<std::uint64_t>& b) {
  mpz_t x, y;
  mpz_init(x);
  mpz_init(y);
  pack(x, a);
  pack(y, b);
  mpz_mul(x, x, y);
  const std::size_t n = a.size() + b.size() - 1, size = mpz_size(x);
  const mp_limb_t* limbs = mpz_limbs_read(x);
  std::vector<std::uint64_t> c(n);
  for (std::size_t k = 0; k < n; ++k) {
    field::TripleWord<std::uint64_t> slot;
    const std::size_t at = k * slot_limbs;
    slot.lo = at < size ? limbs[at] : 0;
    slot.hi = at + 1 < size ? limbs[at + 1] : 0;
    slot.top = at + 2 < size ? limbs[at + 2] : 0;
    c[k] = slot.reduce(f);
  }
  mpz_clear(x);
  mpz_clear(y);
  return c;
}

std::vector<std::uint64_t> schoolbook(const field::Zp64& f, const std::vector<std::uint64_t>& a,
                                      const std::vector<std::uint64_t>& b) {
  std::vector<field::TripleWord<std::uint64_t>> sum(a.size() + b.size() - 1);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) sum[i + j].add_product(a[i], b[j]);
  std::vector<std::uint64_t> c(sum.size());
  for (std::size_t k = 0; k < c.size(); ++k) c[k] = sum[k].reduce(f);
  return c;
}

}  // namespace

std::vector<std::uint64_t> multiply_polynomials(const field::Zp64& f,
                                                const std::vector<std::uint64_t>& a,
                                                const std::vector<std::uint64_t>& b) {
  if (a.empty() || b.empty()) return {};
  return std::min(a.size(), b.size()) < kronecker_threshold ? schoolbook(f, a, b)
                                                            : kronecker(f, a, b);
}

std::vector<std::uint64_t> product_of_linear_factors(const field::Zp64& f,
                                                     const std::uint64_t* roots,
                                                     std::size_t count) {
  if (count <= kronecker_threshold) {
    std::vector<std::uint64_t> p{1};
    for (std::size_t j = 0; j < count; ++j) multiply_linear(f, p, roots[j]);
    return p;
  }
  const std::size_t half = count / 2;
  return multiply_polynomials(f, product_of_linear_factors(f, roots, half),
                              product_of_linear_factors(f, roots + half, count - half));
}

}  // namespace hepex::reconstruct::detail
