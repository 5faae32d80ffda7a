#pragma once
// A replay program (replay_program.hpp) run at a batch of points in one
// kernel of ExecSpace: one thread per point, each executing every
// instruction. Registers are a View (points x registers) in the space's
// default layout: on a GPU the points are the fast index, so the threads of
// a warp read and write neighbouring words while they all decode the same
// instruction. On the host a thread runs groups of points instruction by
// instruction instead (run_lanes), sharing each pivot's inversion.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "hepex/core/host_threads.hpp"
#include "hepex/core/kokkos_compat.hpp"
#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/vector_view.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/reduce/detail/replay_program.hpp"

namespace hepex::reduce::detail {

template <class ExecSpace>
class ReplayKernel {
 public:  // the kernel's types too (CUDA names them outside the class)
  using Memory = typename ExecSpace::memory_space;
  using Registers = Kokkos::View<std::uint64_t**, Memory>;  // default layout of the space
  using Rows = Kokkos::View<std::uint64_t**, Kokkos::LayoutRight, Memory>;

  // One point's registers.
  struct Column {
    Registers r;
    std::size_t i;
    KOKKOS_INLINE_FUNCTION std::uint64_t& operator()(std::uint32_t k) const { return r(i, k); }
  };

  struct Functor {
    field::Zp64 f;
    const ReplayInstruction* code;
    std::size_t instructions;
    const ReplayOutput* outputs;
    std::size_t output_count, inputs;
    Rows in, out;
    Registers reg;
    Kokkos::View<std::uint8_t*, Memory> ok;
    KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
      for (std::size_t j = 0; j < inputs; ++j) reg(i, j) = in(i, j);
      if (!run_instructions(f, code, instructions, Column{reg, i})) {
        ok(i) = 0;
        return;
      }
      for (std::size_t k = 0; k < output_count; ++k) {
        const ReplayOutput o = outputs[k];
        out(i, k) = o.kind == ReplayOutput::zero  ? 0
                    : o.kind == ReplayOutput::one ? 1
                                                  : f.neg(reg(i, o.reg));
      }
      ok(i) = 1;
    }
  };

  explicit ReplayKernel(const ReplayProgram& p)
      : inputs_(p.inputs),
        registers_(p.registers),
        code_(to_view<Memory>(p.instructions, "hepex::reduce::replay::code")),
        outputs_(to_view<Memory>(p.outputs, "hepex::reduce::replay::outputs")) {
    if constexpr (std::is_same<Memory, Kokkos::HostSpace>::value) host_program_ = p;
  }

  std::size_t outputs() const { return outputs_.extent(0); }

  // inputs: count x inputs (row-major, host); table: count x outputs();
  // ok[i] = 0 where a pivot vanishes at point i.
  // threads: where the host space has a single thread (Serial), the lane
  // groups spread over them instead (may be null).
  void run(const field::Zp64& f, std::size_t count, const std::uint64_t* inputs,
           std::uint64_t* table, std::uint8_t* ok, HostThreads* threads = nullptr) const {
    if constexpr (std::is_same<Memory, Kokkos::HostSpace>::value) {
      run_on_host(f, count, inputs, table, ok, threads);
    } else {
      run_on_device(f, count, inputs, table, ok);
    }
  }

 private:
  // Host: lanes of host_lanes points run instruction by instruction
  // (run_lanes: one inversion per pivot for all lanes), the lane groups in
  // parallel over the space's threads.
  void run_on_host(const field::Zp64& f, std::size_t count, const std::uint64_t* inputs,
                   std::uint64_t* table, std::uint8_t* ok, HostThreads* threads) const {
    const KokkosLock lock;
    const std::size_t L = host_lanes, C = inputs_, F = outputs(), R = registers_;
    const std::size_t groups = (count + L - 1) / L;
    const ReplayProgram* program = &host_program_;
    const auto group = [=](const std::size_t g) {
      thread_local std::vector<std::uint64_t> registers, lane_table;
      thread_local std::vector<std::uint8_t> lane_ok;
      registers.resize(R * L);
      lane_table.resize(F * L);
      lane_ok.resize(L);
      // The last group has only the points left (no idle lanes).
      const std::size_t first = g * L, n = std::min(L, count - first);
      for (std::size_t j = 0; j < C; ++j)
        for (std::size_t l = 0; l < n; ++l) registers[j * n + l] = inputs[(first + l) * C + j];
      run_lanes(f, *program, n, registers.data(), lane_table.data(), lane_ok.data());
      for (std::size_t l = 0; l < n; ++l) {
        ok[first + l] = lane_ok[l];
        if (lane_ok[l] != 0) std::copy_n(lane_table.data() + l * F, F, table + (first + l) * F);
      }
    };
    if (threads != nullptr && ExecSpace().concurrency() == 1) {
      for_each_on(threads, groups, [&](std::size_t begin, std::size_t end) {
        for (std::size_t g = begin; g < end; ++g) group(g);
      });
    } else {
      Kokkos::parallel_for("hepex::reduce::replay_lanes", Kokkos::RangePolicy<ExecSpace>(0, groups),
                           group);
    }
  }

  void run_on_device(const field::Zp64& f, std::size_t count, const std::uint64_t* inputs,
                     std::uint64_t* table, std::uint8_t* ok) const {
    const KokkosLock lock;
    // Points per launch: the registers of a chunk within a memory budget.
    const std::size_t budget = std::size_t{1} << 30;
    const std::size_t chunk = std::max<std::size_t>(1, std::min(count, budget / (8 * registers_)));
    const std::size_t F = outputs(), C = inputs_;
    Registers reg(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "hepex::reduce::replay::registers"), chunk,
        registers_);
    for (std::size_t first = 0; first < count; first += chunk) {
      const std::size_t n = std::min(chunk, count - first);
      Kokkos::View<const std::uint64_t**, Kokkos::LayoutRight, Kokkos::HostSpace,
                   Kokkos::MemoryTraits<Kokkos::Unmanaged>>
          h_in(inputs + first * C, n, std::max<std::size_t>(C, 1));
      Rows in(Kokkos::view_alloc(Kokkos::WithoutInitializing, "hepex::reduce::replay::in"), n,
              std::max<std::size_t>(C, 1));
      if (C != 0) Kokkos::deep_copy(in, h_in);
      Rows out(Kokkos::view_alloc(Kokkos::WithoutInitializing, "hepex::reduce::replay::out"), n,
               std::max<std::size_t>(F, 1));
      Kokkos::View<std::uint8_t*, Memory> d_ok("hepex::reduce::replay::ok", n);
      Kokkos::parallel_for(
          "hepex::reduce::replay", Kokkos::RangePolicy<ExecSpace>(0, n),
          Functor{f, code_.data(), code_.extent(0), outputs_.data(), F, C, in, out, reg, d_ok});
      auto h_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
      auto h_ok = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d_ok);
      for (std::size_t i = 0; i < n; ++i) {
        ok[first + i] = h_ok(i);
        if (h_ok(i) != 0) std::copy(&h_out(i, 0), &h_out(i, 0) + F, table + (first + i) * F);
      }
    }
  }

  static constexpr std::size_t host_lanes = 16;
  std::size_t inputs_, registers_;
  ReplayProgram host_program_;
  Kokkos::View<ReplayInstruction*, Memory> code_;
  Kokkos::View<ReplayOutput*, Memory> outputs_;
};

}  // namespace hepex::reduce::detail
