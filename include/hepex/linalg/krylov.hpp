#pragma once
// The Sparse-FGLM building blocks over Z/p: Krylov sequences
// s_i^(j) = r^T T^i e_j for a block of b start vectors advanced together
// (one fat-vector product T V per step through modgemm), and Berlekamp-Massey,
// which turns a sequence into its minimal polynomial (Massey, IEEE Trans. Inf.
// Theory 15(1), 1969).

#include <vector>

#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/random.hpp"
#include "hepex/linalg/modgemm.hpp"

namespace hepex::linalg {

// The monic minimal polynomial of a linearly recurrent sequence, coefficients
// from x^0 up (length L + 1, L its linear complexity). Exact for a sequence of
// length >= 2L; shorter prefixes give the shortest recurrence seen so far.
template <class Word>
std::vector<Word> berlekamp_massey(const field::Zp<Word>& f, const std::vector<Word>& s) {
  std::vector<Word> c{1}, b{1};  // connection polynomials, 1 + c1 x + ... + cL x^L
  std::size_t length = 0, shift = 1;
  Word last = 1;  // discrepancy when b was last replaced
  for (std::size_t n = 0; n < s.size(); ++n) {
    Word d = s[n];
    for (std::size_t i = 1; i <= length && i < c.size(); ++i) d = f.fma(c[i], s[n - i], d);
    if (d == 0) {
      ++shift;
      continue;
    }
    const Word scale = f.mul(d, f.inv(last));
    std::vector<Word> next = c;
    if (next.size() < b.size() + shift) next.resize(b.size() + shift, 0);
    for (std::size_t i = 0; i < b.size(); ++i)
      next[i + shift] = f.sub(next[i + shift], f.mul(scale, b[i]));
    if (2 * length <= n) {
      b = c;
      length = n + 1 - length;
      last = d;
      shift = 1;
    } else {
      ++shift;
    }
    c = std::move(next);
  }
  c.resize(length + 1, 0);
  // m(x) = x^L C(1/x): reverse the connection polynomial.
  return std::vector<Word>(c.rbegin(), c.rend());
}

// How the Krylov vectors T^i E are formed:
//  stepwise  one fat-vector product T V per step (length products D x D x b);
//  doubling  Keller-Gehrig (seed modular-matrix-multiplication-gpu, §3.1.2):
//            K <- [K | P K], P <- P^2 starting from K = E, P = T, so that
//            K = [E, T E, ..., T^(2^j - 1) E] after j rounds: about log2(length)
//            products P K and squarings of P, all large GEMMs.
enum class KrylovProducts { stepwise, doubling };

namespace detail {
// dst(:, offset + j) = src(:, j).
template <class Word, class Memory>
void copy_columns(const DeviceMatrix<Word, Memory>& src, const DeviceMatrix<Word, Memory>& dst,
                  std::size_t offset) {
  using Exec = typename Memory::execution_space;
  Kokkos::parallel_for(
      "hepex::krylov::copy_columns",
      Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(
          0, static_cast<std::int64_t>(src.extent(0) * src.extent(1))),
      KOKKOS_LAMBDA(const std::int64_t flat) {
        const std::int64_t cols = static_cast<std::int64_t>(src.extent(1));
        const std::int64_t i = flat / cols, j = flat % cols;
        dst(i, offset + j) = src(i, j);
      });
}
}  // namespace detail

// s[j][i] = r^T T^i e_j for i < length and every column e_j of E (D x b).
template <class Word>
std::vector<std::vector<Word>> krylov_sequences(
    const field::Zp<Word>& f, const Matrix<Word>& t, const std::vector<Word>& r,
    const Matrix<Word>& e, std::size_t length, Place backend = Place::device,
    KrylovProducts products = KrylovProducts::stepwise) {
  const KokkosLock lock;
  if (t.rows != t.cols || e.rows != t.rows || r.size() != t.rows) {
    throw Error("krylov_sequences: T must be D x D, r of length D and E D x b (got T " +
                std::to_string(t.rows) + "x" + std::to_string(t.cols) + ", r " +
                std::to_string(r.size()) + ", E " + std::to_string(e.rows) + "x" +
                std::to_string(e.cols) + ")");
  }
  const std::size_t b = e.cols;
  std::vector<std::vector<Word>> s(b, std::vector<Word>(length));
  auto run = [&](auto space) {
    using Memory = typename decltype(space)::memory_space;
    using ConstView = ConstDeviceMatrix<Word, Memory>;
    Matrix<Word> row(1, r.size());
    row.data = r;
    // Products by T (or its powers) keep the converted T in their workspace
    // between steps; the projections by r use their own.
    GemmWorkspace<Memory> by_t, by_r;
    by_t.keep_left_operand(true);
    auto product = [&](const auto& x, const auto& y, const DeviceMatrix<Word, Memory>& out,
                       GemmWorkspace<Memory>& workspace) {
      modgemm(space, f, ConstView(x), ConstView(y), out, GemmMethod::automatic, false, &workspace);
    };
    const auto dt = to_device<Memory>(t, "T");
    const auto dr = to_device<Memory>(row, "r");
    if (products == KrylovProducts::stepwise) {
      auto v = to_device<Memory>(e, "V");
      DeviceMatrix<Word, Memory> next("TV", e.rows, b), projection("rV", 1, b);
      for (std::size_t i = 0; i < length; ++i) {
        product(dr, v, projection, by_r);
        const auto p = to_host(projection);
        for (std::size_t j = 0; j < b; ++j) s[j][i] = p(0, j);
        if (i + 1 < length) {
          product(dt, v, next, by_t);  // one fat-vector product
          std::swap(v, next);
        }
      }
      return;
    }
    auto k = to_device<Memory>(e, "K");     // [E, T E, ..., T^(blocks - 1) E]
    DeviceMatrix<Word, Memory> power = dt;  // T^blocks
    for (std::size_t blocks = 1; blocks < length; blocks *= 2) {
      DeviceMatrix<Word, Memory> wider("K", e.rows, 2 * k.extent(1)),
          moved("PK", e.rows, k.extent(1));
      product(power, k, moved, by_t);
      detail::copy_columns(k, wider, 0);
      detail::copy_columns(moved, wider, k.extent(1));
      k = wider;
      if (2 * blocks < length) {
        DeviceMatrix<Word, Memory> squared("P^2", e.rows, e.rows);
        product(power, power, squared, by_t);
        power = squared;
      }
    }
    DeviceMatrix<Word, Memory> projection("rK", 1, k.extent(1));
    product(dr, k, projection, by_r);
    const auto p = to_host(projection);
    for (std::size_t i = 0; i < length; ++i)
      for (std::size_t j = 0; j < b; ++j) s[j][i] = p(0, i * b + j);
  };
  backend == Place::device ? run(DeviceSpace()) : run(HostSpace());
  return s;
}

// The minimal polynomial of T (monic, from x^0 up), Monte Carlo: from the
// sequence r^T T^i e, i < 2D, with random r, e; it divides the true one and
// equals it except with probability at most about 2D / p.
template <class Word>
std::vector<Word> minimal_polynomial(const field::Zp<Word>& f, const Matrix<Word>& t,
                                     std::uint64_t seed = 1, Place backend = Place::device,
                                     KrylovProducts products = KrylovProducts::stepwise) {
  std::vector<Word> r(t.rows);
  Matrix<Word> e(t.rows, 1);
  for (std::size_t i = 0; i < t.rows; ++i) {
    r[i] = f.from_uint(random::counter_u64(seed, 2 * i));
    e(i, 0) = f.from_uint(random::counter_u64(seed, 2 * i + 1));
  }
  return berlekamp_massey(f, krylov_sequences(f, t, r, e, 2 * t.rows, backend, products)[0]);
}

}  // namespace hepex::linalg
