#pragma once
// Rational expressions as black boxes: a parser from text (integers of any
// size, variables, + - * / ^ with integer exponents, parentheses, unary minus)
// to a flat stack program, and a Kokkos kernel that runs the program mod p on
// a batch of points, reporting division by zero per point.
//
// Grammar (precedence from low to high; binary operators associate left):
//   sum     := product (('+' | '-') product)*
//   product := unary (('*' | '/') unary)*
//   unary   := ('-' | '+') unary | power
//   power   := primary (('^' | '**') exponent)?
//   exponent:= ['-' | '+'] digits | '(' ['-' | '+'] digits ')'
//   primary := digits | name | '(' sum ')'
// so -x^2 = -(x^2) and 3/7*x = (3/7)*x. A rational constant is the quotient of
// two integers. '**' (Python's, sympy's and Fortran's power) means '^'.

#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "hepex/core/kokkos_compat.hpp"
#include "hepex/core/vector_view.hpp"
#include "hepex/field/zp.hpp"

namespace hepex::io {

enum class Op : std::uint32_t {
  constant,     // push constants[operand]
  variable,     // push x[operand]
  add,          // a b -> a+b
  sub,          // a b -> a-b
  mul,          // a b -> a*b
  div,          // a b -> a/b (fails when b = 0)
  neg,          // a -> -a
  pow,          // a -> a^operand
  pow_inverse,  // a -> a^-operand (fails when a = 0)
};

struct Instruction {
  Op op;
  std::uint64_t operand;
};

// The deepest stack an expression may need: the evaluation kernel keeps the
// stack in registers/local memory. Flat sums and products need 2-3 slots;
// only deeply right-nested input reaches this.
inline constexpr std::size_t max_stack_depth = 64;

class Expression {
 public:
  // Parses `text` over the given variable names. Malformed input throws
  // hepex::Error "column C: ..." (1-based) naming what was expected.
  static Expression parse(const std::string& text, const std::vector<std::string>& variables);

  const std::vector<Instruction>& code() const { return code_; }
  const std::vector<mpz_class>& constants() const { return constants_; }
  std::size_t variables() const { return variables_; }
  std::size_t stack_depth() const { return stack_depth_; }

 private:
  friend class ExpressionParser;
  std::vector<Instruction> code_;
  std::vector<mpz_class> constants_;  // integer literals, any size
  std::size_t variables_ = 0;
  std::size_t stack_depth_ = 0;
};

// Splits "x,y,z" into names; each must be an identifier ([A-Za-z_][A-Za-z0-9_]*)
// and appear once. hepex::Error otherwise.
// `option` names the list in messages ("--vars" on the command line,
// "variables" in Python).
std::vector<std::string> parse_variable_list(const std::string& text,
                                             const std::string& option = "--vars");

// Several expressions compiled into one program table for one prime: the
// programs back to back (`offsets` delimit them) and their constants mod p.
template <class MemorySpace>
struct ProgramTable {
  Kokkos::View<const Instruction*, MemorySpace> code;
  Kokkos::View<const std::size_t*, MemorySpace> offsets;  // functions + 1 entries
  Kokkos::View<const std::uint64_t*, MemorySpace> constants;
};

// Evaluates the programs of a table at one point x (`variables` words);
// false when some division by zero occurred.
template <class MemorySpace>
struct ExpressionFunctor {
  field::Zp64 field;
  ProgramTable<MemorySpace> table;

  // Every program, into out[0..functions).
  KOKKOS_INLINE_FUNCTION bool operator()(const std::uint64_t* x, std::uint64_t* out) const {
    const std::size_t functions = table.offsets.extent(0) - 1;
    for (std::size_t e = 0; e < functions; ++e) {
      if (!run(e, x, out[e])) return false;
    }
    return true;
  }

  // Program e alone, into value.
  KOKKOS_INLINE_FUNCTION bool run(std::size_t e, const std::uint64_t* x,
                                  std::uint64_t& value) const {
    std::uint64_t stack[max_stack_depth];
    std::size_t top = 0;  // number of occupied slots
    for (std::size_t pc = table.offsets(e); pc < table.offsets(e + 1); ++pc) {
      const Instruction ins = table.code(pc);
      switch (ins.op) {
        case Op::constant: stack[top++] = table.constants(ins.operand); break;
        case Op::variable: stack[top++] = x[ins.operand]; break;
        case Op::add:
          --top;
          stack[top - 1] = field.add(stack[top - 1], stack[top]);
          break;
        case Op::sub:
          --top;
          stack[top - 1] = field.sub(stack[top - 1], stack[top]);
          break;
        case Op::mul:
          --top;
          stack[top - 1] = field.mul(stack[top - 1], stack[top]);
          break;
        case Op::div:
          --top;
          if (stack[top] == 0) return false;
          stack[top - 1] = field.mul(stack[top - 1], field.inv(stack[top]));
          break;
        case Op::neg: stack[top - 1] = field.neg(stack[top - 1]); break;
        case Op::pow: stack[top - 1] = field.pow(stack[top - 1], ins.operand); break;
        case Op::pow_inverse:
          if (stack[top - 1] == 0) return false;
          stack[top - 1] = field.inv(field.pow(stack[top - 1], ins.operand));
          break;
      }
    }
    value = stack[0];
    return true;
  }
};

// Copies the programs of `expressions` (all over the same variables) with
// their constants reduced mod p into the memory space.
template <class MemorySpace>
ProgramTable<MemorySpace> make_program_table(const std::vector<Expression>& expressions,
                                             const field::Zp64& f) {
  std::vector<Instruction> code;
  std::vector<std::size_t> offsets{0};
  std::vector<std::uint64_t> constants;
  for (const auto& e : expressions) {
    const std::uint64_t base = constants.size();
    for (const auto& c : e.constants()) {
      constants.push_back(mpz_fdiv_ui(c.get_mpz_t(), f.modulus()));
    }
    for (Instruction ins : e.code()) {
      if (ins.op == Op::constant) ins.operand += base;
      code.push_back(ins);
    }
    offsets.push_back(code.size());
  }
  return {to_view<MemorySpace>(code, "hepex::expression::code"),
          to_view<MemorySpace>(offsets, "hepex::expression::offsets"),
          to_view<MemorySpace>(constants, "hepex::expression::constants")};
}

}  // namespace hepex::io
