#include "hepex/reduce/detail/elimination.hpp"

#include <algorithm>
#include <functional>
#include <numeric>

#include "hepex/core/error.hpp"

namespace hepex::reduce::detail {

namespace {

struct Row {
  std::vector<std::uint32_t> col;  // ascending
  std::vector<std::uint64_t> val;  // nonzero
};

// r <- r - c s (both ascending; zeros dropped).
void subtract(const field::Zp64& f, Row& r, std::uint64_t c, const Row& s, Row& out) {
  out.col.clear();
  out.val.clear();
  const std::uint64_t c_shoup = f.shoup(c);
  std::size_t i = 0, j = 0;
  while (i < r.col.size() || j < s.col.size()) {
    if (j == s.col.size() || (i < r.col.size() && r.col[i] < s.col[j])) {
      out.col.push_back(r.col[i]);
      out.val.push_back(r.val[i++]);
    } else if (i == r.col.size() || s.col[j] < r.col[i]) {
      out.col.push_back(s.col[j]);
      out.val.push_back(f.neg(f.mul_shoup(s.val[j++], c, c_shoup)));
    } else {
      const std::uint64_t v = f.sub(r.val[i++], f.mul_shoup(s.val[j++], c, c_shoup));
      if (v != 0) {
        out.col.push_back(s.col[j - 1]);
        out.val.push_back(v);
      }
    }
  }
  std::swap(r, out);
}

// The row being reduced, scattered (a sparse accumulator): its values by
// column, and the set of columns that may be nonzero as a two-level bitset
// (a bit per column, and a bit per 64-column word that has any), so the
// leading one is next. A forward step subtracts a short pivot row from a
// long one (on the 39,790-equation double box 5.5 against 48 entries on
// average): scattered, each step costs the pivot row's length, merged the
// sum. The leading column only grows while a row is reduced (a pivot row's
// other columns lie after its leading one), so the search for the next one
// starts where the last ended: a pop reads a few words, where a binary heap
// cost log(size) cache misses a push and a pop (a third of the elimination's
// time on the 98,380-equation double box).
struct Accumulator {
  std::vector<std::uint64_t> value;  // per column, 0 where absent
  std::vector<std::uint64_t> bits;   // bit c: column c queued
  std::vector<std::uint64_t> words;  // bit w: bits[w] != 0
  std::size_t queued = 0;            // columns queued
  std::size_t from = 0;              // no queued column lies in a word of words[] before this
  explicit Accumulator(std::size_t columns)
      : value(columns, 0), bits((columns + 63) / 64, 0), words((bits.size() + 63) / 64, 0) {}
  bool empty() const { return queued == 0; }
  void push(std::uint32_t c) {
    std::uint64_t& b = bits[c >> 6];
    const std::uint64_t bit = std::uint64_t{1} << (c & 63);
    if ((b & bit) != 0) return;
    b |= bit;
    words[c >> 12] |= std::uint64_t{1} << ((c >> 6) & 63);
    from = std::min<std::size_t>(from, c >> 12);
    ++queued;
  }
  // The smallest queued column, dequeued (not empty()).
  std::uint32_t pop() {
    while (words[from] == 0) ++from;
    const std::size_t w = from * 64 + static_cast<std::size_t>(__builtin_ctzll(words[from]));
    std::uint64_t& b = bits[w];
    const auto c =
        static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(b)));
    b &= b - 1;
    if (b == 0) words[from] &= words[from] - 1;
    --queued;
    return c;
  }
};

// The pivot rows back to back, a column and its value side by side: a
// forward step reads one pivot row, somewhere in memory, and the cache
// misses of finding it were most of learning's time once the accumulator
// was a bitset (a Row apiece: its two vectors and their header, three).
struct PivotRows {
  struct Entry {
    std::uint64_t val;
    std::uint32_t col;
  };
  std::vector<std::size_t> start{0};  // row p: entries [start[p], start[p + 1])
  std::vector<Entry> entries;
  std::size_t size() const { return start.size() - 1; }
  const Entry* begin(std::size_t p) const { return entries.data() + start[p]; }
  const Entry* end(std::size_t p) const { return entries.data() + start[p + 1]; }
  std::uint32_t lead(std::size_t p) const { return entries[start[p]].col; }
  Row row(std::size_t p) const {
    Row r;
    for (const Entry* e = begin(p); e != end(p); ++e) {
      r.col.push_back(e->col);
      r.val.push_back(e->val);
    }
    return r;
  }
};

struct Forward {
  std::vector<std::int64_t> pivot_of;  // column -> pivot row, or -1
  PivotRows rows;                      // leading entry 1
  std::vector<std::size_t> owner;      // pivot row -> equation
  // Pivot row p was reduced by the pivot rows used[used_start[p] ..
  // used_start[p + 1]) (kept when learning).
  std::vector<std::size_t> used_start{0};
  std::vector<std::uint32_t> used;
  Accumulator acc;
  explicit Forward(std::size_t columns) : pivot_of(columns, -1), acc(columns) {}
};

// Reduces equation e into the pivots so far; its pivot column, or -1.
std::int64_t forward(const field::Zp64& f, Forward& fw, const SparseEquation& e, std::size_t index,
                     const std::uint64_t* values, bool track) {
  Accumulator& a = fw.acc;
  for (std::size_t k = 0; k < e.columns.size(); ++k) {
    const std::uint32_t c = e.columns[k];
    a.value[c] = f.add(a.value[c], values[e.slots[k]]);
    a.push(c);
  }
  const std::size_t used_before = fw.used.size();
  while (!a.empty()) {
    const std::uint32_t c = a.pop();
    const std::uint64_t v = a.value[c];
    if (v == 0) continue;  // cancelled
    a.value[c] = 0;
    const std::int64_t p = fw.pivot_of[c];
    if (p < 0) {
      // The new pivot row: c and what is left, ascending, leading entry 1.
      const std::uint64_t inverse = f.inv(v);
      const std::uint64_t inverse_shoup = f.shoup(inverse);
      auto& entries = fw.rows.entries;
      entries.push_back({1, c});
      while (!a.empty()) {  // ascending
        const std::uint32_t other = a.pop();
        if (a.value[other] != 0) {
          entries.push_back({f.mul_shoup(a.value[other], inverse, inverse_shoup), other});
          a.value[other] = 0;
        }
      }
      fw.pivot_of[c] = static_cast<std::int64_t>(fw.rows.size());
      fw.rows.start.push_back(entries.size());
      fw.owner.push_back(index);
      if (track) fw.used_start.push_back(fw.used.size());
      return c;
    }
    if (track) fw.used.push_back(static_cast<std::uint32_t>(p));
    // Minus v times the pivot row (its leading entry, 1, cancels c).
    const std::uint64_t v_shoup = f.shoup(v);
    const auto* end = fw.rows.end(static_cast<std::size_t>(p));
    for (const auto* e = fw.rows.begin(static_cast<std::size_t>(p)) + 1; e != end; ++e) {
      a.value[e->col] = f.sub(a.value[e->col], f.mul_shoup(e->val, v, v_shoup));
      a.push(e->col);
    }
  }
  fw.used.resize(used_before);  // a dependent equation: no pivot row
  return -1;
}

// full[c] for each pivot column c of `back` (descending: simplest first):
// its pivot row with every other pivot column eliminated by the full rows
// of those (simpler, so already made), leaving c and master columns.
void back_substitute(const field::Zp64& f, const Forward& fw,
                     const std::vector<std::uint32_t>& back, std::vector<Row>& full) {
  Row scratch;
  for (const std::uint32_t c : back) {  // descending: simplest first
    Row r = fw.rows.row(static_cast<std::size_t>(fw.pivot_of[c]));
    while (true) {
      std::size_t k = 1;
      while (k < r.col.size() && fw.pivot_of[r.col[k]] < 0) ++k;
      if (k == r.col.size()) break;
      const std::uint32_t other = r.col[k];
      const std::uint64_t coefficient = r.val[k];
      subtract(f, r, coefficient, full[other], scratch);
    }
    full[c] = std::move(r);
  }
}

}  // namespace

Plan learn(const field::Zp64& f, const std::vector<SparseEquation>& equations, std::size_t columns,
           const std::vector<std::uint32_t>& targets, const std::uint64_t* values) {
  Plan plan;
  plan.columns = columns;
  plan.targets = targets;
  Forward fw(columns);
  // Equations with the simplest leading integral first (ties: fewer terms):
  // each is then reduced by short, simple pivot rows, and the fill-in stays
  // small (input order can cost orders of magnitude more on Laporta
  // systems). The pivot columns do not depend on this order (they are the
  // reduced echelon form's), so neither do the masters.
  std::vector<std::size_t> sequence(equations.size()), position(equations.size());
  std::iota(sequence.begin(), sequence.end(), std::size_t{0});
  const auto lead = [&](std::size_t e) {
    return equations[e].columns.empty() ? std::uint32_t{0} : equations[e].columns.front();
  };
  std::stable_sort(sequence.begin(), sequence.end(), [&](std::size_t a, std::size_t b) {
    if (lead(a) != lead(b)) return lead(a) > lead(b);
    return equations[a].columns.size() < equations[b].columns.size();
  });
  for (std::size_t k = 0; k < sequence.size(); ++k) position[sequence[k]] = k;
  for (const std::size_t e : sequence) {
    if (forward(f, fw, equations[e], e, values, true) < 0) ++plan.dependent;
  }
  plan.pivots = fw.rows.size();
  // Mark: the pivot columns the targets' back substitution reaches.
  std::vector<std::uint8_t> in_back(columns, 0);
  std::vector<std::uint32_t> stack;
  for (const std::uint32_t t : targets) {
    if (fw.pivot_of[t] >= 0 && !in_back[t]) {
      in_back[t] = 1;
      stack.push_back(t);
    }
  }
  while (!stack.empty()) {
    const std::uint32_t c = stack.back();
    stack.pop_back();
    const auto p = static_cast<std::size_t>(fw.pivot_of[c]);
    for (const auto* e = fw.rows.begin(p); e != fw.rows.end(p); ++e) {
      const std::uint32_t other = e->col;
      if (fw.pivot_of[other] >= 0 && !in_back[other]) {
        in_back[other] = 1;
        stack.push_back(other);
      }
    }
  }
  for (std::size_t c = columns; c-- > 0;)
    if (in_back[c]) plan.back.push_back(static_cast<std::uint32_t>(c));
  // ... and the pivot rows their forward reduction used, transitively.
  std::vector<std::uint8_t> needed_row(fw.rows.size(), 0);
  std::vector<std::uint32_t> rows;
  for (const std::uint32_t c : plan.back) {
    const auto p = static_cast<std::uint32_t>(fw.pivot_of[c]);
    needed_row[p] = 1;
    rows.push_back(p);
  }
  while (!rows.empty()) {
    const std::uint32_t p = rows.back();
    rows.pop_back();
    for (std::size_t k = fw.used_start[p]; k < fw.used_start[p + 1]; ++k) {
      const std::uint32_t q = fw.used[k];
      if (!needed_row[q]) {
        needed_row[q] = 1;
        rows.push_back(q);
      }
    }
  }
  // Needed rows in the order they were made (pivot rows are made in the
  // sequence's order: replay() and trace() take them in plan.needed's).
  for (std::size_t p = 0; p < fw.rows.size(); ++p) {
    if (needed_row[p]) {
      plan.needed.push_back(fw.owner[p]);
      plan.pivot.push_back(fw.rows.lead(p));
    }
  }
  // The masters: the non-pivot columns of the targets' reduced rows, and
  // the targets without a pivot.
  std::vector<Row> full(columns);
  back_substitute(f, fw, plan.back, full);
  std::vector<std::uint8_t> master(columns, 0);
  for (const std::uint32_t t : targets) {
    if (fw.pivot_of[t] < 0) {
      master[t] = 1;
      continue;
    }
    for (std::size_t k = 1; k < full[t].col.size(); ++k) master[full[t].col[k]] = 1;
  }
  for (std::size_t c = 0; c < columns; ++c)
    if (master[c]) plan.masters.push_back(static_cast<std::uint32_t>(c));
  // The table at this point (as replay() gives it).
  const std::size_t M = plan.masters.size();
  plan.table.assign(targets.size() * M, 0);
  for (std::size_t t = 0; t < targets.size(); ++t) {
    const std::uint32_t c = targets[t];
    std::uint64_t* out = plan.table.data() + t * M;
    const auto index = [&](std::uint32_t column) {
      return static_cast<std::size_t>(
          std::lower_bound(plan.masters.begin(), plan.masters.end(), column) -
          plan.masters.begin());
    };
    if (fw.pivot_of[c] < 0) {
      out[index(c)] = 1;
      continue;
    }
    for (std::size_t k = 1; k < full[c].col.size(); ++k)
      out[index(full[c].col[k])] = f.neg(full[c].val[k]);
  }
  return plan;
}

bool replay(const field::Zp64& f, const std::vector<SparseEquation>& equations, const Plan& plan,
            const std::uint64_t* values, std::uint64_t* table) {
  Forward fw(plan.columns);
  for (std::size_t k = 0; k < plan.needed.size(); ++k) {
    const std::int64_t c = forward(f, fw, equations[plan.needed[k]], plan.needed[k], values, false);
    if (c != static_cast<std::int64_t>(plan.pivot[k])) return false;
  }
  std::vector<Row> full(plan.columns);
  back_substitute(f, fw, plan.back, full);
  const std::size_t M = plan.masters.size();
  std::fill(table, table + plan.targets.size() * M, 0);
  for (std::size_t t = 0; t < plan.targets.size(); ++t) {
    const std::uint32_t c = plan.targets[t];
    std::uint64_t* out = table + t * M;
    if (fw.pivot_of[c] < 0) {
      const auto it = std::lower_bound(plan.masters.begin(), plan.masters.end(), c);
      if (it == plan.masters.end() || *it != c) return false;
      out[it - plan.masters.begin()] = 1;
      continue;
    }
    const Row& r = full[c];
    for (std::size_t k = 1; k < r.col.size(); ++k) {
      const auto it = std::lower_bound(plan.masters.begin(), plan.masters.end(), r.col[k]);
      if (it == plan.masters.end() || *it != r.col[k]) return false;  // not a learned master
      out[it - plan.masters.begin()] = f.neg(r.val[k]);
    }
  }
  return true;
}

}  // namespace hepex::reduce::detail
