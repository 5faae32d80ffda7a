// FiniteFlow side of the IBP-reduction benchmark (run_finiteflow_dbox.sh):
// reduces the targets of a linear system of integrals with coefficients
// polynomial in the parameters (NeatIBP's massless double box, converted by
// to_finiteflow_input.py) to the masters, with FiniteFlow's C++ API
// (peraro/finiteflow, GPL, built outside this repository by
// build_finiteflow.sh; no FiniteFlow code lives here), the way its
// Mathematica interface does FFSparseSolve on a homogeneous system:
//   - a graph with the parameters as input and an AnalyticSparseSolver node
//     (the equations, unknowns ordered most complex first, needed unknowns =
//     the targets), made homogeneous-only (FFSolverOnlyHomogeneous);
//   - learn (Session::learn: dependent / independent unknowns, independent
//     equations);
//   - mark and sweep the equations the targets need, drop the others
//     (FFSparseSolverMarkAndSweepEqs, FFSparseSolverDeleteUnneededEqs);
//   - reconstruct all outputs over Q with FiniteFlow's default reconstruction
//     options, on --threads threads (default 1): degrees, then sampling and reconstruction with 1,
//     2, ... primes up to 5 (the steps of Session::full_reconstruction and of
//     FFReconstructFunction, whose default MaxPrimes is 5), written out here
//     only to know how many primes it took.
// Prints the reduction table as `hepex reduce` does, one target a line,
//   TARGET -> (c1)*MASTER1 + (c2)*MASTER2 + ...
// (zero coefficients left out; a target that is a master gives (1)*itself, a
// vanishing one `TARGET -> 0`), coefficients as (numerator)/(denominator) in
// the parameters, to --out FILE (default stdout), then one JSON line on
// stdout: seconds of build (reading the input, graph and solver), learn
// (learn + mark and sweep), degrees (the degree scans, part of reconstruct),
// reconstruct (degrees + samples + rational reconstruction) and total (their
// sum), the masters, primes used, learn_passes (the solver's learning calls,
// each one numerical solution), degree_evaluations (solver evaluations of the
// degree scans), sample_points (evaluations while sampling for the
// reconstruction: one per point FiniteFlow generates, checks included) and
// evaluations (all of them).
// usage: finiteflow_reduce_driver INPUT [--out FILE] [--max-primes N] [--threads N]
// (--threads: FiniteFlow's own parallel degree scan, sampling and
// reconstruction on N threads, as FFReconstructFunction's "NThreads"; default 1;
// reading and learning are serial in FiniteFlow either way)
#include <fflow/alg_mp_reconstruction.hh>
#include <fflow/analytic_solver.hh>
#include <fflow/graph.hh>
#include <fflow/mp_functions.hh>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace fflow;

namespace {

std::atomic<unsigned long long> evaluations{0}, learn_calls{0};

// The sparse solver of FiniteFlow, counting its evaluations (numerical
// solutions of the system at one point modulo one prime) and learning passes.
class CountingSparseSolver : public AnalyticSparseSolver {
 public:
  Ret evaluate(Context* ctxt, AlgInput xin[], Mod mod, AlgorithmData* data,
               UInt xout[]) const override {
    ++evaluations;
    return AnalyticSparseSolver::evaluate(ctxt, xin, mod, data, xout);
  }
  Ret learn(Context* ctxt, AlgInput xin[], Mod mod, AlgorithmData* data) override {
    ++learn_calls;
    return AnalyticSparseSolver::learn(ctxt, xin, mod, data);
  }
};

[[noreturn]] void fail(const std::string& msg) {
  std::cerr << "finiteflow_reduce_driver: " << msg << "\n";
  std::exit(1);
}

void expect(std::istream& in, const std::string& word) {
  std::string got;
  if (!(in >> got) || got != word) fail("bad input: expected '" + word + "', got '" + got + "'");
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A polynomial read from the input into FiniteFlow's MPReconstructedPoly
// (constructed with nvars variables).
void read_poly(std::istream& in, unsigned nvars, MPReconstructedPoly& poly) {
  unsigned nterms;
  in >> nterms;
  poly.clear();
  auto& mons = poly.monomials_vec_();
  auto& coeffs = poly.coeff_vec_();
  mons.resize(nterms);
  coeffs.resize(nterms);
  std::string c;
  for (unsigned k = 0; k < nterms; ++k) {
    in >> c;
    if (coeffs[k].set(c.c_str()) != 0) fail("bad rational coefficient '" + c + "'");
    Monomial mon(nvars);
    mon.coeff() = 1;
    int degree = 0;
    for (unsigned v = 0; v < nvars; ++v) {
      int e;
      in >> e;
      mon.exponent(v) = Monomial::VarExponent(e);
      degree += e;
    }
    mon.degree() = Monomial::VarExponent(degree);
    mons[k] = std::move(mon);
  }
  if (!in) fail("truncated input in a coefficient");
}

// The coefficient num/1 in Horner form for the solver, its rational
// coefficients mapped (modulo each prime) through `map`.
void to_horner(const MPReconstructedPoly& num, unsigned nvars, HornerRatFunPtr& f,
               MPHornerRatFunMap& map, HornerWorkspacePtr& workspace) {
  MPReconstructedPoly den(nvars);
  den.to_one();
  map.resize(num.size(), den.size());
  for (std::size_t j = 0; j < num.size(); ++j) map.num_map.coeff[j] = num.coeff(j);
  for (std::size_t j = 0; j < den.size(); ++j) map.den_map.coeff[j] = den.coeff(j);
  f.from_sparse_poly(num.monomials(), num.size(), den.monomials(), den.size(), nvars, 0,
                     map.num_map.pos.get(), map.den_map.pos.get());
  workspace.ensure_size(f.required_workspace());
}

std::string json_str(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr
        << "usage: finiteflow_reduce_driver INPUT [--out FILE] [--max-primes N] [--threads N]\n";
    return 2;
  }
  std::string input = argv[1], out_path;
  unsigned max_primes = 5;  // FFReconstructFunction's default MaxPrimes
  unsigned threads = 1;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--out" && i + 1 < argc) {
      out_path = argv[++i];
    } else if (a == "--max-primes" && i + 1 < argc) {
      max_primes = unsigned(std::stoul(argv[++i]));
    } else if (a == "--threads" && i + 1 < argc) {
      threads = unsigned(std::stoul(argv[++i]));
      if (threads == 0) fail("--threads must be at least 1");
    } else {
      fail("unknown argument " + a);
    }
  }

  const auto t_start = std::chrono::steady_clock::now();

  // ---- read the system
  std::ifstream in(input);
  if (!in) fail("cannot open " + input);
  expect(in, "ffreduce");
  expect(in, "1");
  unsigned nvars, nunknowns, ntargets, neqs;
  expect(in, "vars");
  in >> nvars;
  std::vector<std::string> vars(nvars);
  for (auto& v : vars) in >> v;
  expect(in, "unknowns");
  in >> nunknowns;
  std::vector<std::string> names(nunknowns);
  for (auto& n : names) in >> n;
  expect(in, "targets");
  in >> ntargets;
  std::vector<unsigned> targets(ntargets);
  for (auto& t : targets) {
    in >> t;
    if (t >= nunknowns) fail("target index out of range");
  }
  expect(in, "equations");
  in >> neqs;
  if (!in) fail("bad header");

  // ---- the graph: input node (the parameters) -> sparse solver
  Session session;
  const unsigned graph = session.new_graph();
  const unsigned in_node = session.graph(graph)->set_input_vars(nvars);
  HornerWorkspacePtr& ww = session.main_context()->ww;

  std::unique_ptr<CountingSparseSolver> solver(new CountingSparseSolver());
  std::unique_ptr<AnalyticSparseSolverData> data(new AnalyticSparseSolverData());
  solver->rinfo.resize(neqs);
  solver->cmap.resize(neqs);
  data->c.resize(neqs);
  for (unsigned i = 0; i < neqs; ++i) {
    unsigned size;
    in >> size;
    auto& row = solver->rinfo[i];
    row.size = size;
    row.cols.reset(new unsigned[size]);
    data->c[i].reset(new HornerRatFunPtr[size]);
    solver->cmap[i].reset(new MPHornerRatFunMap[size]);
    for (unsigned j = 0; j < size; ++j) {
      in >> row.cols[j];
      if (row.cols[j] >= nunknowns || (j && row.cols[j] <= row.cols[j - 1]))
        fail("columns must be ascending unknown indices");
      MPReconstructedPoly poly(nvars);
      read_poly(in, nvars, poly);
      to_horner(poly, nvars, data->c[i][j], solver->cmap[i][j], ww);
    }
  }
  if (!in) fail("truncated input");
  solver->nparsin.resize(1);
  solver->nparsin[0] = nvars;
  solver->init(neqs, nunknowns, targets.data(), ntargets, *data);
  solver->only_homogeneous();
  CountingSparseSolver* ls = solver.get();
  const unsigned node =
      session.graph(graph)->new_node(std::move(solver), std::move(data), &in_node);
  if (node == ALG_NO_ID) fail("could not add the solver node");
  if (session.set_output_node(graph, node) == ALG_NO_ID) fail("could not set the output node");
  const double build_s = seconds_since(t_start);

  // ---- learn, then keep only the equations the targets need
  const auto t_learn = std::chrono::steady_clock::now();
  if (session.learn(graph) != SUCCESS) fail("learning failed");
  ls->mark_and_sweep_eqs(session.alg_data(graph, node));
  session.invalidate_subctxt_alg_data(graph, node);
  ls->delete_unneeded_eqs(session.alg_data(graph, node));
  session.invalidate_subctxt_alg_data(graph, node);
  const double learn_s = seconds_since(t_learn);

  const unsigned ndep = ls->n_needed_depvars(), nindep = ls->n_needed_indepvars();
  const std::size_t* dep = ls->needed_depvars();
  const std::size_t* indep = ls->needed_indepvars();
  const unsigned nout = session.graph(graph)->nparsout;
  if (nout != ndep * nindep) fail("unexpected output length");

  // ---- reconstruct over Q: Session::full_reconstruction's steps on `threads`
  const auto t_rec = std::chrono::steady_clock::now();
  ReconstructionOptions opt;  // FiniteFlow's defaults
  opt.max_primes = max_primes;
  std::unique_ptr<MPReconstructedRatFun[]> res(new MPReconstructedRatFun[nout > 0 ? nout : 1]);
  double degrees_s = 0;
  unsigned primes = 0;
  unsigned long long degree_evals = 0, sample_points = 0;
  if (nout > 0) {
    if (session.parallel_all_degrees(graph, threads, opt) != SUCCESS) fail("degree scan failed");
    degrees_s = seconds_since(t_rec);
    degree_evals = evaluations;
    Ret ret = MISSING_PRIMES;
    ReconstructionOptions step = opt;
    for (unsigned np = 1; ret == MISSING_PRIMES && np <= max_primes; ++np) {
      step.max_primes = np;
      const unsigned long long before = evaluations;
      session.parallel_sample(graph, threads, step);  // one evaluation per new point
      sample_points += evaluations - before;
      ret = session.parallel_reconstruct(graph, res.get(), threads, step);
      primes = np;
      if (ret != SUCCESS && ret != MISSING_PRIMES) fail("reconstruction failed");
    }
    if (ret != SUCCESS) fail("reconstruction needs more than --max-primes primes");
  }
  const double reconstruct_s = seconds_since(t_rec);
  const double total_s = build_s + learn_s + reconstruct_s;
  const unsigned long long all_evals = evaluations;

  // ---- the table
  std::vector<long> dep_row(nunknowns, -1);
  for (unsigned i = 0; i < ndep; ++i) dep_row[dep[i]] = long(i);
  std::vector<bool> is_master(nunknowns, false);
  for (unsigned j = 0; j < nindep; ++j) is_master[indep[j]] = true;
  std::ostringstream table;
  for (unsigned t : targets) {
    table << names[t] << " ->";
    if (dep_row[t] >= 0) {
      bool first = true;
      for (unsigned j = 0; j < nindep; ++j) {
        const MPReconstructedRatFun& f = res[std::size_t(dep_row[t]) * nindep + j];
        if (f.numerator().size() == 0) continue;
        table << (first ? " " : " + ") << "(" << f.to_str(vars.data()) << ")*" << names[indep[j]];
        first = false;
      }
      if (first) table << " 0";
    } else if (is_master[t]) {
      table << " (1)*" << names[t];
    } else {
      table << " 0";
    }
    table << "\n";
  }
  if (out_path.empty()) {
    std::cout << table.str();
  } else {
    std::ofstream out(out_path);
    out << table.str();
    if (!out) fail("cannot write " + out_path);
  }

  std::ostringstream js;
  js.precision(6);
  js << "{\"tool\": \"finiteflow\", \"equations\": " << neqs << ", \"unknowns\": " << nunknowns
     << ", \"targets\": " << ntargets << ", \"independent_equations\": " << ls->n_indep_eqs()
     << ", \"masters\": [";
  for (unsigned j = 0; j < nindep; ++j) js << (j ? ", " : "") << json_str(names[indep[j]]);
  js << "], \"n_masters\": " << nindep << ", \"build_s\": " << build_s
     << ", \"learn_s\": " << learn_s << ", \"degrees_s\": " << degrees_s
     << ", \"reconstruct_s\": " << reconstruct_s << ", \"total_s\": " << total_s
     << ", \"primes\": " << primes << ", \"learn_passes\": " << learn_calls
     << ", \"degree_evaluations\": " << degree_evals << ", \"sample_points\": " << sample_points
     << ", \"evaluations\": " << all_evals << ", \"threads\": " << threads << "}";
  std::cout << js.str() << std::endl;
  return 0;
}
