#pragma once
// Big integers (GMP) meeting the word fields, on the host: reduction of an
// arbitrary integer or rational into Z/p.

#include <gmpxx.h>

#include "hepex/core/error.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::field {

// x mod p in [0, p), for any sign and size of x.
template <class Word>
Word from_big(const Zp<Word>& field, const mpz_class& x) {
  // mpz_fdiv_ui: floor division, so the remainder is non-negative.
  return static_cast<Word>(mpz_fdiv_ui(x.get_mpz_t(), field.modulus()));
}

// num/den mod p. Throws hepex::Error when p divides the denominator.
template <class Word>
Word from_big(const Zp<Word>& field, const mpq_class& x) {
  const Word den = from_big(field, x.get_den());
  if (den == 0) {
    throw Error("the denominator of " + x.get_str() + " is divisible by the prime " +
                std::to_string(field.modulus()) + ": the value has no image mod p");
  }
  return field.mul(from_big(field, x.get_num()), field.inv(den));
}

}  // namespace hepex::field
