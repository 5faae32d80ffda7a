/* The C API from C: reference events of tests/data/madgraph reproduced, and
 * errors reported. Usage: test_me_c DATA_DIR */
#include <math.h>
#include <pthread.h>
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

/* Up to MAX_EVENTS lines of P_selection_ref.txt (ievt gs rndhel rndcol igraph
 * ME selhel selcol); the momenta of event ievt come from `all` (the on-shell
 * reference's first MAX_EVENTS events: the selection file's first lines are
 * events 0, 1, ...). */
static int read_selection(const char* path, double* gs, double* rndhel, double* rndcol,
                          int* igraph, double* me, int* selhel, int* selcol) {
  FILE* file = fopen(path, "r");
  char line[4096];
  int events = 0, ievt;
  if (!file) return 0;
  while (events < MAX_EVENTS && fgets(line, sizeof line, file)) {
    if (line[0] == '#') continue;
    if (sscanf(line, "%d %lf %lf %lf %d %lf %d %d", &ievt, &gs[events], &rndhel[events],
               &rndcol[events], &igraph[events], &me[events], &selhel[events],
               &selcol[events]) != 8 ||
        ievt != events)
      break;
    ++events;
  }
  fclose(file);
  return events;
}

/* The first channel of each of the first MAX_EVENTS events in
 * P_channel_weights_ref.txt (ievt stot tmin channel weight) with stot
 * 1.69e8 and its weight. */
static int read_channels(const char* path, int* channel, double* weight) {
  FILE* file = fopen(path, "r");
  char line[4096];
  int events = 0, ievt, id;
  double stot, tmin, w;
  if (!file) return 0;
  while (events < MAX_EVENTS && fgets(line, sizeof line, file)) {
    if (line[0] == '#') continue;
    if (sscanf(line, "%d %lf %lf %d %lf", &ievt, &stot, &tmin, &id, &w) != 5) break;
    if (ievt != events || stot != 1.69e8) continue;
    channel[events] = id;
    weight[events] = w;
    ++events;
  }
  fclose(file);
  return events;
}

/* The bridge call sequence on MadGraph's selection reference of gg_ttgg, and
 * bad inputs: each refused with HEPEX_ME_INVALID_INPUT, a message naming it,
 * and nothing written. */
static void check_bridge(const char* data) {
  static double momenta[MAX_EVENTS * 6 * 4], unused[MAX_EVENTS], me[MAX_EVENTS];
  static double gs[MAX_EVENTS], rndhel[MAX_EVENTS], rndcol[MAX_EVENTS], ref_me[MAX_EVENTS];
  static int igraph[MAX_EVENTS], ref_hel[MAX_EVENTS], ref_col[MAX_EVENTS];
  static int selhel[MAX_EVENTS], selcol[MAX_EVENTS], channel[MAX_EVENTS];
  static double me_any[MAX_EVENTS];
  static int selhel_any[MAX_EVENTS], selcol_any[MAX_EVENTS];
  char path[1024], card[1024], run_card[1024];
  int e, good = 0, total = 0, mismatches = 0, events, igraph_zero = 0;
  double worst = 0;
  hepex_me* bridge;
  snprintf(path, sizeof path, "%s/madgraph/gg_ttgg_onshell_ref.txt", data);
  check(read_events(path, 6, momenta, unused) == MAX_EVENTS, "read gg_ttgg events");
  snprintf(path, sizeof path, "%s/madgraph/gg_ttgg_selection_ref.txt", data);
  events = read_selection(path, gs, rndhel, rndcol, igraph, ref_me, ref_hel, ref_col);
  check(events == MAX_EVENTS, "read gg_ttgg selection reference");
  snprintf(card, sizeof card, "%s/madgraph/param_card.dat", data);
  bridge = hepex_me_create_bridge("gg_ttgg", "double", card, MAX_EVENTS);
  check(bridge != NULL, "create bridge");
  if (!bridge) return;
  check(hepex_me_helicities(bridge, &good, &total) == HEPEX_ME_OK && good == 64 && total == 64,
        "helicities");
  for (e = 0; e < MAX_EVENTS; ++e) channel[e] = 0;
  check(hepex_me_sequence(bridge, events, momenta, gs, rndhel, rndcol, channel, igraph, me,
                          selhel, selcol) == HEPEX_ME_OK,
        "sequence");
  /* MadGraph's CUDACPP chooses no colour for igraph 0 (selcol 0); hepex
   * chooses among all flows there, as with igraph NULL. */
  check(hepex_me_sequence(bridge, events, momenta, gs, rndhel, rndcol, NULL, NULL, me_any,
                          selhel_any, selcol_any) == HEPEX_ME_OK,
        "sequence without igraph");
  for (e = 0; e < events; ++e) {
    const int expected_col = igraph[e] == 0 ? selcol_any[e] : ref_col[e];
    igraph_zero += igraph[e] == 0;
    worst = fmax(worst, fabs(me[e] / ref_me[e] - 1));
    mismatches += (selhel[e] != ref_hel[e]) + (selcol[e] != expected_col) +
                  (selcol[e] < 1 || selcol[e] > 24);
  }
  printf("C bridge gg_ttgg: %d events (%d with igraph 0), max relative error %.3g, %d choices "
         "unlike MadGraph's\n",
         events, igraph_zero, worst, mismatches);
  check(worst < 1e-12 && mismatches == 0 && igraph_zero > 0, "MadGraph's MEs and choices");

  /* With MadEvent's channel ids (the diagram of a configuration) the ME is
   * times MadGraph's multichannel weight (P_channel_weights_ref.txt, the
   * rows of stot 1.69e8 = 4 x 6500^2, the run card's). */
  {
    hepex_me* madevent = NULL;
    double weight[MAX_EVENTS];
    snprintf(path, sizeof path, "%s/madgraph/gg_ttgg_channel_weights_ref.txt", data);
    check(read_channels(path, channel, weight) == MAX_EVENTS, "read channel weights");
    snprintf(run_card, sizeof run_card, "%s/madgraph/run_card.dat", data);
    madevent = hepex_me_create_madevent("gg_ttgg", "double", card, run_card, MAX_EVENTS);
    check(madevent != NULL, "create with the run card");
    if (!madevent) return;
    check(hepex_me_sequence(madevent, events, momenta, gs, rndhel, rndcol, channel, igraph,
                            me_any, selhel_any, selcol_any) == HEPEX_ME_OK,
          "sequence with channels");
    worst = 0;
    for (e = 0; e < events; ++e) worst = fmax(worst, fabs(me_any[e] / me[e] / weight[e] - 1));
    printf("C bridge gg_ttgg: channel weights, max relative error %.3g\n", worst);
    check(worst < 1e-14, "MadGraph's channel weights");
    hepex_me_destroy(madevent);
  }

  /* Bad inputs, event 5: nothing may be written. */
  {
    struct {
      double* value;
      double bad;
      const char* message;
    } cases[] = {{&gs[5], NAN, "event 5: gs = nan"},
                 {&gs[5], -1.0, "event 5: gs = -1"},
                 {&rndhel[5], 1.0, "event 5: rndhel = 1 is not in [0, 1)"},
                 {&rndhel[5], -0.5, "event 5: rndhel = -0.5"},
                 {&rndcol[5], 1.5, "event 5: rndcol = 1.5"},
                 {&rndcol[5], NAN, "event 5: rndcol = nan"}};
    size_t c;
    for (c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
      const double saved = *cases[c].value;
      int k;
      *cases[c].value = cases[c].bad;
      for (k = 0; k < events; ++k) me[k] = -1, selhel[k] = selcol[k] = -1;
      check(hepex_me_sequence(bridge, events, momenta, gs, rndhel, rndcol, NULL, igraph, me,
                              selhel, selcol) == HEPEX_ME_INVALID_INPUT,
            cases[c].message);
      check(strstr(hepex_me_last_error(), cases[c].message) != NULL, cases[c].message);
      for (k = 0; k < events; ++k)
        check(me[k] == -1 && selhel[k] == -1 && selcol[k] == -1, "nothing written");
      *cases[c].value = saved;
    }
  }
  igraph[5] = 106;
  check(hepex_me_sequence(bridge, events, momenta, gs, rndhel, rndcol, NULL, igraph, me, selhel,
                          selcol) == HEPEX_ME_INVALID_INPUT &&
            strstr(hepex_me_last_error(), "event 5: igraph = 106") != NULL,
        "igraph out of range");
  igraph[5] = 1;
  channel[7] = 1; /* gg_ttgg's diagram 1 (a four-gluon vertex) is no channel */
  check(hepex_me_sequence(bridge, events, momenta, gs, rndhel, rndcol, channel, igraph, me,
                          selhel, selcol) == HEPEX_ME_INVALID_INPUT &&
            strstr(hepex_me_last_error(), "event 7: channel = 1: diagram 1") != NULL,
        "a diagram without a channel");
  channel[7] = 124;
  check(hepex_me_sequence(bridge, events, momenta, gs, rndhel, rndcol, channel, igraph, me,
                          selhel, selcol) == HEPEX_ME_INVALID_INPUT &&
            strstr(hepex_me_last_error(), "event 7: channel = 124 is not in [0, 123]") != NULL,
        "channel out of range");
  check(hepex_me_sequence(bridge, MAX_EVENTS + 1, momenta, gs, rndhel, rndcol, NULL, igraph, me,
                          selhel, selcol) == HEPEX_ME_INVALID_INPUT &&
            strstr(hepex_me_last_error(), "max_events") != NULL,
        "n too large");
  check(hepex_me_sequence(bridge, events, momenta, gs, rndhel, NULL, NULL, NULL, me, NULL, NULL) ==
                HEPEX_ME_INVALID_INPUT &&
            strstr(hepex_me_last_error(), "rndhel needs out_selhel") != NULL,
        "rndhel without out_selhel");
  hepex_me_destroy(bridge);
  snprintf(card, sizeof card, "%s/madgraph/no_such_card.dat", data);
  check(hepex_me_create_bridge("gg_ttgg", "double", card, MAX_EVENTS) == NULL &&
            strstr(hepex_me_last_error(), "no_such_card.dat") != NULL,
        "missing param card");
}

/* Four threads at once, on one shared handle and on one handle each (issue
 * 36: MEs from several threads were wrong, silently): every thread must get
 * MadGraph's MEs, and its own hepex_me_last_error. */
#define THREADS 4
static double thread_momenta[MAX_EVENTS * 6 * 4], thread_reference[MAX_EVENTS];
static hepex_me* shared_handle;

struct thread_result {
  int index;
  double worst;
  int errors;
};

static void* evaluate_on_a_thread(void* arg) {
  struct thread_result* r = (struct thread_result*)arg;
  static double bad[6 * 4];
  double me[MAX_EVENTS];
  int round, e;
  hepex_me* own = r->index % 2 ? hepex_me_create("gg_ttgg", "double") : NULL;
  hepex_me* handle = own ? own : shared_handle;
  r->worst = 0;
  r->errors = handle == NULL;
  for (round = 0; round < 4 && handle; ++round) {
    if (hepex_me_evaluate(handle, MAX_EVENTS, thread_momenta, me) != HEPEX_ME_OK) ++r->errors;
    for (e = 0; e < MAX_EVENTS; ++e) r->worst = fmax(r->worst, fabs(me[e] / thread_reference[e] - 1));
    /* A failing call on this thread: its message is this thread's. */
    if (hepex_me_evaluate(handle, 1, bad, me) != HEPEX_ME_INVALID_INPUT ||
        strstr(hepex_me_last_error(), "event 0") == NULL)
      ++r->errors;
  }
  if (own) hepex_me_destroy(own);
  return NULL;
}

static void check_threads(const char* data) {
  char path[1024];
  pthread_t threads[THREADS];
  struct thread_result results[THREADS];
  int t;
  snprintf(path, sizeof path, "%s/madgraph/gg_ttgg_onshell_ref.txt", data);
  check(read_events(path, 6, thread_momenta, thread_reference) == MAX_EVENTS, "read events");
  shared_handle = hepex_me_create("gg_ttgg", "double");
  check(shared_handle != NULL, "create the shared handle");
  for (t = 0; t < THREADS; ++t) {
    results[t].index = t;
    check(pthread_create(&threads[t], NULL, evaluate_on_a_thread, &results[t]) == 0, "thread");
  }
  for (t = 0; t < THREADS; ++t) {
    pthread_join(threads[t], NULL);
    printf("C API thread %d (%s handle): max relative error %.3g, %d errors\n", t,
           t % 2 ? "own" : "shared", results[t].worst, results[t].errors);
    check(results[t].worst < 1e-12 && results[t].errors == 0, "MEs from threads");
  }
  hepex_me_destroy(shared_handle);
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
  /* The registry's list: every name known to the message of an unknown one,
   * the test's processes among them with their particles, nothing beyond. */
  check(hepex_me_processes() >= 4, "registry size");
  for (p = 0; p < hepex_me_processes(); ++p) {
    const char* name = hepex_me_process_name(p);
    int q;
    check(name != NULL && strstr(hepex_me_last_error(), name) != NULL, "registry name listed");
    for (q = 0; q < 3; ++q)
      if (name != NULL && strcmp(name, processes[q]) == 0)
        check(hepex_me_process_particles(p) == 4 + q, "registry particles");
  }
  check(hepex_me_process_name(-1) == NULL && hepex_me_process_name(hepex_me_processes()) == NULL,
        "registry name out of range");
  check(hepex_me_process_particles(-1) == -1 &&
            hepex_me_process_particles(hepex_me_processes()) == -1,
        "registry particles out of range");
  /* MadEvent's channel ids: the CUDACPP processes', not the 3-jet ones' (MadGraph 3.1.1). */
  check(hepex_me_process_madevent(hepex_me_process_index("gg_tt")) == 1 &&
            hepex_me_process_madevent(hepex_me_process_index("uux_ttxgg")) == 1 &&
            hepex_me_process_madevent(hepex_me_process_index("uux_ttxggg")) == 0,
        "registry madevent");
  check(hepex_me_process_madevent(-1) == -1 &&
            hepex_me_process_madevent(hepex_me_processes()) == -1,
        "registry madevent out of range");
  check(hepex_me_create("gg_tt", "half") == NULL, "bad precision");
  check_bridge(argv[1]);
  check_threads(argv[1]);
  printf("%s\n", failures == 0 ? "C API: all checks passed" : "C API: CHECKS FAILED");
  return failures == 0 ? 0 : 1;
}
