/* The C API from C: reference events of tests/data/madgraph reproduced, and
 * errors reported. Usage: test_me_c DATA_DIR */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hepex/hepex_me.h"

#define MAX_EVENTS 32

static int failures = 0;

static void check(int ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "FAILED: %s (%s)\n", what, hepex_me_last_error());
    ++failures;
  }
}

/* Reads up to MAX_EVENTS events of P_onshell_ref.txt: momenta and ME. */
static int read_events(const char* path, int particles, double* momenta, double* me) {
  FILE* file = fopen(path, "r");
  char line[4096];
  int events = 0;
  if (!file) return 0;
  while (events < MAX_EVENTS && fgets(line, sizeof line, file)) {
    char* cursor = line;
    int n = 0, k;
    double skip;
    if (line[0] == '#') continue;
    sscanf(cursor, "%lf %lf%n", &skip, &skip, &n);
    cursor += n;
    for (k = 0; k < 4 * particles; ++k, cursor += n)
      sscanf(cursor, "%lf%n", &momenta[events * 4 * particles + k], &n);
    sscanf(cursor, "%lf", &me[events]);
    ++events;
  }
  fclose(file);
  return events;
}

int main(int argc, char** argv) {
  static const char* processes[] = {"gg_tt", "gg_ttg", "gg_ttgg"};
  static double momenta[MAX_EVENTS * 7 * 4], reference[MAX_EVENTS], me[MAX_EVENTS];
  char path[1024];
  int p, e;
  if (argc != 2) return 2;
  for (p = 0; p < 3; ++p) {
    hepex_me* handle = hepex_me_create(processes[p], "double");
    int particles, events;
    double worst = 0;
    check(handle != NULL, "create");
    if (!handle) continue;
    particles = hepex_me_particles(handle);
    check(particles == 4 + p, "particles");
    snprintf(path, sizeof path, "%s/madgraph/%s_onshell_ref.txt", argv[1], processes[p]);
    events = read_events(path, particles, momenta, reference);
    check(events == MAX_EVENTS, "read reference events");
    check(hepex_me_evaluate(handle, events, momenta, me) == HEPEX_ME_OK, "evaluate");
    for (e = 0; e < events; ++e) worst = fmax(worst, fabs(me[e] / reference[e] - 1));
    printf("C API %s: %d events, max relative error %.3g\n", processes[p], events, worst);
    check(worst < 1e-12, "reference MEs");
    momenta[0] += 1; /* off shell */
    check(hepex_me_evaluate(handle, events, momenta, me) == HEPEX_ME_INVALID_INPUT, "off shell");
    check(strstr(hepex_me_last_error(), "off shell") != NULL, "off-shell message");
    check(hepex_me_evaluate(handle, 0, momenta, me) == HEPEX_ME_INVALID_INPUT, "no events");
    hepex_me_destroy(handle);
  }
  check(hepex_me_create("gg_tttt", "double") == NULL, "bad process");
  check(strstr(hepex_me_last_error(), "gg_tttt") != NULL, "bad process message");
  check(hepex_me_create("gg_tt", "half") == NULL, "bad precision");
  printf("%s\n", failures == 0 ? "C API: all checks passed" : "C API: CHECKS FAILED");
  return failures == 0 ? 0 : 1;
}
