#pragma once
// Sparse Gauss-Jordan elimination of a linear system of integrals mod p at
// one parameter point (the numeric step of IBP reduction, Laporta's
// algorithm): the equations' rows, columns in the integral order (column 0
// the most complex), are taken one by one, the simplest leading integral
// first, and reduced by the
// pivot rows before them until their leading entry is a new pivot (or the
// row vanishes: a dependent equation). Then each target's row is reduced
// by the pivot rows of every other pivot column it has, simplest first,
// until only non-pivot columns (the masters) are left: the target as a
// combination of masters at that point.
//
// learn() does it for every equation and records what a replay needs: which
// equations the targets need (mark and sweep over the rows each pivot row
// was reduced by and those its back substitution uses, as FiniteFlow does),
// each one's pivot column, and the masters. replay() does the same for the
// needed equations only, checking that each gets its learned pivot (a pivot
// that vanishes at this point fails the point, never a wrong value).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "hepex/field/zp.hpp"

namespace hepex::reduce::detail {

// One equation: its columns, ascending and distinct, and coefficient slots
// (the coefficient of columns[k] is value slot slots[k] of a point's
// coefficient values).
struct SparseEquation {
  std::vector<std::uint32_t> columns;
  std::vector<std::uint32_t> slots;
};

struct Plan {
  std::size_t columns = 0;
  std::vector<std::size_t> needed;        // equations, in elimination order
  std::vector<std::uint32_t> pivot;       // per needed equation: its pivot column
  std::vector<std::uint32_t> back;        // pivot columns the targets' back substitution uses
  std::vector<std::uint32_t> masters;     // columns, ascending
  std::vector<std::uint32_t> targets;     // columns, as asked
  std::size_t pivots = 0, dependent = 0;  // over all equations
  std::vector<std::uint64_t> table;       // targets x masters at the learning point
};

// At one point (values: every coefficient slot's value mod f). A target
// without a pivot is a master itself (its row of the table: 1 at itself).
Plan learn(const field::Zp64& f, const std::vector<SparseEquation>& equations, std::size_t columns,
           const std::vector<std::uint32_t>& targets, const std::uint64_t* values);

// The table at one point: table[t * masters + m] = coefficient of master m
// in target t; false if a learned pivot vanishes here.
bool replay(const field::Zp64& f, const std::vector<SparseEquation>& equations, const Plan& plan,
            const std::uint64_t* values, std::uint64_t* table);

}  // namespace hepex::reduce::detail
