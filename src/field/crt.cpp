#include "hepex/field/crt.hpp"

#include <algorithm>
#include <sstream>

#include "hepex/core/error.hpp"
#include "hepex/field/primes.hpp"

namespace hepex::field {

namespace {
static_assert(sizeof(unsigned long) == 8, "hepex assumes an LP64 platform (64-bit long)");
mpz_class to_mpz(std::uint64_t x) { return mpz_class(static_cast<unsigned long>(x)); }
}  // namespace

std::optional<mpq_class> rational_reconstruct(const mpz_class& x, const mpz_class& m) {
  if (m <= 0 || x < 0 || x >= m) {
    throw Error("rational_reconstruct: need 0 <= x < m, got x = " + x.get_str() +
                ", m = " + m.get_str());
  }
  // bound = floor(sqrt(m / 2))
  mpz_class bound = m / 2;
  mpz_sqrt(bound.get_mpz_t(), bound.get_mpz_t());

  // Extended Euclid on (m, x), tracking t with r_i = t_i * x (mod m); stop at
  // the first remainder <= bound.
  mpz_class r0 = m, r1 = x, t0 = 0, t1 = 1, q, tmp;
  while (r1 > bound) {
    mpz_fdiv_q(q.get_mpz_t(), r0.get_mpz_t(), r1.get_mpz_t());
    tmp = r0 - q * r1;
    r0 = r1;
    r1 = tmp;
    tmp = t0 - q * t1;
    t0 = t1;
    t1 = tmp;
  }
  if (t1 == 0 || abs(t1) > bound) return std::nullopt;
  mpz_class g;
  mpz_gcd(g.get_mpz_t(), r1.get_mpz_t(), t1.get_mpz_t());
  if (g != 1) return std::nullopt;
  mpq_class result(r1, t1);
  result.canonicalize();  // moves the sign to the numerator
  return result;
}

bool consistent_mod(const mpq_class& q, std::uint64_t p, std::uint64_t residue) {
  const mpz_class pz = to_mpz(p);
  mpz_class den = q.get_den() % pz;
  if (den == 0) return false;
  mpz_class num = q.get_num() % pz;
  if (num < 0) num += pz;
  mpz_class inv;
  mpz_invert(inv.get_mpz_t(), den.get_mpz_t(), pz.get_mpz_t());
  const mpz_class image = (num * inv) % pz;
  return image == to_mpz(residue);
}

std::string RationalLift::explain() const {
  std::ostringstream out;
  if (determined()) {
    out << "all " << values.size() << " values determined by " << primes << " primes ("
        << modulus_bits << "-bit modulus)";
  } else if (primes < 2) {
    out << "the " << values.size() << " values are not determined by " << primes
        << " prime(s): reconstruction needs at least two (the newest confirms the "
           "others); add more primes";
  } else {
    out << undetermined.size() << " of " << values.size() << " values are not determined by the "
        << primes << " primes so far (" << modulus_bits
        << "-bit modulus): the fraction reconstructed from the first " << primes - 1
        << " is not confirmed by the newest (first: index " << undetermined.front()
        << "); add more primes";
  }
  return out.str();
}

CrtLift::CrtLift(std::size_t size) : values_(size) {}

void CrtLift::add(std::uint64_t p, const std::vector<std::uint64_t>& residues) {
  check_prime_modulus(p, 64, "CRT");
  if (std::find(primes_.begin(), primes_.end(), p) != primes_.end()) {
    throw Error("CRT: the prime " + std::to_string(p) + " was already added");
  }
  if (residues.size() != values_.size()) {
    throw Error("CRT: got " + std::to_string(residues.size()) + " residues for " +
                std::to_string(values_.size()) + " values");
  }
  for (std::size_t i = 0; i < residues.size(); ++i) {
    if (residues[i] >= p) {
      throw Error("CRT: residue " + std::to_string(residues[i]) + " at index " + std::to_string(i) +
                  " is not reduced mod " + std::to_string(p));
    }
  }
  const mpz_class pz = to_mpz(p);
  // M^{-1} mod p exists: p is prime and does not divide M (distinct primes).
  mpz_class m_inv;
  mpz_invert(m_inv.get_mpz_t(), modulus_.get_mpz_t(), pz.get_mpz_t());
  mpz_class diff;
  for (std::size_t i = 0; i < residues.size(); ++i) {
    diff = to_mpz(residues[i]) - values_[i];
    mpz_mul(diff.get_mpz_t(), diff.get_mpz_t(), m_inv.get_mpz_t());
    mpz_fdiv_r(diff.get_mpz_t(), diff.get_mpz_t(), pz.get_mpz_t());
    values_[i] += modulus_ * diff;
  }
  modulus_ *= pz;
  primes_.push_back(p);
}

mpz_class CrtLift::symmetric(std::size_t i) const {
  const mpz_class& x = values_.at(i);
  return 2 * x > modulus_ ? mpz_class(x - modulus_) : x;
}

RationalLift CrtLift::to_rationals() const {
  RationalLift lift;
  lift.values.resize(values_.size());
  lift.primes = primes_.size();
  lift.modulus_bits = mpz_sizeinbase(modulus_.get_mpz_t(), 2);
  if (primes_.size() < 2) {
    for (std::size_t i = 0; i < values_.size(); ++i) lift.undetermined.push_back(i);
    return lift;
  }
  const std::uint64_t newest = primes_.back();
  const mpz_class others = modulus_ / to_mpz(newest);
  mpz_class x;
  for (std::size_t i = 0; i < values_.size(); ++i) {
    mpz_fdiv_r(x.get_mpz_t(), values_[i].get_mpz_t(), others.get_mpz_t());
    const auto q = rational_reconstruct(x, others);
    const std::uint64_t image = mpz_fdiv_ui(values_[i].get_mpz_t(), newest);
    if (q && consistent_mod(*q, newest, image)) {
      lift.values[i] = *q;
    } else {
      lift.undetermined.push_back(i);
    }
  }
  return lift;
}

}  // namespace hepex::field
