#pragma once
// Black boxes: functions F_1..F_k of n variables that can be evaluated mod p
// at any batch of points and may fail at some of them (a division by zero at
// a probe). Reconstruction only talks to this interface.
//
// Three ways to make one:
//  * a device functor (`Functor(const field::Zp64&)` built per prime, with
//      KOKKOS_FUNCTION bool operator()(const uint64_t* x, uint64_t* out) const
//    evaluating all functions at the point x) -> DeviceBlackBox: one
//    parallel_for per batch (evaluate_batch is the same kernel on Views); the
//    functor of the last prime is kept for the next batches of that prime;
//  * a host callable -> HostBlackBox;
//  * expressions (hepex/io/expression.hpp) -> expression_black_box().

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "hepex/core/error.hpp"
#include "hepex/core/kokkos_compat.hpp"
#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/core/vector_view.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/io/expression.hpp"

namespace hepex::reconstruct {

class BlackBox {
 public:
  virtual ~BlackBox() = default;
  virtual std::size_t variables() const = 0;
  virtual std::size_t functions() const = 0;
  // points: row-major count x variables(); on return values is count x
  // functions() and ok[i] = 0 where point i failed (its values are unset).
  virtual void evaluate(const field::Zp64& f, std::size_t count,
                        const std::vector<std::uint64_t>& points,
                        std::vector<std::uint64_t>& values,
                        std::vector<std::uint8_t>& ok) const = 0;
};

// The device-level API: functor at every row of `points` (one parallel launch).
template <class ExecSpace, class Functor>
void evaluate_batch(const Functor& functor,
                    const Kokkos::View<const std::uint64_t**, Kokkos::LayoutRight,
                                       typename ExecSpace::memory_space>& points,
                    const Kokkos::View<std::uint64_t**, Kokkos::LayoutRight,
                                       typename ExecSpace::memory_space>& values,
                    const Kokkos::View<std::uint8_t*, typename ExecSpace::memory_space>& ok) {
  Kokkos::parallel_for(
      "hepex::reconstruct::evaluate_batch", Kokkos::RangePolicy<ExecSpace>(0, points.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) {
        ok(i) = functor(&points(i, 0), &values(i, 0)) ? 1 : 0;
      });
}

template <class ExecSpace, class Functor>
class DeviceBlackBox : public BlackBox {
 public:
  // make(f) may depend on nothing but f: its functor (device tables included)
  // is made once and reused while the prime stays the same.
  using Factory = std::function<Functor(const field::Zp64&)>;
  DeviceBlackBox(std::size_t variables, std::size_t functions, Factory make)
      : variables_(variables), functions_(functions), make_(std::move(make)) {}
  std::size_t variables() const override { return variables_; }
  std::size_t functions() const override { return functions_; }

  void evaluate(const field::Zp64& f, std::size_t count, const std::vector<std::uint64_t>& points,
                std::vector<std::uint64_t>& values, std::vector<std::uint8_t>& ok) const override {
    using Memory = typename ExecSpace::memory_space;
    const KokkosLock lock;
    // A point of zero variables still has a row: pad to one column.
    std::vector<std::uint64_t> padded =
        variables_ == 0 ? std::vector<std::uint64_t>(count) : points;
    const std::size_t width = variables_ == 0 ? 1 : variables_;
    auto flat = to_view<Memory>(padded, "hepex::black_box::points");
    Kokkos::View<const std::uint64_t**, Kokkos::LayoutRight, Memory> d_points(flat.data(), count,
                                                                              width);
    Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory> d_values(
        "hepex::black_box::values", count, functions_ == 0 ? 1 : functions_);
    Kokkos::View<std::uint8_t*, Memory> d_ok("hepex::black_box::ok", count);
    evaluate_batch<ExecSpace>(functor(f), d_points, d_values, d_ok);
    auto h_values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d_values);
    values.assign(count * functions_, 0);
    for (std::size_t i = 0; i < count; ++i)
      for (std::size_t j = 0; j < functions_; ++j) values[i * functions_ + j] = h_values(i, j);
    ok = to_vector(d_ok);
  }

 private:
  // The functor for f's prime, made when the prime changes (reconstruction
  // runs through its primes one after the other).
  Functor functor(const field::Zp64& f) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!functor_ || prime_ != f.modulus()) {
      functor_.reset();  // free the old prime's tables first
      functor_.emplace(make_(f));
      prime_ = f.modulus();
    }
    return *functor_;
  }

  std::size_t variables_, functions_;
  Factory make_;
  mutable std::mutex mutex_;
  mutable std::optional<Functor> functor_;
  mutable std::uint64_t prime_ = 0;
};

// A host callable: eval(f, x, out) fills out[0..functions) and returns false
// when the point is not usable.
class HostBlackBox : public BlackBox {
 public:
  using Callable =
      std::function<bool(const field::Zp64&, const std::uint64_t* x, std::uint64_t* out)>;
  HostBlackBox(std::size_t variables, std::size_t functions, Callable eval)
      : variables_(variables), functions_(functions), eval_(std::move(eval)) {}
  std::size_t variables() const override { return variables_; }
  std::size_t functions() const override { return functions_; }
  void evaluate(const field::Zp64& f, std::size_t count, const std::vector<std::uint64_t>& points,
                std::vector<std::uint64_t>& values, std::vector<std::uint8_t>& ok) const override;

 private:
  std::size_t variables_, functions_;
  Callable eval_;
};

// The expressions (all over the same variables) as one black box whose
// functions are the expressions, evaluated by a device kernel. An expression
// that expands to a sparse rational function cheaper to evaluate than its
// stack program runs as monomial tables, the others as their programs; the
// values and the points that fail (division by zero) are the same either way.
std::unique_ptr<BlackBox> expression_black_box(std::vector<io::Expression> expressions,
                                               std::size_t variables);

// The same box evaluated on the host (the default host execution space) in
// every build, its expressions run as their stack programs: for callers
// whose probe batches are too small to pay a GPU launch (reduce's check of
// a few points).
std::unique_ptr<BlackBox> host_expression_black_box(std::vector<io::Expression> expressions,
                                                    std::size_t variables);

}  // namespace hepex::reconstruct
