// Reference data for issue 41's subprocesses that madgraph4gpu ships no
// directory of (pp -> t t~ + 3 jets with one light quark pair), made with
// MadGraph's own standalone Fortran of the process (`output standalone`,
// outside this repository; make_madevent_reference.sh builds it with this
// driver and standalone_glue.f, and adds to its matrix.f one call,
// HEPEX_RECORD_JAMPS(JAMP, NCOLOR), where MATRIX has formed the jamps of a
// helicity combination, before their colour sum).
//   standalone_driver EVENTS NPAR HELICITIES ICOLAMP IDEN SEED [GS]
// EVENTS: rambo_events.py's lines (ievt sqrt_s E px py pz ...); HELICITIES,
// ICOLAMP: the process's NAME_helicities.txt / NAME_icolamp.txt (from the
// MadEvent output of the same process); IDEN: matrix.f's IDEN (spin and
// colour average, identical particles). The draws per event are
// selection_driver.cpp's (std::mt19937_64(SEED): alpha_s uniform in
// [0.08, 0.16], rndhel, rndcol uniform in [0, 1), igraph 0 for every eighth
// event, else uniform over the configurations); with GS every event at
// gs = GS and igraph 0. Per event it prints `ievt gs rndhel rndcol igraph ME
// selhel selcol`, chosen as CUDACPP chooses (and MadEvent's Fortran):
//   ME      MadGraph's SMATRIX at gs (its helicity sum over IDEN);
//   selhel  the first helicity combination, in MadGraph's order, whose
//           cumulative |M_h|^2 (MATRIX of each combination) exceeds rndhel
//           times their sum (1-based); the sum over IDEN must equal ME;
//   selcol  0 where igraph = 0; else the first colour flow allowed by
//           ICOLAMP's line igraph whose cumulative |jamp_i|^2, summed over
//           the combinations, exceeds rndcol times the allowed flows' sum.
// Run from the process's directory (SubProcesses/P3_...): the param card is
// ../../Cards/param_card.dat.
#include <cmath>
#include <complex>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
void hepex_setup_(const char* path, std::size_t length);  // gfortran: the length follows
void hepex_set_gs_(const double* gs);
void smatrix_(const double* momenta, double* me);
double matrix_(const double* momenta, const int* helicities, const int* ic);
void hepex_record_jamps_(const std::complex<double>* jamp, const int* ncolor);
}

namespace {
std::vector<double> jamp2;  // |jamp_i|^2 summed over the recorded combinations

std::vector<std::vector<int>> read_table(const char* path, bool skip_index) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "cannot read " << path << '\n';
    std::exit(1);
  }
  std::vector<std::vector<int>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::vector<int> row;
    int x;
    while (fields >> x) row.push_back(x);
    if (skip_index) row.erase(row.begin());
    rows.push_back(row);
  }
  return rows;
}
}  // namespace

extern "C" void hepex_record_jamps_(const std::complex<double>* jamp, const int* ncolor) {
  if (jamp2.size() != static_cast<std::size_t>(*ncolor)) jamp2.assign(*ncolor, 0.0);
  for (int i = 0; i < *ncolor; ++i) jamp2[i] += std::norm(jamp[i]);
}

int main(int argc, char** argv) {
  if (argc != 7 && argc != 8) {
    std::cerr << "usage: standalone_driver EVENTS NPAR HELICITIES ICOLAMP IDEN SEED [GS]\n";
    return 1;
  }
  const int npar = std::stoi(argv[2]);
  const auto helicities = read_table(argv[3], true);
  const auto icolamp = read_table(argv[4], false);
  const double iden = std::stod(argv[5]);
  std::mt19937_64 rng(std::stoull(argv[6]));
  const bool fixed_gs = argc == 8;
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << "cannot read " << argv[1] << '\n';
    return 1;
  }
  std::vector<std::vector<double>> events;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    double ievt, sqrt_s;
    fields >> ievt >> sqrt_s;
    std::vector<double> p(4 * npar);  // Fortran P(0:3, NEXTERNAL)
    for (double& x : p) {
      if (!(fields >> x)) {
        std::cerr << "short line: " << line << '\n';
        return 1;
      }
    }
    events.push_back(p);
  }
  const std::string card = "../../Cards/param_card.dat";
  hepex_setup_(card.c_str(), card.size());
  std::uniform_real_distribution<double> uniform(0, 1), alpha(0.08, 0.16);
  std::uniform_int_distribution<int> config(1, static_cast<int>(icolamp.size()));
  const std::vector<int> ic(npar, 1);
  std::printf(
      "# ievt gs rndhel rndcol igraph ME selhel selcol (momenta: line ievt of the onshell "
      "reference)\n");
  for (std::size_t e = 0; e < events.size(); ++e) {
    double gs = std::sqrt(4 * M_PI * alpha(rng));
    const double rndhel = uniform(rng), rndcol = uniform(rng);
    int igraph = e % 8 == 7 ? 0 : config(rng);
    if (fixed_gs) {
      gs = std::stod(argv[7]);
      igraph = 0;
    }
    hepex_set_gs_(&gs);
    double me = 0;
    smatrix_(events[e].data(), &me);
    jamp2.clear();
    std::vector<double> per_helicity;
    double sum = 0;
    for (const auto& h : helicities) {
      if (static_cast<int>(h.size()) != npar) {
        std::cerr << "helicity row of " << h.size() << " values, npar " << npar << '\n';
        return 1;
      }
      per_helicity.push_back(matrix_(events[e].data(), h.data(), ic.data()));
      sum += per_helicity.back();
    }
    if (std::abs(sum / iden - me) > 1e-12 * me) {
      std::fprintf(stderr, "event %zu: helicity sum / IDEN %.17g, SMATRIX %.17g\n", e, sum / iden,
                   me);
      return 1;
    }
    int selhel = 0;
    for (double cumulative = 0; selhel < static_cast<int>(per_helicity.size()); ++selhel) {
      cumulative += per_helicity[selhel];
      if (cumulative > rndhel * sum) break;
    }
    int selcol = 0;
    if (igraph != 0) {
      const auto& allowed = icolamp.at(igraph - 1);
      if (allowed.size() != jamp2.size()) {
        std::cerr << "icolamp line of " << allowed.size() << " flows, ncolor " << jamp2.size()
                  << '\n';
        return 1;
      }
      double total = 0;
      for (std::size_t i = 0; i < jamp2.size(); ++i) total += allowed[i] ? jamp2[i] : 0;
      double cumulative = 0;
      for (std::size_t i = 0; i < jamp2.size(); ++i) {
        if (!allowed[i]) continue;
        cumulative += jamp2[i];
        if (cumulative > rndcol * total) {
          selcol = static_cast<int>(i) + 1;
          break;
        }
      }
    }
    std::printf("%zu %.17g %.17g %.17g %d %.17g %d %d\n", e, gs, rndhel, rndcol, igraph, me,
                selhel + 1, selcol);
  }
  return 0;
}
