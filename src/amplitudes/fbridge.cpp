// CUDACPP's Fortran bridge entry points over the C API
// (include/hepex/hepex_fbridge.h).
#include "hepex/hepex_fbridge.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// Where an error ends (hepex_fbridge.h): the message, then exit status 1.
[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "hepex fbridge: %s\n", message.c_str());
  std::exit(1);
}

void check(int status) {
  if (status != HEPEX_ME_OK) fail(hepex_me_last_error());
}

}  // namespace

extern "C" {

void fbridgecreate_(hepex_me** bridge, const int* nevt, const int* npar, const int* np4) {
  static const char* const processes[] = {"gg_tt", "gg_ttg", "gg_ttgg", "gg_ttggg"};
  if (*npar < 4 || *npar > 7 || *np4 != 4) {
    fail("fbridgecreate: npar = " + std::to_string(*npar) + ", np4 = " + std::to_string(*np4) +
         ": hepex has g g -> t tbar + 0..3 gluons (npar 4..7, np4 4)");
  }
  if (*nevt <= 0) fail("fbridgecreate: nevt = " + std::to_string(*nevt) + " must be positive");
  const char* precision = std::getenv("HEPEX_PRECISION");
  const char* card = std::getenv("HEPEX_PARAM_CARD");
  hepex_me* me = hepex_me_create_bridge(processes[*npar - 4], precision ? precision : "double",
                                        card ? card : "../../Cards/param_card.dat", *nevt);
  if (me == nullptr) fail(hepex_me_last_error());
  *bridge = me;
}

void fbridgedelete_(hepex_me** bridge) {
  hepex_me_destroy(*bridge);
  *bridge = nullptr;
}

void fbridgesequence_(hepex_me** bridge, const double* momenta, const double* gs,
                      const double* rndhel, const double* rndcol, const unsigned int* channel_ids,
                      const int* igraph, double* mes, int* selhel, int* selcol,
                      const bool* helonly) {
  if (*bridge == nullptr) fail("fbridgesequence: no bridge (fbridgecreate first)");
  if (helonly != nullptr && *helonly) return;
  int events = 0;
  check(hepex_me_max_events(*bridge, &events));
  std::vector<int> channels;
  if (channel_ids != nullptr) channels.assign(channel_ids, channel_ids + events);
  check(hepex_me_sequence(*bridge, events, momenta, gs, rndhel, rndcol,
                          channel_ids != nullptr ? channels.data() : nullptr, igraph, mes, selhel,
                          selcol));
}

void fbridgesequence_nomultichannel_(hepex_me** bridge, const double* momenta, const double* gs,
                                     const double* rndhel, const double* rndcol, const int* igraph,
                                     double* mes, int* selhel, int* selcol, const bool* helonly) {
  fbridgesequence_(bridge, momenta, gs, rndhel, rndcol, nullptr, igraph, mes, selhel, selcol,
                   helonly);
}

void fbridgegetngoodhel_(hepex_me** bridge, unsigned int* ngoodhel, unsigned int* ntothel) {
  if (*bridge == nullptr) fail("fbridgegetngoodhel: no bridge (fbridgecreate first)");
  int good = 0, total = 0;
  check(hepex_me_helicities(*bridge, &good, &total));
  *ngoodhel = static_cast<unsigned int>(good);
  *ntothel = static_cast<unsigned int>(total);
}

}  // extern "C"
