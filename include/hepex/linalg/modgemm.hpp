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
//  multiword  centred residues split as hi 2^s + lo (s about half their
//         bits), the four products hi*hi, hi*lo, lo*hi, lo*lo each by the fp64
//         scheme, recombined mod p: exact while (p / 2^(s+1) + 1)^2 <= 2^53,
//         i.e. up to p of about 2^54.5.
//  int8   residues as centred balanced base-256 digits (s = int8_slices(p)
//         digits each), all s^2 digit products in one int8 x int8 -> int32
//         GEMM (cuBLAS GemmEx on the tensor cores; a host loop otherwise) over
//         k-blocks of at most 131056 terms (|sum| < 2^31, exact), recombined
//         with the weights 2^(8(t+u)) mod p: exact for every p < 2^63.
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
// Row-major C = A Bt^T with int8 entries and exact int32 sums (the caller
// keeps every |sum| below 2^31): A is m x k, Bt is n x k, so both operands
// have k contiguous (the "TN" layout of the integer tensor-core kernels). On
// the device: cuBLAS/hipBLAS GemmEx, given sizes and leading dimensions that
// are multiples of 16.
void int8_gemm(Backend where, int m, int n, int k, const std::int8_t* a, int lda,
               const std::int8_t* bt, int ldbt, std::int32_t* c, int ldc);
}  // namespace hepex::backend

namespace hepex::linalg {

enum class GemmMethod { automatic, fp64, multiword, int64, int8 };

// "auto", "fp64", "multiword", "int64", "int8"; hepex::Error for anything else.
GemmMethod parse_gemm_method(const std::string& name);
const char* gemm_method_name(GemmMethod method);

// Columns of A per exact DGEMM block for the prime p (0: fp64 is not exact).
inline std::uint64_t fp64_block(std::uint64_t p) {
  // Centred residues lie in (-p/2, p/2]: |a| <= floor(p/2) = h.
  const double h = static_cast<double>(p / 2);
  const double lambda = std::floor(9007199254740992.0 / (h * h));  // 2^53 / h^2
  return lambda >= 1 ? static_cast<std::uint64_t>(std::min(lambda, 1e12)) : 0;
}

// The multiword split: centred residues |x| <= p/2 as hi * 2^bits + lo with
// |lo| <= 2^(bits-1) and |hi| <= floor(p/2 / 2^bits) + 1; bits = half the
// bits of p/2, rounded up.
inline int multiword_bits(std::uint64_t p) {
  int width = 0;
  for (std::uint64_t h = p / 2; h != 0; h >>= 1) ++width;
  return std::max(1, (width + 1) / 2);
}
inline double multiword_high_bound(std::uint64_t p) {
  return std::floor(static_cast<double>(p / 2) / std::ldexp(1.0, multiword_bits(p))) + 1;
}
// Columns per exact DGEMM block for the largest of the four products
// (hi * hi); 0 when even one product can exceed 2^53 (p above about 2^54.5).
inline std::uint64_t multiword_block(std::uint64_t p) {
  const double hi = multiword_high_bound(p);
  const double lo = std::ldexp(1.0, multiword_bits(p) - 1);
  const double lambda = std::floor(9007199254740992.0 / std::max(hi * hi, lo * lo));
  return lambda >= 1 ? static_cast<std::uint64_t>(std::min(lambda, 1e12)) : 0;
}

// Balanced base-256 digits needed for centred residues |x| <= p/2.
inline int int8_slices(std::uint64_t p) {
  int s = 1;
  // s digits in [-128, 127] represent every |x| <= 127 * (256^s - 1) / 255.
  while (s < 8 && static_cast<double>(p / 2) > 127.0 * (std::pow(256.0, s) - 1) / 255.0) ++s;
  return s;
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
  ConstDeviceMatrix<Word, typename ExecSpace::memory_space> a, b;
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
  ConstDeviceMatrix<Word, typename ExecSpace::memory_space> in;
  DeviceMatrix<double, typename ExecSpace::memory_space> out;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t flat) const {
    const std::size_t i = flat / in.extent(1), j = flat % in.extent(1);
    out(i, j) = static_cast<double>(f.centred(in(i, j)));
  }
};

// C <- C + weight * (block mod p): block holds exact integers, |x| <= 2^53.
// For p < 2^52 (p exact in a double): q = trunc(x / p) is off by at most one,
// p q < 2^53 is exact, so r = x - p q lies in (-2p, 2p) and two corrections
// each way bring it to [0, p). Larger p (multiword): x as an integer, reduced
// by the field.
template <class Word, class ExecSpace>
struct ReduceAccumulate {
  field::Zp<Word> f;
  DeviceMatrix<double, typename ExecSpace::memory_space> block;
  DeviceMatrix<Word, typename ExecSpace::memory_space> c;
  double p, inverse_p;
  Word weight;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t flat) const {
    const std::size_t i = flat / c.extent(1), j = flat % c.extent(1);
    const double x = block(i, j);
    Word residue;
    if (p < 4503599627370496.0) {  // 2^52
      double r = x - p * static_cast<double>(static_cast<std::int64_t>(x * inverse_p));
      if (r < 0) r += p;
      if (r < 0) r += p;
      if (r >= p) r -= p;
      if (r >= p) r -= p;
      residue = static_cast<Word>(r);
    } else {
      residue = f.from_int(static_cast<std::int64_t>(x));
    }
    c(i, j) = f.fma(weight, residue, c(i, j));
  }
};

// Centred residues split in two words, x = hi * 2^bits + lo with lo in
// [-2^(bits-1), 2^(bits-1)) (the multiword method), as doubles.
template <class Word, class ExecSpace>
struct SplitCentred {
  field::Zp<Word> f;
  ConstDeviceMatrix<Word, typename ExecSpace::memory_space> in;
  DeviceMatrix<double, typename ExecSpace::memory_space> hi, lo;
  int bits;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t flat) const {
    const std::size_t i = flat / in.extent(1), j = flat % in.extent(1);
    const std::int64_t x = f.centred(in(i, j));
    const std::int64_t half = std::int64_t{1} << (bits - 1);
    const std::int64_t low = ((x + half) & ((std::int64_t{1} << bits) - 1)) - half;
    hi(i, j) = static_cast<double>((x - low) >> bits);
    lo(i, j) = static_cast<double>(low);
  }
};

// The lowest balanced base-256 digit of x, in [-128, 127]; x becomes the
// remaining (exactly divisible) high part.
KOKKOS_INLINE_FUNCTION std::int8_t next_balanced_digit(std::int64_t& x) {
  std::int64_t d = x & 0xff;
  if (d >= 128) d -= 256;
  x = (x - d) / 256;
  return static_cast<std::int8_t>(d);
}

// Centred residues to s balanced base-256 digits: A (m x k) -> stacked
// digit matrices (s*mp x kp), digit t of A(i, l) at row t*mp + i; zero padding.
template <class Word, class ExecSpace>
struct SliceRows {
  field::Zp<Word> f;
  ConstDeviceMatrix<Word, typename ExecSpace::memory_space> in;
  DeviceMatrix<std::int8_t, typename ExecSpace::memory_space> out;
  std::size_t offset, depth;  // columns [offset, offset + depth) of `in`
  int slices, padded_rows;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t flat) const {
    const std::size_t i = flat / depth, l = flat % depth;
    std::int64_t x = f.centred(in(i, offset + l));
    for (int t = 0; t < slices; ++t) out(t * padded_rows + i, l) = next_balanced_digit(x);
  }
};
// B (k x n) -> transposed stacked digit matrices (s*np x kp), digit t of
// B(l, j) at row t*np + j, column l.
template <class Word, class ExecSpace>
struct SliceColumns {
  field::Zp<Word> f;
  ConstDeviceMatrix<Word, typename ExecSpace::memory_space> in;
  DeviceMatrix<std::int8_t, typename ExecSpace::memory_space> out;
  std::size_t offset;  // rows [offset, offset + out rows) of `in`
  int slices, padded_cols;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t flat) const {
    const std::size_t l = flat / in.extent(1), j = flat % in.extent(1);
    std::int64_t x = f.centred(in(offset + l, j));
    for (int t = 0; t < slices; ++t) out(t * padded_cols + j, l) = next_balanced_digit(x);
  }
};
// C(i,j) += sum_{t,u} 2^(8(t+u)) * blocks(t*mp + i, u*np + j)  (mod p).
template <class Word, class ExecSpace>
struct RecombineDigits {
  field::Zp<Word> f;
  DeviceMatrix<std::int32_t, typename ExecSpace::memory_space> blocks;
  DeviceMatrix<Word, typename ExecSpace::memory_space> c;
  Kokkos::View<Word*, typename ExecSpace::memory_space> weights;  // 2^(8w) mod p
  int slices, padded_rows, padded_cols;
  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t flat) const {
    const std::size_t i = flat / c.extent(1), j = flat % c.extent(1);
    Word acc = c(i, j);
    for (int t = 0; t < slices; ++t)
      for (int u = 0; u < slices; ++u)
        acc = f.fma(weights(t + u), f.from_int(blocks(t * padded_rows + i, u * padded_cols + j)), acc);
    c(i, j) = acc;
  }
};

}  // namespace detail

// The int8 path: C += A B over exact int32 k-blocks (see the file comment).
template <class ExecSpace, class Word>
void modgemm_int8(const ExecSpace& space, const field::Zp<Word>& f,
                  const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& a,
                  const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& b,
                  const DeviceMatrix<Word, typename ExecSpace::memory_space>& c, Backend where) {
  using Memory = typename ExecSpace::memory_space;
  const std::size_t m = a.extent(0), k = a.extent(1), n = b.extent(1);
  const int s = int8_slices(f.modulus());
  // Sizes padded to multiples of 16 for the tensor-core kernels.
  auto round16 = [](std::size_t x) { return (x + 15) / 16 * 16; };
  const std::size_t mp = round16(m), np = round16(n);
  // |digit products| <= 2^14: 131071 of them sum below 2^31.
  constexpr std::size_t max_depth = 131056;  // a multiple of 16
  Kokkos::View<Word*, Memory> weights("hepex::modgemm::weights", 2 * s - 1);
  auto host_weights = Kokkos::create_mirror_view(weights);
  for (int w = 0; w < 2 * s - 1; ++w) host_weights(w) = f.pow(f.from_uint(256), w);
  Kokkos::deep_copy(weights, host_weights);
  DeviceMatrix<std::int32_t, Memory> blocks(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hepex::modgemm::blocks")),
      s * mp, s * np);
  for (std::size_t l0 = 0; l0 < k; l0 += max_depth) {
    const std::size_t depth = std::min(max_depth, k - l0), kp = round16(depth);
    DeviceMatrix<std::int8_t, Memory> ad("hepex::modgemm::a_digits", s * mp, kp);
    DeviceMatrix<std::int8_t, Memory> bd("hepex::modgemm::b_digits", s * np, kp);
    Kokkos::parallel_for(
        "hepex::modgemm::slice_a", Kokkos::RangePolicy<ExecSpace>(space, 0, m * depth),
        detail::SliceRows<Word, ExecSpace>{f, a, ad, l0, depth, s, static_cast<int>(mp)});
    Kokkos::parallel_for(
        "hepex::modgemm::slice_b", Kokkos::RangePolicy<ExecSpace>(space, 0, depth * n),
        detail::SliceColumns<Word, ExecSpace>{f, b, bd, l0, s, static_cast<int>(np)});
    space.fence();  // the vendor call runs on its own stream
    backend::int8_gemm(where, static_cast<int>(s * mp), static_cast<int>(s * np),
                       static_cast<int>(kp), ad.data(), static_cast<int>(kp), bd.data(),
                       static_cast<int>(kp), blocks.data(), static_cast<int>(s * np));
    Kokkos::parallel_for("hepex::modgemm::recombine",
                         Kokkos::RangePolicy<ExecSpace>(space, 0, m * n),
                         detail::RecombineDigits<Word, ExecSpace>{
                             f, blocks, c, weights, s, static_cast<int>(mp),
                             static_cast<int>(np)});
  }
  space.fence();
}

// Device API: C = A B (or C += A B) mod p on `space`. A m x k, B k x n, C m x n,
// all reduced residues.
template <class ExecSpace, class Word>
GemmMethod modgemm(const ExecSpace& space, const field::Zp<Word>& f,
                   const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& a,
                   const ConstDeviceMatrix<Word, typename ExecSpace::memory_space>& b,
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
  const Backend where =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, Memory>::accessible ? Backend::host
                                                                        : Backend::device;
  if (!accumulate) Kokkos::deep_copy(space, c, Word(0));
  if (method == GemmMethod::int8) {
    modgemm_int8(space, f, a, b, c, where);
    return method;
  }
  DeviceMatrix<double, Memory> partial(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hepex::modgemm::partial")), m, n);
  // C += weight * (X Y mod p) for exact-integer doubles X (m x k), Y (k x n),
  // in DGEMM blocks of `block` columns whose sums stay below 2^53.
  auto add_exact_product = [&](const DeviceMatrix<double, Memory>& x, const DeviceMatrix<double, Memory>& y,
                        std::size_t block, Word weight) {
    for (std::size_t l = 0; l < k; l += block) {
      const std::size_t width = std::min(block, k - l);
      space.fence();  // the vendor call runs on its own stream
      backend::dgemm(where, static_cast<int>(m), static_cast<int>(n), static_cast<int>(width),
                     x.data() + l, static_cast<int>(k), y.data() + l * n, static_cast<int>(n),
                     partial.data(), static_cast<int>(n));
      Kokkos::parallel_for("hepex::modgemm::reduce",
                           Kokkos::RangePolicy<ExecSpace>(space, 0, m * n),
                           detail::ReduceAccumulate<Word, ExecSpace>{
                               f, partial, c, static_cast<double>(p),
                               1.0 / static_cast<double>(p), weight});
    }
  };
  auto matrix = [](const char* label, std::size_t rows, std::size_t cols) {
    return DeviceMatrix<double, Memory>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), rows, cols);
  };
  if (method == GemmMethod::fp64) {
    auto ad = matrix("hepex::modgemm::a_fp64", m, k), bd = matrix("hepex::modgemm::b_fp64", k, n);
    Kokkos::parallel_for("hepex::modgemm::centre_a", Kokkos::RangePolicy<ExecSpace>(space, 0, m * k),
                         detail::ToCentredDouble<Word, ExecSpace>{f, a, ad});
    Kokkos::parallel_for("hepex::modgemm::centre_b", Kokkos::RangePolicy<ExecSpace>(space, 0, k * n),
                         detail::ToCentredDouble<Word, ExecSpace>{f, b, bd});
    add_exact_product(ad, bd, std::min<std::uint64_t>(fp64_block(p), k), Word(1));
  } else {
    // multiword: A B = 2^(2s) Ah Bh + 2^s (Ah Bl + Al Bh) + Al Bl, four exact
    // DGEMM pipelines (seed §4, the 4-product form).
    const int bits = multiword_bits(p);
    auto ah = matrix("hepex::modgemm::a_hi", m, k), al = matrix("hepex::modgemm::a_lo", m, k);
    auto bh = matrix("hepex::modgemm::b_hi", k, n), bl = matrix("hepex::modgemm::b_lo", k, n);
    Kokkos::parallel_for("hepex::modgemm::split_a", Kokkos::RangePolicy<ExecSpace>(space, 0, m * k),
                         detail::SplitCentred<Word, ExecSpace>{f, a, ah, al, bits});
    Kokkos::parallel_for("hepex::modgemm::split_b", Kokkos::RangePolicy<ExecSpace>(space, 0, k * n),
                         detail::SplitCentred<Word, ExecSpace>{f, b, bh, bl, bits});
    const std::size_t block = std::min<std::uint64_t>(multiword_block(p), k);
    const Word shift = f.pow(2, static_cast<std::uint64_t>(bits));
    add_exact_product(ah, bh, block, f.mul(shift, shift));
    add_exact_product(ah, bl, block, shift);
    add_exact_product(al, bh, block, shift);
    add_exact_product(al, bl, block, Word(1));
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
    modgemm(space, f, ConstDeviceMatrix<Word, Memory>(da),
            ConstDeviceMatrix<Word, Memory>(db), dc, method,
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
