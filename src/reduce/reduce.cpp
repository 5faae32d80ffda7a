#include "hepex/reduce/reduce.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <future>
#include <memory>
#include <numeric>
#include <unordered_map>

#include "hepex/core/error.hpp"
#include "hepex/core/host_threads.hpp"
#include "hepex/core/random.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/field/primes.hpp"
#include "hepex/reconstruct/black_box.hpp"
#include "hepex/reconstruct/factored_form.hpp"
#include "hepex/reconstruct/probe_log.hpp"
#include "hepex/reduce/detail/elimination.hpp"
#include "hepex/reduce/detail/rank_shared_box.hpp"
#include "hepex/reduce/detail/replay_kernel.hpp"
#include "hepex/reduce/detail/replay_program.hpp"

namespace hepex::reduce {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The system as sparse equations over columns (the order's positions) and
// coefficient slots, with the coefficients' black box.
struct Numeric {
  std::vector<detail::SparseEquation> equations;
  std::vector<io::Expression> expressions;              // one per coefficient slot
  std::unique_ptr<reconstruct::BlackBox> coefficients;  // on the host
};

Numeric numeric(const System& s, const std::vector<std::uint32_t>& column_of,
                const std::vector<std::size_t>& which) {
  Numeric n;
  std::vector<io::Expression> expressions;
  std::vector<std::uint32_t> slot_of(s.coefficients.size(), UINT32_MAX);  // coefficient -> slot
  for (const std::size_t e : which) {
    // Terms in column order once here, not at every probe (one term per
    // integral: read_system adds the terms of the same integral).
    const auto& terms = s.equations[e].terms;
    std::vector<std::size_t> by_column(terms.size());
    std::iota(by_column.begin(), by_column.end(), std::size_t{0});
    std::sort(by_column.begin(), by_column.end(), [&](std::size_t a, std::size_t b) {
      return column_of[terms[a].integral] < column_of[terms[b].integral];
    });
    detail::SparseEquation eq;
    for (const std::size_t k : by_column) {
      eq.columns.push_back(column_of[terms[k].integral]);
      // One slot per distinct coefficient text (IBP systems repeat d - 4,
      // s, 1, ... thousands of times): each evaluated once a point.
      std::uint32_t& slot = slot_of[terms[k].coefficient];
      if (slot == UINT32_MAX) {
        slot = static_cast<std::uint32_t>(expressions.size());
        expressions.push_back(s.coefficients[terms[k].coefficient].expression);
      }
      eq.slots.push_back(slot);
    }
    n.equations.push_back(std::move(eq));
  }
  n.coefficients = reconstruct::host_expression_black_box(expressions, s.parameters.size());
  n.expressions = std::move(expressions);
  return n;
}

// Coefficient values at one random point mod f where all are defined
// (a few tries), else nullopt.
std::optional<std::vector<std::uint64_t>> values_at(const reconstruct::BlackBox& box,
                                                    const field::Zp64& f, std::uint64_t seed,
                                                    std::uint64_t& counter) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    std::vector<std::uint64_t> x(box.variables()), values;
    for (auto& v : x) v = f.from_uint(random::counter_u64(seed, counter++));
    std::vector<std::uint8_t> ok;
    box.evaluate(f, 1, x, values, ok);
    if (ok.at(0) != 0) return values;
  }
  return std::nullopt;
}

// The replay as a black box: parameters -> the table's T x M coefficients,
// the needed equations' coefficients (the compiled expression black box)
// then the traced elimination (replay_program.hpp) for the whole batch in
// one kernel. With a GPU, batches of device_min_points or more run there;
// smaller ones on the host (a GPU thread runs the whole program for one
// point: a batch of a few points waits the program's length in memory
// latencies, while the host's lanes share each pivot's inversion).
class ReductionBox : public reconstruct::BlackBox {
 public:
  // threads (may be null): the host replay's lane groups where the host
  // space is Serial.
  ReductionBox(Numeric needed, const detail::ReplayProgram& program, std::size_t parameters,
               std::size_t device_min_points, HostThreads* threads = nullptr)
      : needed_(std::move(needed)),
        host_(program),
        threads_(threads),
        parameters_(parameters),
        device_min_points_(device_min_points) {
    if constexpr (has_accelerator) {
      device_coefficients_ = reconstruct::expression_black_box(needed_.expressions, parameters);
      device_.emplace(program);
    }
  }
  std::size_t variables() const override { return parameters_; }
  std::size_t functions() const override { return host_.outputs(); }
  void evaluate(const field::Zp64& f, std::size_t count, const std::vector<std::uint64_t>& points,
                std::vector<std::uint64_t>& values, std::vector<std::uint8_t>& ok) const override {
    const bool on_device = device_.has_value() && count >= device_min_points_;
    std::vector<std::uint64_t> c;
    (on_device ? *device_coefficients_ : *needed_.coefficients).evaluate(f, count, points, c, ok);
    values.assign(count * functions(), 0);
    std::vector<std::uint8_t> replayed(count);
    if (on_device)
      device_->run(f, count, c.data(), values.data(), replayed.data());
    else
      host_.run(f, count, c.data(), values.data(), replayed.data(), threads_);
    for (std::size_t i = 0; i < count; ++i) ok[i] = ok[i] != 0 && replayed[i] != 0 ? 1 : 0;
  }

 private:
  Numeric needed_;
  detail::ReplayKernel<HostSpace> host_;
  HostThreads* threads_;
  std::unique_ptr<reconstruct::BlackBox> device_coefficients_;
  std::optional<detail::ReplayKernel<DeviceSpace>> device_;
  std::size_t parameters_, device_min_points_;
};

// The replay program traced at a random point where every learned pivot is
// nonzero, and checked against replay() at another point.
detail::ReplayProgram traced_program(const Numeric& needed, const detail::Plan& plan,
                                     const field::Zp64& f, std::uint64_t seed,
                                     std::uint64_t& counter) {
  detail::Plan local = plan;
  std::iota(local.needed.begin(), local.needed.end(),
            std::size_t{0});  // indices into needed.equations
  std::optional<detail::ReplayProgram> program;
  for (int attempt = 0; attempt < 8 && !program; ++attempt) {
    const auto values = values_at(*needed.coefficients, f, seed, counter);
    if (!values) break;
    try {
      program = detail::trace(f, needed.equations, local, values->data());
    } catch (const Error&) {
      // a learned pivot vanishes at this point: another one
    }
  }
  if (!program) throw Error("reduce: no point to trace the elimination at", ErrorKind::runtime);
  // The kernel reads a point's inputs as its coefficient values' row.
  if (program->inputs != needed.coefficients->functions())
    throw Error("reduce: the replay program's inputs are not the needed coefficients",
                ErrorKind::runtime);
  for (int attempt = 0; attempt < 8; ++attempt) {
    const auto values = values_at(*needed.coefficients, f, seed, counter);
    if (!values) break;
    const std::size_t F = local.targets.size() * local.masters.size();
    std::vector<std::uint64_t> expected(F), got(F), registers(program->registers);
    if (!detail::replay(f, needed.equations, local, values->data(), expected.data())) continue;
    std::copy(values->begin(), values->end(), registers.begin());
    if (!detail::run(f, *program, registers.data(), got.data()) || got != expected)
      throw Error(
          "reduce: the traced elimination disagrees with the elimination at a random point "
          "(run again with another --seed)",
          ErrorKind::runtime);
    return *program;
  }
  throw Error("reduce: no point to check the traced elimination at", ErrorKind::runtime);
}

std::uint64_t mod(const mpq_class& q, const field::Zp64& f, bool& defined) {
  const mpz_class p(std::to_string(f.modulus()));
  mpz_class n = q.get_num() % p, d = q.get_den() % p;
  if (n < 0) n += p;
  if (d == 0) {
    defined = false;
    return 0;
  }
  return f.mul(std::stoull(n.get_str()), f.inv(std::stoull(d.get_str())));
}

std::uint64_t value(const reconstruct::PolynomialQ& p, const field::Zp64& f,
                    const std::vector<std::uint64_t>& x, bool& defined) {
  std::uint64_t sum = 0;
  for (std::size_t t = 0; t < p.terms(); ++t) {
    std::uint64_t term = mod(p.coefficients[t], f, defined);
    for (std::size_t v = 0; v < p.variables; ++v) term = f.mul(term, f.pow(x[v], p.exponent(t)[v]));
    sum = f.add(sum, term);
  }
  return sum;
}

// What a probe log's values depend on: the parameters, the equations, the
// column order (order and preferred masters) and the targets.
std::string identity(const System& s, const ReduceOptions& o,
                     const std::vector<std::size_t>& by_order) {
  std::string text = "hepex reduce\n";
  for (const auto& p : s.parameters) text += p + ',';
  for (const auto& e : s.equations) {
    text += '\n';
    for (const auto& t : e.terms)
      text += s.integrals[t.integral].text() + '*' + s.coefficients[t.coefficient].text + ';';
  }
  text += "\norder";
  for (const std::size_t k : by_order) text += ' ' + s.integrals[k].text();
  text += "\ntargets";
  for (const auto& t : o.targets) text += ' ' + t.text();
  return text;
}

}  // namespace

// The check's first point (step 4): a fresh elimination of the whole system
// mod the check's prime, independent of learning and of the reconstruction:
// with more than one host thread it runs beside them from the start.
struct FirstCheck {
  std::vector<std::uint64_t> x;     // the parameters
  std::uint64_t counter = 0;        // the check's random counter after it
  std::future<detail::Plan> fresh;  // invalid: no point was found
};

// What learning gives reduce() and learn_reduction().
struct Learned {
  std::vector<std::size_t> by_order;     // column -> integral
  std::vector<std::uint32_t> targets;    // columns
  std::shared_ptr<const Numeric> whole;  // every equation (the check; shared with its thread)
  FirstCheck first_check;
  detail::Plan plan;
  Numeric needed;  // the equations the targets need
  detail::ReplayProgram program;
  reconstruct::ReconstructOptions reconstruction;  // the seed the run uses
  std::uint64_t seed = 0;                          // learning's and the check's
  std::vector<std::uint64_t> primes;               // learning's prime, the check's
};

// Steps 1 and the trace: the order's columns, the plan learned at random
// points, the needed equations' coefficients and the traced program; `out`
// gets the masters, counts and seed.
Learned learn_all(const System& system, const ReduceOptions& options, Reduction& out,
                  bool with_check) {
  const std::size_t N = system.integrals.size();
  // Columns: the integrals in the order, most complex first.
  std::vector<std::size_t> by_order(N);
  std::iota(by_order.begin(), by_order.end(), std::size_t{0});
  if (options.order.empty()) {
    std::stable_sort(by_order.begin(), by_order.end(), [&](std::size_t a, std::size_t b) {
      return more_complex(system.integrals[a], system.integrals[b]);
    });
  } else {
    std::unordered_map<std::string, std::size_t> position;
    for (std::size_t k = 0; k < options.order.size(); ++k)
      position.emplace(options.order[k].text(), k);
    std::vector<std::size_t> rank(N);
    for (std::size_t k = 0; k < N; ++k) {
      const auto it = position.find(system.integrals[k].text());
      if (it == position.end()) {
        const Place& p = system.first_seen[k];
        throw Error(system.file + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) +
                    ": " + system.integrals[k].text() + " is not in the integral order");
      }
      rank[k] = it->second;
    }
    std::sort(by_order.begin(), by_order.end(),
              [&](std::size_t a, std::size_t b) { return rank[a] < rank[b]; });
  }
  if (!options.preferred_masters.empty()) {
    // The preferred masters last (simplest), in the order given.
    std::vector<std::size_t> preferred;
    std::vector<std::uint8_t> is_preferred(N, 0);
    for (const Integral& m : options.preferred_masters) {
      const auto it = system.index.find(m.text());
      if (it == system.index.end())
        throw Error("preferred master " + m.text() + " is not in the system " + system.file);
      if (!is_preferred[it->second]) preferred.push_back(it->second);
      is_preferred[it->second] = 1;
    }
    std::vector<std::size_t> rest;
    for (const std::size_t k : by_order)
      if (!is_preferred[k]) rest.push_back(k);
    rest.insert(rest.end(), preferred.begin(), preferred.end());
    by_order = std::move(rest);
  }
  std::vector<std::uint32_t> column_of(N);
  for (std::size_t c = 0; c < N; ++c) column_of[by_order[c]] = static_cast<std::uint32_t>(c);
  std::vector<std::uint32_t> targets;
  for (const Integral& t : options.targets) {
    const auto it = system.index.find(t.text());
    if (it == system.index.end())
      throw Error("target " + t.text() + " is not in the system " + system.file);
    targets.push_back(column_of[it->second]);
  }
  if (targets.empty()) throw Error("no targets");
  out.targets = options.targets;
  out.equations = system.equations.size();
  out.integrals = N;

  // 1. Learn at random points until two agree (an unlucky point, where a
  // pivot vanishes, gives another structure).
  std::vector<std::size_t> all(system.equations.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  const auto whole = std::make_shared<const Numeric>(numeric(system, column_of, all));
  reconstruct::ReconstructOptions reconstruction = options.reconstruction;
  // The factor scan in every variable (not only those whose hyperplane x = 0
  // is a pole): IBP coefficients carry d - 4, 2 d - 7 ... as much as s, t;
  // dividing them out lowers the degrees along the reconstruction's lines
  // (the 20,130-equation pentagon: 6175 -> 8175 factors, 13,751 -> 11,106
  // probes).
  using FactorScan = reconstruct::ReconstructOptions::FactorScan;
  if (reconstruction.factor_scan == FactorScan::automatic)
    reconstruction.factor_scan = FactorScan::on;
  if (!options.checkpoint.empty() && !options.seed_given) {
    // A killed run's log: its seed, so that learning and probes are the same.
    if (const auto stored = reconstruct::ProbeLog::stored_seed(options.checkpoint))
      reconstruction.seed = *stored;
  }
  const distributed::Communicator* comm = options.communicator;
  if (comm != nullptr && comm->size() > 1) {
    // Every rank learns with rank 0's seed (its own, or its checkpoint's).
    std::string bytes(reinterpret_cast<const char*>(&reconstruction.seed),
                      sizeof reconstruction.seed);
    comm->broadcast(bytes);
    std::memcpy(&reconstruction.seed, bytes.data(), sizeof reconstruction.seed);
  }
  out.seed = reconstruction.seed;
  const std::uint64_t seed = random::splitmix64(reconstruction.seed ^ 0x6c6561726eull);
  const auto primes = field::random_large_primes(2, seed);
  const field::Zp64 learn_field(primes[0]);
  FirstCheck first_check;
  if (with_check && options.check_points > 0) {
    // The check's first point (its coefficients here: Kokkos stays on this
    // thread), and its fresh elimination started now.
    const field::Zp64 check_field(primes[1]);
    first_check.counter = 1u << 20;
    for (int attempt = 0; attempt < 16; ++attempt) {
      std::vector<std::uint64_t> x(system.parameters.size()), c;
      for (auto& v : x) v = check_field.from_uint(random::counter_u64(seed, first_check.counter++));
      std::vector<std::uint8_t> ok;
      whole->coefficients->evaluate(check_field, 1, x, c, ok);
      if (ok[0] == 0) continue;
      const bool beside = resolve_host_threads(options.reconstruction.threads) > 1 &&
                          (comm == nullptr || comm->rank() == 0);
      first_check.x = std::move(x);
      first_check.fresh = std::async(beside ? std::launch::async : std::launch::deferred,
                                     [whole, check_field, N, targets, values = std::move(c)] {
                                       return detail::learn(check_field, whole->equations, N,
                                                            targets, values.data());
                                     });
      break;
    }
  }
  std::uint64_t counter = 0;
  // An unlucky point (a pivot that vanishes there but not in general)
  // gives a structure that other points do not follow: tracing or the
  // check of the trace against replay() at other points fails, and the
  // structure is learned again at another point.
  std::optional<detail::Plan> plan;
  std::optional<Numeric> needed;
  std::optional<detail::ReplayProgram> program;
  for (int round = 0; round < 8 && !program; ++round) {
    const auto values = values_at(*whole->coefficients, learn_field, seed, counter);
    if (!values)
      throw Error(
          "the coefficients are undefined at every random point tried (a division by zero "
          "everywhere?)");
    detail::Plan p = detail::learn(learn_field, whole->equations, N, targets, values->data());
    Numeric n = numeric(system, column_of, p.needed);
    try {
      program = traced_program(n, p, learn_field, seed, counter);
    } catch (const Error&) {
      continue;
    }
    plan = std::move(p);
    needed = std::move(n);
  }
  if (!program)
    throw Error("reduce: the elimination's structure differs at every random point tried",
                ErrorKind::runtime);
  out.equations_needed = plan->needed.size();
  for (const std::uint32_t m : plan->masters) out.masters.push_back(system.integrals[by_order[m]]);
  for (std::size_t t = 0; t < targets.size(); ++t) {
    if (std::binary_search(plan->masters.begin(), plan->masters.end(), targets[t])) {
      // A pivot-free target is a master; a target reduced to itself is not.
      bool pivot = false;
      for (const std::uint32_t c : plan->pivot) pivot = pivot || c == targets[t];
      if (!pivot) out.master_targets.push_back(t);
    }
  }

  out.instructions = program->instructions.size();
  out.registers = program->registers;
  return Learned{std::move(by_order),
                 std::move(targets),
                 whole,
                 std::move(first_check),
                 std::move(*plan),
                 std::move(*needed),
                 std::move(*program),
                 reconstruction,
                 seed,
                 primes};
}

namespace {

// Every rank must hold the same traced elimination (the same seed gives
// it; a rank that learned another would answer other functions): the
// masters and the program's shape compared on rank 0, the verdict on all.
void same_structure_on_every_rank(const distributed::Communicator& comm, const Learned& l) {
  std::string fingerprint = std::to_string(l.program.instructions.size()) + ' ' +
                            std::to_string(l.program.registers) + ' ' + std::to_string(l.seed);
  for (const std::uint32_t m : l.plan.masters) fingerprint += ' ' + std::to_string(m);
  const std::vector<std::string> all = comm.gather(fingerprint);
  std::string verdict;
  for (std::size_t r = 1; r < all.size(); ++r)
    if (all[r] != all[0] && verdict.empty())
      verdict = "reduce: rank " + std::to_string(r) + " learned another elimination than rank 0";
  comm.broadcast(verdict);
  if (!verdict.empty()) throw Error(verdict, ErrorKind::runtime);
}

}  // namespace

Reduction reduce(const System& system, const ReduceOptions& options) {
  const auto start = Clock::now();
  Reduction out;
  Learned l = learn_all(system, options, out, true);
  const auto& by_order = l.by_order;
  const auto& targets = l.targets;
  const Numeric& whole = *l.whole;
  const detail::Plan* plan = &l.plan;
  const auto& primes = l.primes;
  const std::uint64_t seed = l.seed;
  const reconstruct::ReconstructOptions& reconstruction = l.reconstruction;
  out.learn_seconds = since(start);

  // 2.-3. The table from the replay box.
  const auto probe_start = Clock::now();
  // One pool of host threads for the replay and the reconstruction's algebra
  // (they take turns: the black box is called between the algebra's steps).
  // (The caller's, options.reconstruction.pool, where given.)
  std::unique_ptr<HostThreads> own_pool;
  HostThreads* pool = options.reconstruction.pool;
  if (pool == nullptr && resolve_host_threads(options.reconstruction.threads) > 1) {
    own_pool = std::make_unique<HostThreads>(options.reconstruction.threads);
    pool = own_pool.get();
  }
  ReductionBox box(std::move(l.needed), l.program, system.parameters.size(),
                   options.device_min_points, pool);
  const distributed::Communicator* comm = options.communicator;
  std::optional<detail::RankSharedBox> shared;
  if (comm != nullptr && comm->size() > 1) {
    same_structure_on_every_rank(*comm, l);
    if (comm->rank() != 0) {
      detail::serve_probes(box, *comm);
      out.served = true;
      return out;
    }
    shared.emplace(box, *comm);
  }
  const reconstruct::BlackBox& probes =
      shared ? static_cast<const reconstruct::BlackBox&>(*shared) : box;
  std::optional<reconstruct::ProbeLog> log;
  if (!options.checkpoint.empty()) {
    log.emplace(probes, options.checkpoint, identity(system, options, by_order),
                reconstruction.seed);
    if (reconstruction.progress != nullptr && log->loaded() > 0)
      *reconstruction.progress << "reduce: " << log->path() << ": " << log->loaded()
                               << " probes of an earlier run\n";
  }
  reconstruct::ReconstructOptions with_pool = reconstruction;
  with_pool.pool = pool;
  const auto r = reconstruct::reconstruct(
      log ? static_cast<const reconstruct::BlackBox&>(*log) : probes, with_pool);
  shared.reset();  // the other ranks are done
  if (log) out.replayed = log->replayed();
  out.probes = r.probes;
  out.primes = r.primes;
  out.seed = r.seed;
  out.probe_seconds = r.black_box_seconds;
  out.algebra_seconds = std::max(0.0, since(probe_start) - r.black_box_seconds);
  const std::size_t M = plan->masters.size();
  out.table.assign(targets.size(), std::vector<reconstruct::RationalFunction>(M));
  for (std::size_t t = 0; t < targets.size(); ++t)
    for (std::size_t m = 0; m < M; ++m) out.table[t][m] = r.functions.at(t * M + m);

  // 4. Checked modulo another prime: against a fresh elimination of the
  // whole system at the first point (the masters, the structure and the
  // table), then against the learned elimination's replay at the others (the
  // table; a fresh elimination of 40,000 equations costs what learning does).
  const auto check_start = Clock::now();
  const field::Zp64 check_field(primes[1]);
  std::uint64_t check_counter = l.first_check.counter;
  for (std::size_t k = 0; k < options.check_points; ++k) {
    std::vector<std::uint64_t> x(system.parameters.size()), table(targets.size() * M);
    if (k == 0) {
      // The fresh elimination started with learning (learn_all).
      if (!l.first_check.fresh.valid())
        throw Error("reduce: no point to check the table at", ErrorKind::runtime);
      x = l.first_check.x;
      detail::Plan fresh = l.first_check.fresh.get();
      if (fresh.masters != plan->masters) {
        throw Error(
            "reduce: a fresh elimination at a check point finds other masters; the table is "
            "not returned (an unlucky learning point: run again with another --seed)",
            ErrorKind::runtime);
      }
      table = std::move(fresh.table);
    } else {
      bool found = false;
      for (int attempt = 0; attempt < 16 && !found; ++attempt) {
        for (auto& v : x) v = check_field.from_uint(random::counter_u64(seed, check_counter++));
        std::vector<std::uint64_t> c;
        std::vector<std::uint8_t> ok;
        whole.coefficients->evaluate(check_field, 1, x, c, ok);
        found = ok[0] != 0 &&
                detail::replay(check_field, whole.equations, *plan, c.data(), table.data());
      }
      if (!found) throw Error("reduce: no point to check the table at", ErrorKind::runtime);
    }
    for (std::size_t t = 0; t < targets.size(); ++t) {
      for (std::size_t m = 0; m < M; ++m) {
        bool defined = true;
        const auto& q = out.table[t][m];
        const std::uint64_t d = value(q.den, check_field, x, defined);
        const std::uint64_t n = value(q.num, check_field, x, defined);
        if (!defined || d == 0) continue;  // a pole of the coefficient: no comparison here
        if (check_field.mul(n, check_field.inv(d)) != table[t * M + m]) {
          throw Error(
              "reduce: the reconstructed table disagrees with a fresh elimination of the "
              "system at a check point (" +
                  out.targets[t].text() + ", " + out.masters[m].text() +
                  "); the table is not returned",
              ErrorKind::runtime);
        }
      }
    }
  }
  out.check_seconds = since(check_start);
  for (const Integral& m : options.preferred_masters) {
    bool found = false;
    for (const Integral& master : out.masters) found = found || master.text() == m.text();
    if (!found) out.unmet_preferred.push_back(m);
  }
  if (log && options.remove_checkpoint) log->remove();
  return out;
}

LearnedReduction learn_reduction(const System& system, const ReduceOptions& options) {
  Reduction out;
  Learned l = learn_all(system, options, out, false);
  LearnedReduction r;
  r.box = std::make_unique<ReductionBox>(std::move(l.needed), l.program, system.parameters.size(),
                                         options.device_min_points);
  r.masters = out.masters;
  r.instructions = out.instructions;
  r.registers = out.registers;
  return r;
}

void write_table(std::ostream& out, const Reduction& r, const std::vector<std::string>& parameters,
                 bool factored) {
  for (std::size_t t = 0; t < r.targets.size(); ++t) {
    out << r.targets[t].text() << " ->";
    bool any = false;
    for (std::size_t m = 0; m < r.masters.size(); ++m) {
      const auto& q = r.table[t][m];
      if (q.num.terms() == 0) continue;
      const std::string c = factored ? reconstruct::to_shorter_string(q, parameters)
                                     : reconstruct::to_string(q, parameters);
      out << (any ? " + " : " ") << "(" << c << ")*" << r.masters[m].text();
      any = true;
    }
    if (!any) out << " 0";
    out << '\n';
  }
}

}  // namespace hepex::reduce
