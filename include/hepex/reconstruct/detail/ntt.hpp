#pragma once
// Cyclic convolutions mod any prime p < 2^63 through number-theoretic
// transforms over three word-size primes q_i = c_i 2^k_i + 1 < 2^62 and
// Garner's CRT back to Z/p (the "three primes" FFT of Pollard, Math. Comp.
// 25, 1971; von zur Gathen & Gerhard, Modern Computer Algebra, §8.3).
//
// Bound: a coefficient of a cyclic convolution of length N <= 2^max_log of
// inputs in [0, p) is an exact sum of at most N products, below
// N p^2 < 2^(max_log + 126) = 2^158 < q_1 q_2 q_3 (> 2^185.9), so its residues
// determine it; longer transforms are refused with hepex::Error
// (ThreePrimeNtt's constructor). Every caller below keeps its exact sums
// under that bound (at most two wrapped coefficients of N/2 + 1 products).
//
// A batch holds `count` segments of N = 2^log_n words per prime, in a View
// of 3 rows (one per q_i) and count * N columns. Forward transforms are
// Gentleman-Sande decimation in frequency (natural order in, bit-reversed
// out), inverse ones Cooley-Tukey decimation in time (bit-reversed in,
// natural out), so no permutation is ever formed: pointwise products do not
// care about the order. One launch per radix-2 stage over all segments and
// primes; twiddles are Shoup products (Zp64::mul_shoup), nothing divides.

#include <cstddef>
#include <cstdint>
#include <string>

#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_compat.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::reconstruct::detail {

// q_i = c_i 2^k_i + 1 with k = 37, 36, 37, and a quadratic non-residue g_i
// (so g_i^((q_i - 1) / 2^m) has order 2^m); q_1 > q_2 > q_3 > 2^61.99.
inline constexpr std::uint64_t primes[3] = {0x3fffffa000000001ull, 0x3fffff3000000001ull,
                                            0x3ffffd2000000001ull};
KOKKOS_INLINE_FUNCTION std::uint64_t non_residue(int i) { return i == 0 ? 3 : i == 1 ? 5 : 13; }

// Residues of one coefficient and the constants to lift them to Z/p.
struct Garner {
  field::Zp64 q[3];
  field::Zp64 f;
  std::uint64_t q1_inv_mod_q2, q1_inv_mod_q3, q2_inv_mod_q3;  // inverses of q_1, q_2
  std::uint64_t q1_mod_p, q1_mod_p_shoup, q12_mod_p, q12_mod_p_shoup;

  explicit Garner(const field::Zp64& field) : f(field) {
    for (int i = 0; i < 3; ++i) q[i] = field::Zp64(primes[i]);
    q1_inv_mod_q2 = q[1].inv(q[1].from_uint(primes[0]));
    q1_inv_mod_q3 = q[2].inv(q[2].from_uint(primes[0]));
    q2_inv_mod_q3 = q[2].inv(q[2].from_uint(primes[1]));
    q1_mod_p = f.from_uint(primes[0]);
    q12_mod_p = f.mul(q1_mod_p, f.from_uint(primes[1]));
    q1_mod_p_shoup = f.shoup(q1_mod_p);
    q12_mod_p_shoup = f.shoup(q12_mod_p);
  }

  // x mod p for the x in [0, q_1 q_2 q_3) with x = r_i mod q_i:
  // x = v1 + v2 q_1 + v3 q_1 q_2 with v_i in [0, q_i) (Garner).
  KOKKOS_INLINE_FUNCTION std::uint64_t lift(std::uint64_t r1, std::uint64_t r2,
                                            std::uint64_t r3) const {
    // q_1 < 2 q_2 < 4 q_3 and q_2 < 2 q_3: one subtraction reduces v1 mod q_2, v2 mod q_3.
    const std::uint64_t v1_q2 = r1 >= q[1].modulus() ? r1 - q[1].modulus() : r1;
    const std::uint64_t v2 = q[1].mul(q[1].sub(r2, v1_q2), q1_inv_mod_q2);
    const std::uint64_t v1_q3 = q[2].from_uint(r1);
    const std::uint64_t v2_q3 = v2 >= q[2].modulus() ? v2 - q[2].modulus() : v2;
    const std::uint64_t v3 =
        q[2].mul(q[2].sub(q[2].mul(q[2].sub(r3, v1_q3), q1_inv_mod_q3), v2_q3), q2_inv_mod_q3);
    return f.add(f.add(f.from_uint(r1), f.mul_shoup(v2, q1_mod_p, q1_mod_p_shoup)),
                 f.mul_shoup(v3, q12_mod_p, q12_mod_p_shoup));
  }
};

template <class Memory>
using Spectra = Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory>;

// Entry m + j (m a power of two, j < m) of row i: (w^j, shoup) in
// `forward`, (w^-j, shoup) in `inverse`, for w of order 2m mod q_i.
template <class ExecSpace>
void fill_twiddles(const Garner& garner, const Spectra<typename ExecSpace::memory_space>& fw,
                   const Spectra<typename ExecSpace::memory_space>& iw) {
  Kokkos::parallel_for(
      "hepex::ntt::twiddles", Kokkos::RangePolicy<ExecSpace>(1, fw.extent(1) / 2),
      KOKKOS_LAMBDA(const std::size_t t) {
        int log_m = 0;
        while ((std::size_t{2} << log_m) <= t) ++log_m;
        const std::size_t m = std::size_t{1} << log_m, j = t - m;
        for (int i = 0; i < 3; ++i) {
          const field::Zp64& q = garner.q[i];
          const std::uint64_t w = q.pow(non_residue(i), (q.modulus() - 1) >> (log_m + 1));
          const std::uint64_t a = q.pow(w, j), b = q.pow(w, 2 * m - j);
          fw(i, 2 * t) = a;
          fw(i, 2 * t + 1) = q.shoup(a);
          iw(i, 2 * t) = b;
          iw(i, 2 * t + 1) = q.shoup(b);
        }
      });
}

// One radix-2 stage of butterflies at distance m = 2^log_m over every
// segment and prime: Gentleman-Sande (forward) or Cooley-Tukey (inverse).
template <class ExecSpace, bool Inverse>
void butterflies(const Garner& garner, const Spectra<typename ExecSpace::memory_space>& table,
                 const Spectra<typename ExecSpace::memory_space>& data, int log_m) {
  const std::size_t m = std::size_t{1} << log_m;
  Kokkos::parallel_for(
      Inverse ? "hepex::ntt::inverse_stage" : "hepex::ntt::forward_stage",
      Kokkos::RangePolicy<ExecSpace>(0, data.extent(1) / 2), KOKKOS_LAMBDA(const std::size_t t) {
        const std::size_t j = t & (m - 1), x = ((t >> log_m) << (log_m + 1)) + j, y = x + m;
        for (int i = 0; i < 3; ++i) {
          const field::Zp64& q = garner.q[i];
          const std::uint64_t w = table(i, 2 * (m + j)), w_shoup = table(i, 2 * (m + j) + 1);
          const std::uint64_t u = data(i, x), v = data(i, y);
          if (Inverse) {
            const std::uint64_t vw = q.mul_shoup(v, w, w_shoup);
            data(i, x) = q.add(u, vw);
            data(i, y) = q.sub(u, vw);
          } else {
            data(i, x) = q.add(u, v);
            data(i, y) = q.mul_shoup(q.sub(u, v), w, w_shoup);
          }
        }
      });
}

// Twiddle tables for transforms of up to 2^max_log points, and the batched
// transforms. Entry m + j (m a power of two, j < m) of row i holds
// w^j for w of order 2m mod q_i, with its Shoup quotient.
template <class ExecSpace>
class ThreePrimeNtt {
 public:
  using Memory = typename ExecSpace::memory_space;
  using Spectra = detail::Spectra<Memory>;
  // Transform lengths allowed by the CRT bound above (and far beyond any
  // device memory: 2^32 points are 96 GiB per segment).
  static constexpr int max_supported_log = 32;

  explicit ThreePrimeNtt(const field::Zp64& f, int max_log) : garner_(f), max_log_(max_log) {
    if (max_log < 0 || max_log > max_supported_log) {
      throw Error("three-prime NTT: " + std::to_string(max_log) +
                  "-bit transform length requested; the CRT bound allows at most 2^" +
                  std::to_string(max_supported_log) + " points (split the problem)");
    }
    const std::size_t size = std::size_t{1} << max_log;
    forward_ = Spectra("hepex::ntt::forward_twiddles", 3, 2 * size);
    inverse_ = Spectra("hepex::ntt::inverse_twiddles", 3, 2 * size);
    detail::fill_twiddles<ExecSpace>(garner_, forward_, inverse_);
  }

  int max_log() const { return max_log_; }
  const detail::Garner& garner() const { return garner_; }

  // Spectra for `count` segments of 2^log_n points, uninitialised: load()
  // and multiply() write every entry.
  Spectra spectra(std::size_t count, int log_n, const char* label) const {
    check_length(log_n);
    return Spectra(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), 3,
                   count << log_n);
  }

  // data(i, s N + k) = value(s, k) mod q_i for every segment s < count and
  // k < N; value(s, k) must lie in [0, 2^64).
  template <class Value>
  void load(const Spectra& data, int log_n, const Value& value) const {
    const auto garner = garner_;
    Kokkos::parallel_for(
        "hepex::ntt::load", Kokkos::RangePolicy<ExecSpace>(0, data.extent(1)),
        KOKKOS_LAMBDA(const std::size_t t) {
          const std::uint64_t x = value(t >> log_n, t & ((std::size_t{1} << log_n) - 1));
          for (int i = 0; i < 3; ++i) data(i, t) = garner.q[i].from_uint(x);
        });
  }

  // In place, every segment: natural order in, bit-reversed order out.
  void forward(const Spectra& data, int log_n) const {
    check_length(log_n);
    for (int log_m = log_n - 1; log_m >= 0; --log_m)
      detail::butterflies<ExecSpace, false>(garner_, forward_, data, log_m);
  }

  // In place, every segment: bit-reversed in, natural out, times N (the
  // 1/N goes into multiply()).
  void inverse(const Spectra& data, int log_n) const {
    check_length(log_n);
    for (int log_m = 0; log_m < log_n; ++log_m)
      detail::butterflies<ExecSpace, true>(garner_, inverse_, data, log_m);
  }

  // out segment s = a segment first(s) * b segment second(s) / N, pointwise:
  // followed by inverse(out) it is the cyclic convolution.
  template <class First, class Second>
  void multiply(const Spectra& out, const Spectra& a, const First& first, const Spectra& b,
                const Second& second, int log_n) const {
    const auto garner = garner_;
    std::uint64_t scale[3], scale_shoup[3];
    for (int i = 0; i < 3; ++i) {
      // 1/N = (1/2)^log_n, 1/2 = (q + 1) / 2.
      scale[i] = garner_.q[i].pow((detail::primes[i] + 1) / 2, log_n);
      scale_shoup[i] = garner_.q[i].shoup(scale[i]);
    }
    const std::uint64_t s0 = scale[0], s1 = scale[1], s2 = scale[2];
    const std::uint64_t t0 = scale_shoup[0], t1 = scale_shoup[1], t2 = scale_shoup[2];
    const std::size_t mask = (std::size_t{1} << log_n) - 1;
    Kokkos::parallel_for(
        "hepex::ntt::pointwise", Kokkos::RangePolicy<ExecSpace>(0, out.extent(1)),
        KOKKOS_LAMBDA(const std::size_t t) {
          const std::size_t s = t >> log_n, k = t & mask;
          const std::size_t x = (first(s) << log_n) + k, y = (second(s) << log_n) + k;
          const std::uint64_t sc[3] = {s0, s1, s2}, sh[3] = {t0, t1, t2};
          for (int i = 0; i < 3; ++i) {
            const field::Zp64& q = garner.q[i];
            out(i, t) = q.mul_shoup(q.mul(a(i, x), b(i, y)), sc[i], sh[i]);
          }
        });
  }

  // store(s, k, c) for every coefficient c (lifted to Z/p) at position k of
  // segment s.
  template <class Store>
  void store(const Spectra& data, int log_n, const Store& store) const {
    const auto garner = garner_;
    const std::size_t mask = (std::size_t{1} << log_n) - 1;
    Kokkos::parallel_for(
        "hepex::ntt::store", Kokkos::RangePolicy<ExecSpace>(0, data.extent(1)),
        KOKKOS_LAMBDA(const std::size_t t) {
          store(t >> log_n, t & mask, garner.lift(data(0, t), data(1, t), data(2, t)));
        });
  }

 private:
  void check_length(int log_n) const {
    if (log_n < 0 || log_n > max_log_) {
      throw Error("three-prime NTT: a 2^" + std::to_string(log_n) +
                      "-point transform exceeds the tables (2^" + std::to_string(max_log_) + ")",
                  ErrorKind::runtime);
    }
  }

  detail::Garner garner_;
  int max_log_;
  Spectra forward_, inverse_;  // (w, shoup(w)) pairs
};

}  // namespace hepex::reconstruct::detail
