// Reference data for issue 23 (helicity and colour selection, per-event
// coupling), made with MadGraph's own code: drives CUDACPP's Fortran bridge
// (madgraph4gpu, a PROCESS.mad directory built outside this repository by
// make_selection_reference.sh) exactly as MadEvent does, through its C
// entry points, declared here so that nothing of it is included.
//   selection_driver ONSHELL_REF NPAR NCONFIG SEED [GS] > PROCESS_selection_ref.txt
// Run from the P1_* directory (the bridge reads ../../Cards/param_card.dat).
// Events: every event of ONSHELL_REF (columns ievt sqrt_s E px py pz ... ME
// ME_WT0). Per event, from std::mt19937_64(SEED): alpha_s uniform in
// [0.08, 0.16] (gs = sqrt(4 pi alpha_s)), rndhel and rndcol uniform in [0, 1),
// igraph (the diagram configuration whose colour flows may be chosen, as
// MLM matching passes it) 0 for every eighth event, else uniform in
// [1, NCONFIG]. No multichannel enhancement (channel 0). With GS (issue 41's
// plain reference MEs): every event at gs = GS and igraph 0, the same draws
// of rndhel and rndcol.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

struct CppObjectInFortran;
extern "C" {
void fbridgecreate_(CppObjectInFortran** bridge, const int* nevt, const int* npar, const int* np4);
void fbridgedelete_(CppObjectInFortran** bridge);
void fbridgesequence_nomultichannel_(CppObjectInFortran** bridge, const double* momenta,
                                     const double* gs, const double* rndhel, const double* rndcol,
                                     const int* igraph, double* mes, int* selhel, int* selcol,
                                     const bool* good_helicities_only);
}

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6) {
    std::cerr << "usage: selection_driver ONSHELL_REF NPAR NCONFIG SEED [GS]\n";
    return 1;
  }
  const int npar = std::stoi(argv[2]), nconfig = std::stoi(argv[3]);
  std::mt19937_64 rng(std::stoull(argv[4]));
  std::ifstream in(argv[1]);
  if (!in) {
    std::cerr << "cannot read " << argv[1] << '\n';
    return 1;
  }
  std::vector<double> momenta;  // Fortran momenta(0:3, npar, nevt)
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    double ievt, sqrt_s, x;
    fields >> ievt >> sqrt_s;
    for (int k = 0; k < 4 * npar; ++k) {
      if (!(fields >> x)) {
        std::cerr << "short line: " << line << '\n';
        return 1;
      }
      momenta.push_back(x);
    }
  }
  const int nevt = static_cast<int>(momenta.size() / (4 * npar)), np4 = 4;
  std::uniform_real_distribution<double> uniform(0, 1), alpha(0.08, 0.16);
  std::uniform_int_distribution<int> config(1, nconfig);
  std::vector<double> gs(nevt), rndhel(nevt), rndcol(nevt), mes(nevt);
  std::vector<int> igraph(nevt), selhel(nevt), selcol(nevt);
  const bool fixed_gs = argc == 6;
  for (int e = 0; e < nevt; ++e) {
    gs[e] = std::sqrt(4 * M_PI * alpha(rng));
    rndhel[e] = uniform(rng);
    rndcol[e] = uniform(rng);
    igraph[e] = e % 8 == 7 ? 0 : config(rng);
    if (fixed_gs) {
      gs[e] = std::stod(argv[5]);
      igraph[e] = 0;
    }
  }
  CppObjectInFortran* bridge = nullptr;
  fbridgecreate_(&bridge, &nevt, &npar, &np4);
  const bool all_helicities = false;
  fbridgesequence_nomultichannel_(&bridge, momenta.data(), gs.data(), rndhel.data(), rndcol.data(),
                                  igraph.data(), mes.data(), selhel.data(), selcol.data(),
                                  &all_helicities);
  fbridgedelete_(&bridge);
  std::printf(
      "# ievt gs rndhel rndcol igraph ME selhel selcol (momenta: line ievt of the onshell "
      "reference)\n");
  for (int e = 0; e < nevt; ++e) {
    std::printf("%d %.17g %.17g %.17g %d %.17g %d %d\n", e, gs[e], rndhel[e], rndcol[e], igraph[e],
                mes[e], selhel[e], selcol[e]);
  }
  return 0;
}
