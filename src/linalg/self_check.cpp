#include "hepex/linalg/self_check.hpp"

#include "hepex/core/random.hpp"
#include "hepex/linalg/echelon.hpp"
#include "hepex/linalg/modgemm.hpp"

namespace hepex::linalg {

RrefSelfCheck rref_self_check(Place backend, std::size_t n, std::size_t deficiency,
                              std::uint64_t seed) {
  const field::Zp32 f(2147483647);
  deficiency = std::min(deficiency, n);
  const std::size_t independent = n - deficiency;
  Matrix<std::uint32_t> a(n, n);
  for (std::size_t k = 0; k < n * n; ++k) a.data[k] = f.from_uint(random::counter_u64(seed, k));
  // Column c >= independent: 3 * column (c % independent) + column ((c + 1) % independent).
  for (std::size_t c = independent; c < n && independent > 0; ++c) {
    for (std::size_t i = 0; i < n; ++i) {
      a(i, c) = f.fma(3, a(i, c % independent), a(i, (c + 1) % independent));
    }
  }
  if (independent == 0) a = Matrix<std::uint32_t>(n, n, 0);

  RrefSelfCheck check;
  check.n = n;
  check.expected_rank = independent;
  Matrix<std::uint32_t> reduced = a;
  Kokkos::Timer timer;
  const RrefResult r = rref(f, reduced, backend);
  check.seconds = timer.seconds();
  check.rank = r.rank;
  const auto basis = nullspace_from_rref(f, reduced, r.pivots, n);
  bool annihilated = basis.cols == n - r.rank;
  for (std::size_t i = 0; i < n && annihilated; ++i) {
    for (std::size_t k = 0; k < basis.cols; ++k) {
      std::uint32_t sum = 0;
      for (std::size_t j = 0; j < n; ++j) sum = f.fma(a(i, j), basis(j, k), sum);
      annihilated = annihilated && sum == 0;
    }
  }
  check.passed = annihilated && r.rank == independent;
  return check;
}

GemmSelfCheck gemm_self_check(Place backend, std::size_t n, std::uint64_t p,
                              const std::vector<GemmMethod>& methods, std::uint64_t seed) {
  const field::Zp32 f(p);
  Matrix<std::uint32_t> a(n, n), b(n, n);
  for (std::size_t k = 0; k < n * n; ++k) {
    a.data[k] = f.from_uint(random::counter_u64(seed, k));
    b.data[k] = f.from_uint(random::counter_u64(seed + 1, k));
  }
  GemmSelfCheck check;
  check.n = n;
  check.p = p;
  check.passed = true;
  Matrix<std::uint32_t> first;
  for (GemmMethod method : methods) {
    Kokkos::Timer timer;
    const auto c = modgemm(f, a, b, method, backend);
    check.seconds.emplace_back(method, timer.seconds());
    if (check.seconds.size() == 1) first = c;
    check.passed = check.passed && c == first;
  }
  return check;
}

}  // namespace hepex::linalg
