#include "hepex/reconstruct/zippel.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>

#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/progress.hpp"
#include "hepex/core/random.hpp"
#include "hepex/core/spaces.hpp"
#include "hepex/reconstruct/detail/sparse_interpolation.hpp"
#include "hepex/reconstruct/detail/term_interpolation.hpp"
#include "hepex/reconstruct/detail/vandermonde.hpp"

namespace hepex::reconstruct {

std::string degree_limit_message(const std::string& what, std::size_t limit,
                                 const std::string& option) {
  return "reconstruction: " + what + " exceeds the limit " + std::to_string(limit) + " (raise " +
         option +
         "), or the black box's values are not those of one rational function (values "
         "that change from call to call, or random ones)";
}

std::uint64_t RandomElements::next(const field::Zp64& f) {
  while (true) {
    const std::uint64_t x = f.from_uint(random::counter_u64(seed_, counter_++));
    if (x != 0) return x;
  }
}

namespace detail {

namespace {

// Window moves per value of a variable before the choices are declared unlucky.
constexpr std::size_t max_window_moves = 16;

// A probe point: stage k (the variable being added), value index i of x_k,
// power j of the generators in x_0..x_{k-1}.
struct Key {
  std::size_t k, i, j;
  bool operator<(const Key& o) const { return std::tie(k, i, j) < std::tie(o.k, o.i, o.j); }
};

struct Probe {
  bool ok;
  std::vector<std::uint64_t> raw;  // per function
};

struct FunctionState {
  std::size_t stage = 0, value = 0, window = 0, moves = 0;
  bool started = false, done = false;
  bool announced = false;            // target.finished() called (the engine's thread)
  PolynomialModP skeleton;           // monomials in x_0..x_{k-1}, values at x_k = anchor
  std::vector<std::uint64_t> nodes;  // m_t = prod_l y_l^{e_tl}
  std::vector<TermInterpolation> terms;
  std::vector<std::size_t> active;  // unfinished terms
  // Per solved value i of this stage: every term's coefficient at
  // x_k = sigma_k g_k^i (kept only when the target uses known values).
  std::map<std::size_t, std::vector<std::uint64_t>> solved;
};

// A function's value at the probes (k, i, j) of one (k, i) is
// sum_t weights_t nodes_t^j.
struct Passed {
  std::vector<std::uint64_t> nodes, weights;
};

// What passed() needs of a function whose skeleton covers x_k (it changes
// only when the function moves to its next stage): per term its node (the
// monomial of the generators in x_0..x_{k-1}) with Shoup's quotient, its
// coefficient times the anchors' powers beyond x_k, and its power of x_k.
// known() asks for the same (function, k) at every probe batch: made once.
struct PassedCache {
  std::size_t k = SIZE_MAX, stage = SIZE_MAX;
  bool done = false;
  std::vector<std::uint64_t> nodes, shoup, base;
  std::vector<std::uint32_t> power;  // the exponent of x_k
  std::uint32_t top = 0;             // the largest of them
  // The weights at probes (k, i, j) where known() left them: a later batch
  // asks the same value i at larger j (a multiplication per term and step
  // instead of a power per term). Functions at several values of one stage
  // interleave their batches: a few cursors, the least recently used reused.
  struct Cursor {
    std::size_t i = SIZE_MAX, j = 0, used = 0;
    std::vector<std::uint64_t> weights;
  };
  std::array<Cursor, 4> cursors;
  std::size_t clock = 0;  // Cursor::used
};

class Engine {
 public:
  Engine(ProbeTarget& target, const field::Zp64& f, std::uint64_t seed,
         const ZippelOptions& options, const std::vector<std::size_t>& bounds)
      : target_(target),
        f_(f),
        options_(options),
        bounds_(bounds),
        m_(target.variables()),
        F_(target.functions()),
        states_(F_) {
    RandomElements random(seed);
    std::size_t top = options.max_degree;
    if (!bounds.empty()) top = *std::max_element(bounds.begin(), bounds.end());
    for (std::size_t k = 0; k < m_; ++k) {
      anchors_.push_back(random.next(f));
      generators_.push_back(random.next(f));
      points_.emplace_back(f, anchors_.back(), random.next(f), top);
    }
    const std::vector<std::uint32_t> zero(m_, 0);
    for (auto& s : states_) {
      s.skeleton = PolynomialModP{m_, {}, {}};
      s.skeleton.add_term(zero.data(), 0);
    }
    passed_cache_.resize(F_);  // before known()'s threads index it
  }

  std::vector<PolynomialModP> run() {
    if (m_ == 0) return constants();
    while (true) {
      std::vector<std::size_t> active;
      bool progressed = false;
      for (std::size_t g = 0; g < F_; ++g) {
        if (states_[g].done || !target_.ready(g)) continue;
        prepare(g);
        progressed = true;
        if (!states_[g].done) active.push_back(g);
      }
      if (active.empty()) {
        if (std::all_of(states_.begin(), states_.end(), [](const auto& s) { return s.done; }))
          break;
        // Functions finished in prepare() may have made others ready.
        if (!progressed) throw Error("zippel: no function can proceed", ErrorKind::runtime);
        continue;
      }
      interruption_point();
      const auto ripe = fewest_probes_first(active);
      probe(ripe);
      solve(ripe);
      for (const std::size_t g : ripe) announce(g);
      if (options_.progress != nullptr) report();
      evict();
    }
    std::vector<PolynomialModP> out;
    for (auto& s : states_) out.push_back(std::move(s.skeleton));
    return out;
  }

 private:
  std::vector<PolynomialModP> constants() {
    std::vector<std::uint64_t> values;
    std::vector<std::uint8_t> ok;
    target_.evaluate(
        f_, 1, {}, KnownValues{std::vector<std::uint8_t>(F_, 0), std::vector<std::uint64_t>(F_, 0)},
        values, ok);
    if (ok.at(0) == 0) throw UnluckyChoice("zippel: the black box fails without variables");
    std::vector<PolynomialModP> out(F_, PolynomialModP{0, {}, {}});
    // In the order the target allows (adjust() may need finished functions).
    std::vector<std::uint8_t> done(F_, 0);
    for (std::size_t left = F_; left > 0;) {
      const std::size_t before = left;
      for (std::size_t g = 0; g < F_; ++g) {
        if (done[g] || !target_.ready(g)) continue;
        const std::uint64_t v = target_.adjust(g, nullptr, values[g]);
        if (v != 0) out[g].add_term(nullptr, v);
        target_.finished(g, out[g]);
        done[g] = 1;
        --left;
      }
      if (left == before) throw Error("zippel: no function can proceed", ErrorKind::runtime);
    }
    return out;
  }

  std::size_t budget(std::size_t g, const std::uint32_t* e, std::size_t k) const {
    if (bounds_.empty()) return options_.max_degree;
    const std::size_t used = std::accumulate(e, e + k, std::size_t{0});
    if (used > bounds_[g]) throw UnluckyChoice("zippel: a monomial exceeds the degree bound");
    return bounds_[g] - used;
  }

  // Sets up the current stage of function g; finishes stages (and the
  // function) whose terms are all known already.
  void prepare(std::size_t g) {
    FunctionState& s = states_[g];
    while (!s.done && !s.started) {
      const std::size_t k = s.stage;
      s.terms.clear();
      s.nodes.clear();
      s.active.clear();
      s.solved.clear();
      for (std::size_t t = 0; t < s.skeleton.terms(); ++t) {
        const std::uint32_t* e = s.skeleton.exponent(t);
        s.nodes.push_back(monomial(f_, e, generators_.data(), k));
        s.terms.emplace_back(budget(g, e, k), !bounds_.empty());
        // Stage k >= 1: the coefficient so far is the value at x_k = anchor.
        if (k == 0 || !s.terms.back().add(points_[k], 0, s.skeleton.coefficients[t]))
          s.active.push_back(t);
      }
      std::vector<std::uint64_t> sorted = s.nodes;
      std::sort(sorted.begin(), sorted.end());
      if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
        throw UnluckyChoice("zippel: two skeleton monomials take the same value");
      s.value = k == 0 ? 0 : 1;
      s.window = s.moves = 0;
      s.started = true;
      if (s.active.empty()) next_stage(g);
    }
    announce(g);
  }

  // Tells the target of g's completion, once, from the engine's thread
  // (next_stage() may run on a host thread).
  void announce(std::size_t g) {
    FunctionState& s = states_[g];
    if (!s.done || s.announced) return;
    s.announced = true;
    target_.finished(g, s.skeleton);
  }

  // The terms of stage k are known: the skeleton in x_0..x_k.
  void next_stage(std::size_t g) {
    FunctionState& s = states_[g];
    const std::size_t k = s.stage;
    PolynomialModP next{m_, {}, {}};
    std::size_t terms = 0;
    for (const auto& term : s.terms)
      for (const std::uint64_t c : term.coefficients()) terms += c != 0 ? 1 : 0;
    next.exponents.reserve(terms * m_);
    next.coefficients.reserve(terms);
    std::vector<std::uint32_t> e(m_);
    for (std::size_t t = 0; t < s.skeleton.terms(); ++t) {
      std::copy(s.skeleton.exponent(t), s.skeleton.exponent(t) + m_, e.begin());
      const auto& c = s.terms[t].coefficients();
      for (std::size_t d = 0; d < c.size(); ++d) {
        if (c[d] == 0) continue;
        e[k] = static_cast<std::uint32_t>(d);
        next.add_term(e.data(), c[d]);
      }
    }
    s.skeleton = std::move(next);
    s.terms.clear();
    s.solved.clear();
    s.started = false;
    if (++s.stage == m_) s.done = true;  // announce() tells the target
  }

  void report() {
    std::size_t slowest = m_, done = 0, terms = 0;
    for (const auto& s : states_) {
      done += s.done ? 1 : 0;
      terms += s.skeleton.terms();
      if (!s.done) slowest = std::min(slowest, s.stage);
    }
    if (slowest == reported_stage_ && done != F_) return;
    reported_stage_ = slowest;
    *options_.progress << "zippel: prime " << f_.modulus() << ": every function past variable "
                       << slowest << "/" << m_ << ", " << done << "/" << F_ << " functions done, "
                       << terms << " terms so far\n";
  }

  // Of the functions at one stage and value, those wanting the fewest probes
  // go first; the others find them known at their remaining probes.
  std::vector<std::size_t> fewest_probes_first(const std::vector<std::size_t>& active) const {
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> last;  // (stage, value) -> j
    for (const std::size_t g : active) {
      const auto key = std::make_pair(states_[g].stage, states_[g].value);
      const std::size_t j = last_wanted(g);
      const auto at = last.find(key);
      if (at == last.end() || j < at->second) last[key] = j;
    }
    std::vector<std::size_t> ripe;
    for (const std::size_t g : active)
      if (last_wanted(g) == last.at({states_[g].stage, states_[g].value})) ripe.push_back(g);
    return ripe;
  }

  // wanted(g).back().j without making the keys.
  std::size_t last_wanted(std::size_t g) const {
    const FunctionState& s = states_[g];
    return s.stage == 0 ? 0 : s.window + s.active.size();
  }

  // The probes of function g's current value.
  std::vector<Key> wanted(std::size_t g) const {
    const FunctionState& s = states_[g];
    if (s.stage == 0) return {Key{0, s.value, 0}};
    std::vector<Key> keys;
    for (std::size_t j = 1; j <= s.active.size(); ++j)
      keys.push_back(Key{s.stage, s.value, s.window + j});
    return keys;
  }

  void point(const Key& key, std::uint64_t* x) const {
    for (std::size_t l = 0; l < key.k; ++l) x[l] = f_.pow(generators_[l], key.j);
    x[key.k] = points_[key.k].point(key.i);
    for (std::size_t l = key.k + 1; l < m_; ++l) x[l] = anchors_[l];
  }

  // Evaluates the probes the active functions want and the cache lacks.
  void probe(const std::vector<std::size_t>& active) {
    std::vector<Key> fresh;
    for (const std::size_t g : active)
      for (const Key& key : wanted(g))
        if (cache_.count(key) == 0) fresh.push_back(key);
    std::sort(fresh.begin(), fresh.end());
    fresh.erase(std::unique(fresh.begin(), fresh.end(),
                            [](const Key& a, const Key& b) { return !(a < b) && !(b < a); }),
                fresh.end());
    if (fresh.empty()) return;
    std::vector<std::uint64_t> x(fresh.size() * m_), values;
    std::vector<std::uint8_t> ok;
    for (std::size_t q = 0; q < fresh.size(); ++q) point(fresh[q], x.data() + q * m_);
    target_.evaluate(f_, fresh.size(), x, known(fresh), values, ok);
    for (std::size_t q = 0; q < fresh.size(); ++q) {
      cache_[fresh[q]] =
          Probe{ok[q] != 0,
                std::vector<std::uint64_t>(values.begin() + q * F_, values.begin() + (q + 1) * F_)};
    }
  }

  // The values of the functions that have passed the probes `keys` (sorted).
  KnownValues known(const std::vector<Key>& keys) const {
    KnownValues out{std::vector<std::uint8_t>(keys.size() * F_, 0),
                    std::vector<std::uint64_t>(keys.size() * F_, 0)};
    if (!target_.uses_known_values()) return out;
    for (std::size_t begin = 0, end = 0; begin < keys.size(); begin = end) {
      const Key& first = keys[begin];
      while (end < keys.size() && keys[end].k == first.k && keys[end].i == first.i) ++end;
      // Which functions have passed (k, i), and of those whose values the
      // target uses: the others are marked known with no value computed
      // (evaluating every finished function at every probe costs its terms
      // each time: most of the algebra of a table with many finished entries).
      std::vector<std::uint8_t> has_passed(F_, 0);
      for (std::size_t g = 0; g < F_; ++g) {
        const FunctionState& s = states_[g];
        has_passed[g] = s.done || s.stage > first.k ||
                        (s.stage == first.k && s.started && s.solved.count(first.i) != 0);
      }
      std::vector<std::size_t> terms(F_, 0);
      for (std::size_t g = 0; g < F_; ++g)
        if (has_passed[g] != 0) terms[g] = states_[g].skeleton.terms();
      const std::vector<std::uint8_t> need = target_.known_needed(has_passed, terms);
      // Each function's values are its own entries of `out` and its own
      // cache: the functions spread over the host threads.
      for_each_on(
          options_.threads, F_,
          [&](std::size_t g_begin, std::size_t g_end) {
            std::vector<std::uint64_t> at_nodes;  // passed()'s nodes
            for (std::size_t g = g_begin; g < g_end; ++g) {
              if (has_passed[g] != 0 && need[g] == ProbeTarget::known_unknown) continue;
              if (has_passed[g] != 0 && need[g] == ProbeTarget::known_unused) {
                for (std::size_t q = begin; q < end; ++q) out.mask[q * F_ + g] = 1;
                continue;
              }
              // weights_t nodes_t^j for consecutive j of the group.
              std::vector<std::uint64_t> local, shoup_here;
              std::vector<std::uint64_t>* weights = &local;
              const std::vector<std::uint64_t>* nodes = nullptr;
              const std::vector<std::uint64_t>* shoup = nullptr;
              std::size_t j = first.j;
              if (PassedCache* c = passed_skeleton(g, first.k)) {
                PassedCache::Cursor* cursor = nullptr;
                for (auto& candidate : c->cursors)
                  if (candidate.i == first.i && candidate.j <= first.j &&
                      first.j - candidate.j <= 64)
                    cursor = &candidate;
                std::vector<std::uint64_t>* reuse = nullptr;
                if (cursor != nullptr) {
                  j = cursor->j;
                } else {
                  cursor = &*std::min_element(
                      c->cursors.begin(), c->cursors.end(),
                      [](const auto& a, const auto& b) { return a.used < b.used; });
                  reuse = &cursor->weights;
                }
                std::vector<std::uint64_t>& w = cursor->weights;
                if (reuse != nullptr) {
                  // x_k = sigma_k g_k^i: its powers once for all terms.
                  std::vector<std::uint64_t> x_power(c->top + 1, 1);
                  const std::uint64_t x = points_[first.k].point(first.i);
                  for (std::uint32_t e = 1; e <= c->top; ++e)
                    x_power[e] = f_.mul(x_power[e - 1], x);
                  w.resize(c->nodes.size());
                  for (std::size_t t = 0; t < w.size(); ++t)
                    w[t] = f_.mul(f_.mul(c->base[t], x_power[c->power[t]]),
                                  f_.pow(c->nodes[t], first.j));
                }
                cursor->i = first.i;
                cursor->j = keys[end - 1].j;
                cursor->used = ++c->clock;
                weights = &w;
                nodes = &c->nodes;
                shoup = &c->shoup;
              } else {
                auto at = passed(g, first.k, first.i);
                if (!at) continue;
                local = at->weights;
                shoup_here.resize(local.size());
                for (std::size_t t = 0; t < local.size(); ++t) {
                  local[t] = f_.mul(local[t], f_.pow(at->nodes[t], first.j));
                  shoup_here[t] = f_.shoup(at->nodes[t]);
                }
                at_nodes = std::move(at->nodes);
                nodes = &at_nodes;
                shoup = &shoup_here;
              }
              std::vector<std::uint64_t>& w = *weights;
              for (std::size_t q = begin; q < end; ++q) {
                for (; j < keys[q].j; ++j)
                  for (std::size_t t = 0; t < w.size(); ++t)
                    w[t] = f_.mul_shoup(w[t], (*nodes)[t], (*shoup)[t]);
                std::uint64_t sum = 0;
                for (const std::uint64_t v : w) sum = f_.add(sum, v);
                out.mask[q * F_ + g] = 1;
                out.values[q * F_ + g] = sum;
              }
            }
          },
          64);
    }
    return out;
  }

  // For a function whose skeleton covers x_k (done, or past stage k): its
  // PassedCache for k, made when first asked (or when the skeleton moved on).
  PassedCache* passed_skeleton(std::size_t g, std::size_t k) const {
    const FunctionState& s = states_[g];
    if (!(s.done || s.stage > k)) return nullptr;
    PassedCache& c = passed_cache_[g];
    if (c.k == k && c.stage == s.stage && c.done == s.done) return &c;
    c = PassedCache{};
    c.k = k;
    c.stage = s.stage;
    c.done = s.done;
    for (std::size_t t = 0; t < s.skeleton.terms(); ++t) {
      const std::uint32_t* e = s.skeleton.exponent(t);
      std::uint64_t w = s.skeleton.coefficients[t];
      for (std::size_t l = k + 1; l < m_; ++l)
        if (e[l] != 0) w = f_.mul(w, f_.pow(anchors_[l], e[l]));
      c.nodes.push_back(monomial(f_, e, generators_.data(), k));
      c.shoup.push_back(f_.shoup(c.nodes.back()));
      c.base.push_back(w);
      c.power.push_back(e[k]);
      c.top = std::max(c.top, e[k]);
    }
    return &c;
  }

  // Function g's terms at the probes of (k, i), if it has passed them.
  std::optional<Passed> passed(std::size_t g, std::size_t k, std::size_t i) const {
    const FunctionState& s = states_[g];
    if (s.done || s.stage > k) {
      // The skeleton (in x_0..x_{stage-1}) at x_k = sigma_k g_k^i and the
      // anchors; nodes from the generators in x_0..x_{k-1}.
      Passed p;
      const std::uint64_t c = points_[k].point(i);
      for (std::size_t t = 0; t < s.skeleton.terms(); ++t) {
        const std::uint32_t* e = s.skeleton.exponent(t);
        std::uint64_t w = f_.mul(s.skeleton.coefficients[t], f_.pow(c, e[k]));
        for (std::size_t l = k + 1; l < m_; ++l)
          if (e[l] != 0) w = f_.mul(w, f_.pow(anchors_[l], e[l]));
        p.nodes.push_back(monomial(f_, e, generators_.data(), k));
        p.weights.push_back(w);
      }
      return p;
    }
    if (s.stage < k || !s.started) return std::nullopt;
    const auto at = s.solved.find(i);
    if (at == s.solved.end()) return std::nullopt;
    return Passed{s.nodes, at->second};
  }

  // The right-hand side of g's current value, finished terms subtracted;
  // false (window moved or value skipped) when a probe failed.
  bool right_hand_side(std::size_t g, std::vector<std::uint64_t>& rhs) {
    FunctionState& s = states_[g];
    const auto keys = wanted(g);
    std::vector<std::uint64_t> x(m_);
    rhs.clear();
    for (const Key& key : keys) {
      const Probe& p = cache_.at(key);
      if (!p.ok) {
        if (s.stage == 0) {
          ++s.value;  // the next value of x_0 instead
        } else {
          s.window = key.j;  // a window of consecutive powers past the failure
        }
        if (++s.moves > max_window_moves)
          throw UnluckyChoice("zippel: the black box keeps failing at the probes");
        return false;
      }
      point(key, x.data());
      rhs.push_back(target_.adjust(g, x.data(), p.raw[g]));
    }
    if (s.stage == 0) return true;
    const std::uint64_t c = points_[s.stage].point(s.value);
    std::vector<std::uint8_t> open(s.terms.size(), 0);
    for (const std::size_t t : s.active) open[t] = 1;
    for (std::size_t t = 0; t < s.terms.size(); ++t) {
      if (open[t]) continue;
      const std::uint64_t m = s.nodes[t], m_shoup = f_.shoup(m);
      std::uint64_t w = f_.mul(s.terms[t].evaluate(f_, c), f_.pow(m, s.window + 1));
      for (auto& r : rhs) {
        r = f_.sub(r, w);
        w = f_.mul_shoup(w, m, m_shoup);
      }
    }
    return true;
  }

  // One value for every active function: one batched transposed Vandermonde
  // solve over all of them, then the terms take their values. The right-hand
  // sides and the terms' updates are per function (its own state, the probe
  // cache only read): spread over the host threads; the solve (Kokkos) stays
  // on this thread.
  void solve(const std::vector<std::size_t>& active) {
    const std::size_t A = active.size();
    std::vector<std::vector<std::uint64_t>> rhs(A);
    std::vector<std::uint8_t> to_solve(A, 0);
    for_each_on(
        options_.threads, A,
        [&](std::size_t begin, std::size_t end) {
          for (std::size_t q = begin; q < end; ++q) {
            const std::size_t g = active[q];
            if (!right_hand_side(g, rhs[q])) continue;
            if (states_[g].stage == 0) {
              feed(g, {rhs[q][0]});  // the single term's value itself
            } else {
              to_solve[q] = 1;
            }
          }
        },
        16);
    // Groups of host_group_below unknowns or more: one batched solve here
    // (Kokkos: the device where there is one); the others each on its
    // function's host thread below.
    VandermondeSystems systems;
    std::vector<std::uint64_t> rhs_all;
    std::vector<std::size_t> solved, batched(A, SIZE_MAX);  // batched[q]: its group
    for (std::size_t q = 0; q < A; ++q) {
      if (to_solve[q] == 0) continue;
      solved.push_back(q);
      const FunctionState& s = states_[active[q]];
      if (s.active.size() < host_group_below) continue;
      batched[q] = systems.groups();
      for (const std::size_t t : s.active) systems.nodes.push_back(s.nodes[t]);
      systems.offsets.push_back(systems.nodes.size());
      rhs_all.insert(rhs_all.end(), rhs[q].begin(), rhs[q].end());
    }
    if (solved.empty()) return;
    std::vector<std::uint64_t> a;
    if (systems.groups() > 0) a = TransposedVandermonde<DeviceSpace>(f_, systems).solve(1, rhs_all);
    for_each_on(
        options_.threads, solved.size(),
        [&](std::size_t begin, std::size_t end) {
          std::vector<std::uint64_t> nodes;
          for (std::size_t u = begin; u < end; ++u) {
            const std::size_t q = solved[u], g = active[q];
            FunctionState& s = states_[g];
            std::vector<std::uint64_t> values;
            if (batched[q] != SIZE_MAX) {
              const std::size_t b = batched[q];
              values.assign(a.begin() + static_cast<std::ptrdiff_t>(systems.offsets[b]),
                            a.begin() + static_cast<std::ptrdiff_t>(systems.offsets[b + 1]));
            } else {
              nodes.clear();
              for (const std::size_t t : s.active) nodes.push_back(s.nodes[t]);
              values.resize(nodes.size());
              solve_vandermonde_group(f_, nodes.data(), rhs[q].data(), nodes.size(), values.data());
            }
            if (s.window != 0) {  // solved a_t m_t^window
              for (std::size_t v = 0; v < values.size(); ++v)
                values[v] = f_.mul(values[v], f_.inv(f_.pow(s.nodes[s.active[v]], s.window)));
            }
            feed(g, values);
          }
        },
        16);
  }

  // The active terms of g at the current value; the next value.
  void feed(std::size_t g, const std::vector<std::uint64_t>& values) {
    FunctionState& s = states_[g];
    if (target_.uses_known_values()) {
      const std::uint64_t c = points_[s.stage].point(s.value);
      std::vector<std::uint64_t> all(s.terms.size());
      std::vector<std::uint8_t> open(s.terms.size(), 0);
      for (std::size_t u = 0; u < s.active.size(); ++u) {
        all[s.active[u]] = values[u];
        open[s.active[u]] = 1;
      }
      for (std::size_t t = 0; t < s.terms.size(); ++t)
        if (!open[t]) all[t] = s.terms[t].evaluate(f_, c);
      s.solved[s.value] = std::move(all);
    }
    std::vector<std::size_t> still;
    for (std::size_t u = 0; u < s.active.size(); ++u) {
      TermInterpolation& term = s.terms[s.active[u]];
      if (term.add(points_[s.stage], s.value, values[u])) continue;
      if (term.beyond_limit()) {
        throw Error(degree_limit_message("the degree in variable " + std::to_string(s.stage + 1),
                                         options_.max_degree, options_.max_degree_name),
                    ErrorKind::negative_answer);
      }
      still.push_back(s.active[u]);
    }
    s.active = std::move(still);
    ++s.value;
    s.window = s.moves = 0;
    if (s.active.empty()) next_stage(g);
  }

  // Drops the probes that no unfinished function can still want.
  void evict() {
    Key low{m_, 0, 0};
    for (const auto& s : states_)
      if (!s.done && s.started)
        low = std::min(low, Key{s.stage, s.value, 0});
      else if (!s.done)
        low = std::min(low, Key{s.stage, 0, 0});
    cache_.erase(cache_.begin(), cache_.lower_bound(low));
  }

  ProbeTarget& target_;
  const field::Zp64& f_;
  const ZippelOptions& options_;
  const std::vector<std::size_t>& bounds_;
  const std::size_t m_, F_;
  std::vector<std::uint64_t> anchors_, generators_;
  std::vector<GeometricPoints> points_;
  std::vector<FunctionState> states_;
  mutable std::vector<PassedCache> passed_cache_;  // per function (known())
  std::map<Key, Probe> cache_;
  std::size_t reported_stage_ = 0;
};

// A black box as a probe target.
class BoxTarget : public ProbeTarget {
 public:
  explicit BoxTarget(const BlackBox& box) : box_(box) {}
  std::size_t variables() const override { return box_.variables(); }
  std::size_t functions() const override { return box_.functions(); }
  void evaluate(const field::Zp64& f, std::size_t count, const std::vector<std::uint64_t>& points,
                const KnownValues&, std::vector<std::uint64_t>& values,
                std::vector<std::uint8_t>& ok) override {
    box_.evaluate(f, count, points, values, ok);
  }

 private:
  const BlackBox& box_;
};

}  // namespace

std::vector<PolynomialModP> interpolate(ProbeTarget& target, const field::Zp64& f,
                                        std::uint64_t seed, const ZippelOptions& options,
                                        const std::vector<std::size_t>& degree_bounds) {
  return Engine(target, f, seed, options, degree_bounds).run();
}

}  // namespace detail

std::vector<PolynomialModP> zippel(const BlackBox& box, const field::Zp64& f, std::uint64_t seed,
                                   const ZippelOptions& options) {
  const KokkosLock lock;
  detail::BoxTarget target(box);
  return detail::interpolate(target, f, seed, options, options.degree_bounds);
}

}  // namespace hepex::reconstruct
