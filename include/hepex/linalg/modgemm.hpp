#pragma once
// Modular matrix products C = A B (mod p) and C += A B, exact for every input,
// for every prime 2 <= p < 2^63 (seed: modular-matrix-multiplication-gpu, §4):
//
//  int64  a Kokkos kernel on word residues: double-word products summed with
//         delayed reduction (lambda products per reduction, lambda =
//         floor((2^(2W) - 1) / (p - 1)^2)), for any p the word holds;
//  fp64   residues as centred doubles, |a| <= (p-1)/2, multiplied by the
//         vendor DGEMM (cuBLAS on CUDA, CBLAS on the host) in blocks of
//         lambda = floor(2^53 / ((p-1)/2)^2) columns, where every partial sum
//         is an exact integer, then reduced and accumulated by one kernel.
//         Exact only while lambda >= 1 (p < 2^27.5 or so): asking for it with
//         a larger prime is an error, never a wrong answer.
//  automatic  fp64 where it is exact, else int64.

#include <cmath>
#include <string>

#include "hepex/core/error.hpp"
#include "hepex/core/matrix.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::backend {
// Row-major C = A B in double precision on the device (cuBLAS/hipBLAS) or the
// host (CBLAS); A is m x k with row stride lda, B k x n (ldb), C m x n (ldc).
void dgemm(Backend where, int m, int n, int k, const double* a, int lda, const double* b,
           int ldb, double* c, int ldc);
}  // namespace hepex::backend

namespace hepex::linalg {

enum class GemmMethod { automatic, fp64, int64 };

// "auto", "fp64", "int64"; throws hepex::Error for anything else.
GemmMethod parse_gemm_method(const std::string& name);
const char* gemm_method_name(GemmMethod method);

// Columns of A per exact DGEMM block for the prime p (0: fp64 is not exact).
inline std::uint64_t fp64_block(std::uint64_t p) {
  // Centred residues lie in (-p/2, p/2]: |a| <= floor(p/2) = h.
  const double h = static_cast<double>(p / 2);
  const double lambda = std::floor(9007199254740992.0 / (h * h));  // 2^53 / h^2
  return lambda >= 1 ? static_cast<std::uint64_t>(std::min(lambda, 1e12)) : 0;
}

// The method `automatic` resolves to, or the requested one after checking
// that it is exact for p (hepex::Error otherwise).
GemmMethod resolve_gemm_method(GemmMethod requested, std::uint64_t p);

namespace detail {

// int64: one thread per entry of C, products summed in a double word and
// reduced every `lambda` terms.
template <class Word, class ExecSpace>
struct ModGemmWords {
  field::Zp<Word> f;
  Kokkos::View<const Word**, Kokkos::LayoutRight, typename ExecSpace::memory_space> a, b;
  DeviceMatrix<Word, typename ExecSpace::memory_space> c;
  std::uint64_t lambda;
  bool accumulate;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t flat) const {
    const std::size_t n = c.extent(1), i = flat / n, j = flat % n;
    const std::size_t depth = a.extent(1);
    Word result = accumulate ? c(i, j) : Word(0);
    std::size_t l = 0;
    while (l < depth) {
      const std::size_t end = depth - l > lambda ? l + lambda : depth;
      Word hi = 0, lo = 0;
      for (; l < end; ++l) {
        const auto product = field::detail::mul_wide(a(i, l), b(l, j));
        lo += product.lo;
        hi += product.hi + (lo < product.lo ? 1 : 0);
      }
      // (hi 2^W + lo) mod p: hi itself may exceed p, so reduce it first.
      result = f.add(result, f.reduce_double_word(f.reduce_double_word(0, hi), lo));
    }
    c(i, j) = result;
  }
};

// Residues to centred doubles.
template <class Word, class ExecSpace>
struct ToCentredDouble {
  field::Zp<Word> f;
  Kokkos::View<const Word**, Kokkos::LayoutRight, typename ExecSpace::memory_space> in;
  DeviceMatrix<double, typename ExecSpace::memory_space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t flat) const {
    const std::size_t i = flat / in.extent(1), j = flat % in.extent(1);
    out(i, j) = static_cast<double>(f.centred(in(i, j)));
  }
};

// C <- C + (block mod p): block holds exact integers of magnitude <= 2^53.
// q = trunc(x / p) is off by at most one, p q < 2^53 is exact, so
// r = x - p q lies in (-2p, 2p) and two corrections each way bring it to [0, p).
template <class Word, class ExecSpace>
struct ReduceAccumulate {
  field::Zp<Word> f;
  DeviceMatrix<double, typename ExecSpace::memory_space> block;
  DeviceMatrix<Word, typename ExecSpace::memory_space> c;
  double p, inverse_p;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t flat) const {
    const std::size_t i = flat / c.extent(1), j = flat % c.extent(1);
    const double x = block(i, j);
    double r = x - p * static_cast<double>(static_cast<std::int64_t>(x * inverse_p));
    if (r < 0) r += p;
    if (r < 0) r += p;
    if (r >= p) r -= p;
    if (r >= p) r -= p;
    c(i, j) = f.add(c(i, j), static_cast<Word>(r));
  }
};

}  // namespace detail

// Device API: C = A B (or C += A B) mod p on `space`. A m x k, B k x n, C m x n,
// all reduced residues.
template <class ExecSpace, class Word>
GemmMethod modgemm(const ExecSpace& space, const field::Zp<Word>& f,
                   const Kokkos::View<const Word**, Kokkos::LayoutRight,
                                      typename ExecSpace::memory_space>& a,
                   const Kokkos::View<const Word**, Kokkos::LayoutRight,
                                      typename ExecSpace::memory_space>& b,
                   const DeviceMatrix<Word, typename ExecSpace::memory_space>& c,
                   GemmMethod method = GemmMethod::automatic, bool accumulate = false) {
  using Memory = typename ExecSpace::memory_space;
  const std::size_t m = a.extent(0), k = a.extent(1), n = b.extent(1);
  if (b.extent(0) != k || c.extent(0) != m || c.extent(1) != n) {
    throw Error("modgemm: shapes " + std::to_string(m) + "x" + std::to_string(k) + " times " +
                std::to_string(b.extent(0)) + "x" + std::to_string(n) + " into " +
                std::to_string(c.extent(0)) + "x" + std::to_string(c.extent(1)) +
                " do not match");
  }
  const std::uint64_t p = f.modulus();
  method = resolve_gemm_method(method, p);
  if (m == 0 || n == 0) return method;
  if (method == GemmMethod::int64 || k == 0) {
    const unsigned __int128 double_word_max =
        sizeof(Word) == 8 ? ~static_cast<unsigned __int128>(0)
                          : static_cast<unsigned __int128>(~std::uint64_t{0});
    const unsigned __int128 square = static_cast<unsigned __int128>(p - 1) * (p - 1);
    const std::uint64_t lambda =
        square == 0 ? std::uint64_t{1} << 40
                    : static_cast<std::uint64_t>(std::min<unsigned __int128>(
                          double_word_max / square, std::uint64_t{1} << 40));
    Kokkos::parallel_for("hepex::modgemm::int64", Kokkos::RangePolicy<ExecSpace>(space, 0, m * n),
                         detail::ModGemmWords<Word, ExecSpace>{f, a, b, c, lambda, accumulate});
    return method;
  }
  // fp64: exact DGEMM blocks of `block` columns of A / rows of B.
  const std::size_t block = std::min<std::uint64_t>(fp64_block(p), k);
  DeviceMatrix<double, Memory> ad(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("A_fp64")), m, k);
  DeviceMatrix<double, Memory> bd(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("B_fp64")), k, n);
  DeviceMatrix<double, Memory> partial(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("C_fp64")), m, n);
  Kokkos::parallel_for("hepex::modgemm::centre_a", Kokkos::RangePolicy<ExecSpace>(space, 0, m * k),
                       detail::ToCentredDouble<Word, ExecSpace>{f, a, ad});
  Kokkos::parallel_for("hepex::modgemm::centre_b", Kokkos::RangePolicy<ExecSpace>(space, 0, k * n),
                       detail::ToCentredDouble<Word, ExecSpace>{f, b, bd});
  if (!accumulate) Kokkos::deep_copy(space, c, Word(0));
  const Backend where =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible ? Backend::host
                                                                        : Backend::device;
  for (std::size_t l = 0; l < k; l += block) {
    const std::size_t width = std::min(block, k - l);
    space.fence();  // the vendor call runs on its own stream
    backend::dgemm(where, static_cast<int>(m), static_cast<int>(n), static_cast<int>(width),
                   ad.data() + l, static_cast<int>(k), bd.data() + l * n, static_cast<int>(n),
                   partial.data(), static_cast<int>(n));
    Kokkos::parallel_for("hepex::modgemm::reduce", Kokkos::RangePolicy<ExecSpace>(space, 0, m * n),
                         detail::ReduceAccumulate<Word, ExecSpace>{
                             f, partial, c, static_cast<double>(p), 1.0 / static_cast<double>(p)});
  }
  space.fence();
  return method;
}

// Host convenience: returns A B (+ C0 when given) mod p.
template <class Word>
Matrix<Word> modgemm(const field::Zp<Word>& f, const Matrix<Word>& a, const Matrix<Word>& b,
                     GemmMethod method = GemmMethod::automatic, Backend backend = Backend::device,
                     const Matrix<Word>* c0 = nullptr) {
  auto run = [&](auto space) {
    using Memory = typename decltype(space)::memory_space;
    const auto da = to_device<Memory>(a, "A");
    const auto db = to_device<Memory>(b, "B");
    DeviceMatrix<Word, Memory> dc("C", a.rows, b.cols);
    if (c0 != nullptr) dc = to_device<Memory>(*c0, "C");
    modgemm(space, f, Kokkos::View<const Word**, Kokkos::LayoutRight, Memory>(da),
            Kokkos::View<const Word**, Kokkos::LayoutRight, Memory>(db), dc, method,
            c0 != nullptr);
    return to_host(dc);
  };
  if (a.cols != b.rows || (c0 != nullptr && (c0->rows != a.rows || c0->cols != b.cols))) {
    throw Error("modgemm: A is " + std::to_string(a.rows) + "x" + std::to_string(a.cols) +
                ", B is " + std::to_string(b.rows) + "x" + std::to_string(b.cols) +
                (c0 ? ", C is " + std::to_string(c0->rows) + "x" + std::to_string(c0->cols) : "") +
                ": shapes do not match");
  }
  return backend == Backend::device ? run(DeviceSpace()) : run(HostSpace());
}

}  // namespace hepex::linalg
