#include "hepex/reduce/detail/replay_program.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "hepex/core/error.hpp"

namespace hepex::reduce::detail {

namespace {

constexpr std::uint32_t no_value = std::numeric_limits<std::uint32_t>::max();

// A row while tracing: per entry its column, the SSA value holding it and
// that value at the tracing point. Pivot rows keep their leading column
// with value 1 and no SSA value (it is never read).
struct TracedRow {
  std::vector<std::uint32_t> col, id;
  std::vector<std::uint64_t> val;
  void push(std::uint32_t c, std::uint32_t i, std::uint64_t v) {
    col.push_back(c);
    id.push_back(i);
    val.push_back(v);
  }
  std::size_t size() const { return col.size(); }
};

class Tracer {
 public:
  Tracer(const field::Zp64& f, std::size_t inputs)
      : f_(f), next_(static_cast<std::uint32_t>(inputs)) {
    if (inputs >= no_value) throw Error("reduce: too many coefficients for a replay program");
  }

  std::uint32_t emit(ReplayOp op, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    if (next_ == no_value) throw Error("reduce: the replay program needs more than 2^32 values");
    code_.push_back({op, next_, a, b, c});
    return next_++;
  }

  // row <- row - row.val[0] * pivot, starting past both leading entries
  // (the leading entry cancels: the pivot row's is 1). Entries zero at the
  // tracing point are dropped without an instruction.
  void subtract_leading(TracedRow& row, std::size_t k, const TracedRow& pivot, TracedRow& out) {
    out.col.clear();
    out.id.clear();
    out.val.clear();
    for (std::size_t j = 0; j < k; ++j) out.push(row.col[j], row.id[j], row.val[j]);
    const std::uint32_t factor = row.id[k];
    const std::uint64_t factor_value = row.val[k];
    std::size_t i = k + 1, j = 1;
    while (i < row.size() || j < pivot.size()) {
      if (j == pivot.size() || (i < row.size() && row.col[i] < pivot.col[j])) {
        out.push(row.col[i], row.id[i], row.val[i]);
        ++i;
      } else if (i == row.size() || pivot.col[j] < row.col[i]) {
        const std::uint64_t v = f_.neg(f_.mul(factor_value, pivot.val[j]));
        out.push(pivot.col[j], emit(ReplayOp::nmul, 0, factor, pivot.id[j]), v);
        ++j;
      } else {
        const std::uint64_t v = f_.sub(row.val[i], f_.mul(factor_value, pivot.val[j]));
        if (v != 0) out.push(row.col[i], emit(ReplayOp::fms, row.id[i], factor, pivot.id[j]), v);
        ++i;
        ++j;
      }
    }
    std::swap(row, out);
  }

  // row / row.val[0]: the leading entry becomes 1 (no value), the pivot
  // check is the inv instruction.
  void normalise(TracedRow& row) {
    const std::uint32_t inverse = emit(ReplayOp::inv, row.id[0], 0, 0);
    const std::uint64_t inverse_value = f_.inv(row.val[0]);
    for (std::size_t j = 1; j < row.size(); ++j) {
      row.id[j] = emit(ReplayOp::mul, row.id[j], inverse, 0);
      row.val[j] = f_.mul(row.val[j], inverse_value);
    }
    row.id[0] = no_value;
    row.val[0] = 1;
  }

  std::vector<ReplayInstruction>& code() { return code_; }
  std::uint32_t values() const { return next_; }

 private:
  const field::Zp64& f_;
  std::uint32_t next_;
  std::vector<ReplayInstruction> code_;
};

// Operands an instruction reads.
template <class F>
void for_each_operand(const ReplayInstruction& in, F&& use) {
  switch (in.op) {
    case ReplayOp::inv: use(in.a); break;
    case ReplayOp::mul:
      use(in.a);
      use(in.b);
      break;
    case ReplayOp::fms:
      use(in.a);
      use(in.b);
      use(in.c);
      break;
    case ReplayOp::nmul:
      use(in.b);
      use(in.c);
      break;
  }
}

// Drops instructions no output needs (inv stays: it is the pivot check),
// then renames SSA values to registers by a linear scan over last uses.
void allocate(ReplayProgram& p, std::vector<ReplayInstruction> code, std::uint32_t values) {
  std::vector<std::uint8_t> live(values, 0);
  for (const auto& o : p.outputs)
    if (o.kind == ReplayOutput::negated) live[o.reg] = 1;
  std::vector<std::uint8_t> keep(code.size(), 0);
  for (std::size_t k = code.size(); k-- > 0;) {
    if (!live[code[k].dst] && code[k].op != ReplayOp::inv) continue;
    keep[k] = 1;
    for_each_operand(code[k], [&](std::uint32_t v) { live[v] = 1; });
  }
  std::vector<ReplayInstruction> kept;
  for (std::size_t k = 0; k < code.size(); ++k)
    if (keep[k]) kept.push_back(code[k]);

  constexpr std::size_t forever = std::numeric_limits<std::size_t>::max();
  constexpr std::size_t never = forever - 1;
  std::vector<std::size_t> last(values, never);
  for (std::size_t k = 0; k < kept.size(); ++k)
    for_each_operand(kept[k], [&](std::uint32_t v) { last[v] = k; });
  for (const auto& o : p.outputs)
    if (o.kind == ReplayOutput::negated) last[o.reg] = forever;

  std::vector<std::uint32_t> reg(values, no_value), free;
  std::vector<std::vector<std::uint32_t>> dies(kept.size());
  std::size_t registers = p.inputs;
  for (std::uint32_t v = 0; v < p.inputs; ++v) {
    reg[v] = v;
    if (last[v] == never)
      free.push_back(v);
    else if (last[v] != forever)
      dies[last[v]].push_back(v);
  }
  std::reverse(free.begin(), free.end());
  for (std::size_t k = 0; k < kept.size(); ++k) {
    ReplayInstruction& in = kept[k];
    // Operands dying here free their registers first: run() reads every
    // operand before it writes dst.
    for (const std::uint32_t v : dies[k]) free.push_back(reg[v]);
    const std::uint32_t dst = in.dst;
    if (free.empty()) {
      reg[dst] = static_cast<std::uint32_t>(registers++);
    } else {
      reg[dst] = free.back();
      free.pop_back();
    }
    in.a = in.op == ReplayOp::nmul ? 0 : reg[in.a];
    if (in.op != ReplayOp::inv) in.b = reg[in.b];
    if (in.op == ReplayOp::fms || in.op == ReplayOp::nmul) in.c = reg[in.c];
    in.dst = reg[dst];
    if (last[dst] == never)
      free.push_back(reg[dst]);
    else if (last[dst] != forever)
      dies[last[dst]].push_back(dst);
  }
  for (auto& o : p.outputs)
    if (o.kind == ReplayOutput::negated) o.reg = reg[o.reg];
  p.instructions = std::move(kept);
  p.registers = std::max<std::size_t>(registers, 1);
  p.live_peak = p.registers;
}

}  // namespace

ReplayProgram trace(const field::Zp64& f, const std::vector<SparseEquation>& equations,
                    const Plan& plan, const std::uint64_t* values) {
  std::size_t inputs = 0;
  for (const std::size_t e : plan.needed)
    for (const std::uint32_t s : equations.at(e).slots)
      inputs = std::max<std::size_t>(inputs, s + 1);
  ReplayProgram program;
  program.inputs = inputs;
  Tracer t(f, inputs);

  // Forward: the needed equations in order, each reduced by the pivot rows
  // before it until its learned pivot leads (as replay()).
  std::vector<std::int64_t> pivot_of(plan.columns, -1);
  std::vector<TracedRow> rows;
  TracedRow scratch;
  for (std::size_t k = 0; k < plan.needed.size(); ++k) {
    const SparseEquation& e = equations[plan.needed[k]];
    TracedRow row;
    for (std::size_t j = 0; j < e.columns.size(); ++j) {
      const std::uint64_t v = values[e.slots[j]];
      if (v != 0) row.push(e.columns[j], e.slots[j], v);
    }
    while (row.size() != 0 && pivot_of[row.col[0]] >= 0)
      t.subtract_leading(row, 0, rows[static_cast<std::size_t>(pivot_of[row.col[0]])], scratch);
    if (row.size() == 0 || row.col[0] != plan.pivot[k])
      throw Error("reduce: the replay cannot be traced at this point (a learned pivot vanishes)",
                  ErrorKind::runtime);
    t.normalise(row);
    pivot_of[row.col[0]] = static_cast<std::int64_t>(rows.size());
    rows.push_back(std::move(row));
  }

  // Back substitution, simplest pivot column first (as back_substitute()).
  std::vector<TracedRow> full(plan.columns);
  for (const std::uint32_t c : plan.back) {
    TracedRow r = rows.at(static_cast<std::size_t>(pivot_of[c]));
    std::size_t k = 1;
    while (k < r.size()) {
      if (pivot_of[r.col[k]] < 0) {
        ++k;
        continue;
      }
      t.subtract_leading(r, k, full[r.col[k]], scratch);  // entry k cancels; k now the next one
    }
    full[c] = std::move(r);
  }

  // Outputs: table[t][m] = -(entry of master m in target t's full row).
  const std::size_t M = plan.masters.size();
  program.outputs.assign(plan.targets.size() * M, ReplayOutput{});
  for (std::size_t i = 0; i < plan.targets.size(); ++i) {
    const std::uint32_t c = plan.targets[i];
    const auto master_index = [&](std::uint32_t column) {
      const auto it = std::lower_bound(plan.masters.begin(), plan.masters.end(), column);
      if (it == plan.masters.end() || *it != column)
        throw Error("reduce: column " + std::to_string(column) + " is not a learned master",
                    ErrorKind::runtime);
      return static_cast<std::size_t>(it - plan.masters.begin());
    };
    if (pivot_of[c] < 0) {
      program.outputs[i * M + master_index(c)].kind = ReplayOutput::one;
      continue;
    }
    const TracedRow& r = full[c];
    for (std::size_t k = 1; k < r.size(); ++k) {
      ReplayOutput& o = program.outputs[i * M + master_index(r.col[k])];
      o.kind = ReplayOutput::negated;
      o.reg = r.id[k];
    }
  }
  allocate(program, std::move(t.code()), t.values());
  return program;
}

bool run(const field::Zp64& f, const ReplayProgram& program, std::uint64_t* registers,
         std::uint64_t* table) {
  const bool ok = run_instructions(f, program.instructions.data(), program.instructions.size(),
                                   PointerRegisters{registers});
  if (!ok) return false;
  for (std::size_t k = 0; k < program.outputs.size(); ++k) {
    const ReplayOutput& o = program.outputs[k];
    table[k] = o.kind == ReplayOutput::zero  ? 0
               : o.kind == ReplayOutput::one ? 1
                                             : f.neg(registers[o.reg]);
  }
  return true;
}

void run_lanes(const field::Zp64& f, const ReplayProgram& program, std::size_t lanes,
               std::uint64_t* registers, std::uint64_t* table, std::uint8_t* ok) {
  const std::size_t L = lanes;
  std::fill(ok, ok + L, 1);
  std::vector<std::uint64_t> prefix(L);
  for (const ReplayInstruction& in : program.instructions) {
    std::uint64_t* d = registers + std::size_t{in.dst} * L;
    const std::uint64_t* a = registers + std::size_t{in.a} * L;
    const std::uint64_t* b = registers + std::size_t{in.b} * L;
    const std::uint64_t* c = registers + std::size_t{in.c} * L;
    // Every lane reads its operands before it writes d (d may be one of them).
    switch (in.op) {
      case ReplayOp::inv: {
        // prefix[l] = a_0 ... a_{l-1}; a zero pivot fails its lane and counts as 1.
        std::uint64_t product = 1;
        for (std::size_t l = 0; l < L; ++l) {
          prefix[l] = product;
          if (a[l] == 0)
            ok[l] = 0;
          else
            product = f.mul(product, a[l]);
        }
        std::uint64_t inverse = f.inv(product);  // 1 / (a_0 ... a_{L-1})
        for (std::size_t l = L; l-- > 0;) {
          const std::uint64_t x = a[l] == 0 ? 1 : a[l];
          d[l] = f.mul(inverse, prefix[l]);  // 1 / a_l
          inverse = f.mul(inverse, x);       // 1 / (a_0 ... a_{l-1})
        }
        break;
      }
      case ReplayOp::mul:
        for (std::size_t l = 0; l < L; ++l) d[l] = f.mul(a[l], b[l]);
        break;
      case ReplayOp::fms:
        for (std::size_t l = 0; l < L; ++l) d[l] = f.fma(f.neg(b[l]), c[l], a[l]);
        break;
      case ReplayOp::nmul:
        for (std::size_t l = 0; l < L; ++l) d[l] = f.neg(f.mul(b[l], c[l]));
        break;
    }
  }
  const std::size_t F = program.outputs.size();
  for (std::size_t k = 0; k < F; ++k) {
    const ReplayOutput& o = program.outputs[k];
    for (std::size_t l = 0; l < L; ++l) {
      table[l * F + k] = o.kind == ReplayOutput::zero ? 0
                         : o.kind == ReplayOutput::one
                             ? 1
                             : f.neg(registers[std::size_t{o.reg} * L + l]);
    }
  }
}

}  // namespace hepex::reduce::detail
