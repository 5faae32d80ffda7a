// MadGraph's own Fortran matrix element on one core, the anchor of the 3-jet
// subprocesses on the CPU (issue 41: CUDACPP has no code of them; see
// run_madgraph_fortran_bench.sh, which builds this against MadGraph's
// `output standalone` of a process, outside this repository).
//   madgraph_fortran_me EVENTS NPAR ROUNDS
// EVENTS: lines `ievt sqrt_s E px py pz ...` (a reference file of
// tests/data/madgraph/pp_tt3j). Run from the process's directory (the param
// card is ../../Cards/param_card.dat). SMATRIX of every event once (MadGraph
// finds its good helicities in its first calls), then ROUNDS passes over all
// events, each timed; prints the events, the median pass and MEs/s.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
void hepex_setup_(const char* path, std::size_t length);  // standalone_glue.f
void hepex_set_gs_(const double* gs);
void smatrix_(const double* momenta, double* me);
}

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: madgraph_fortran_me EVENTS NPAR ROUNDS\n";
    return 1;
  }
  const int npar = std::stoi(argv[2]), rounds = std::stoi(argv[3]);
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
    std::vector<double> p(4 * npar);
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
  const double g = 1.2177157847767195;
  hepex_set_gs_(&g);
  double me = 0, sum = 0;
  for (const auto& p : events) smatrix_(p.data(), &me);
  std::vector<double> seconds;
  for (int r = 0; r < rounds; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (const auto& p : events) {
      smatrix_(p.data(), &me);
      sum += me;
    }
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(seconds.begin(), seconds.end());
  const double median = seconds[seconds.size() / 2];
  std::printf("events %zu rounds %d median_s %.6f mes_per_s %.4e (checksum %.6e)\n", events.size(),
              rounds, median, events.size() / median, sum);
  return 0;
}
