#pragma once
// The learned elimination as a straight-line program over Z/p (the idea of
// Ratracer, V. Magerya, arXiv:2211.03572: trace the elimination once, replay
// the recorded arithmetic at every probe). Its only inputs are the needed
// equations' coefficient values at a point; every instruction is one of
//
//   inv  dst = 1/a        (the point fails if a = 0: a learned pivot vanishes)
//   mul  dst = a*b        (a pivot row normalised)
//   fms  dst = a - b*c    (an entry of a row reduced by a pivot row)
//   nmul dst = -(b*c)     (fill-in: an entry only the pivot row had)
//
// and its outputs are the table's T x M coefficients. The program is the
// elimination of elimination.hpp's replay() with its pivots fixed: the same
// rows, pivots and order, so its values are replay()'s wherever the
// pivots do not vanish. An entry that is zero at the tracing point is taken
// to be zero everywhere (it is, but for a chance of ~ (instructions)/p;
// reduce() checks the table against a fresh elimination of the whole system
// at another point and the program against replay() at a second point).
//
// Registers: values are renamed by a linear scan over their last uses, so a
// point needs `registers` words, not one per instruction.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hepex/core/kokkos_compat.hpp"
#include "hepex/field/zp.hpp"
#include "hepex/reduce/detail/elimination.hpp"

namespace hepex::reduce::detail {

enum class ReplayOp : std::uint32_t { inv, mul, fms, nmul };

struct ReplayInstruction {
  ReplayOp op;
  std::uint32_t dst, a, b, c;  // unused operands are 0
};

// One table entry: 0, 1, or -(register value).
struct ReplayOutput {
  enum Kind : std::uint32_t { zero, one, negated };
  Kind kind = zero;
  std::uint32_t reg = 0;
};

struct ReplayProgram {
  std::size_t inputs = 0;     // coefficient slots, in registers 0..inputs-1 at the start
  std::size_t registers = 0;  // words per point
  std::vector<ReplayInstruction> instructions;
  std::vector<ReplayOutput> outputs;  // targets x masters, row-major
  std::size_t live_peak = 0;          // == registers (kept for reports)
};

// Traces replay(f, equations, plan, values, .) at the point whose
// coefficient values are `values` (every pivot nonzero there; else
// hepex::Error). equations are the needed ones, plan.needed indexes them.
ReplayProgram trace(const field::Zp64& f, const std::vector<SparseEquation>& equations,
                    const Plan& plan, const std::uint64_t* values);

// One point on the host: registers has program.registers words, its first
// `inputs` the coefficient values; table gets T x M values. False where a
// pivot vanishes.
bool run(const field::Zp64& f, const ReplayProgram& program, std::uint64_t* registers,
         std::uint64_t* table);

// `lanes` points at once on the host, instruction by instruction:
// registers[k * lanes + l] is register k of point l (the first `inputs`
// registers hold the coefficient values), table[l * T*M + j] gets entry j
// of point l's table and ok[l] = 0 where a pivot vanishes. A pivot's
// inverse is taken for all lanes with one inversion (Montgomery's trick:
// prefix products, one inverse, 3 multiplications a lane), so a point pays
// about 3 multiplications, not an extended Euclid, per pivot row.
void run_lanes(const field::Zp64& f, const ReplayProgram& program, std::size_t lanes,
               std::uint64_t* registers, std::uint64_t* table, std::uint8_t* ok);

// One point's registers as a plain array (run(), and a kernel's scratch).
struct PointerRegisters {
  std::uint64_t* r;
  KOKKOS_INLINE_FUNCTION std::uint64_t& operator()(std::uint32_t k) const { return r[k]; }
};

// The same for one point inside a kernel, registers reached through
// reg(k) (a View column on the device, points in the fast index).
template <class Instructions, class Registers>
KOKKOS_INLINE_FUNCTION bool run_instructions(const field::Zp64& f, const Instructions& code,
                                             std::size_t count, Registers&& reg) {
  for (std::size_t k = 0; k < count; ++k) {
    const ReplayInstruction in = code[k];
    switch (in.op) {
      case ReplayOp::inv: {
        const std::uint64_t a = reg(in.a);
        if (a == 0) return false;
        reg(in.dst) = f.inv(a);
        break;
      }
      case ReplayOp::mul: reg(in.dst) = f.mul(reg(in.a), reg(in.b)); break;
      case ReplayOp::fms: reg(in.dst) = f.fma(f.neg(reg(in.b)), reg(in.c), reg(in.a)); break;
      case ReplayOp::nmul: reg(in.dst) = f.neg(f.mul(reg(in.b), reg(in.c))); break;
    }
  }
  return true;
}

}  // namespace hepex::reduce::detail
