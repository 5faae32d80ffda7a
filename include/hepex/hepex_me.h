/* hepex matrix elements from C, Fortran (ISO_C_BINDING) and other languages:
 * LO |M|^2 of g g -> t tbar + 0..3 gluons, summed over helicities and colours
 * and averaged as MadGraph does (include/hepex/amplitudes/matrix_element.hpp).
 *
 *   hepex_me* me = hepex_me_create("gg_ttg", "double");
 *   if (!me) fprintf(stderr, "%s\n", hepex_me_last_error());
 *   int rc = hepex_me_evaluate(me, n, momenta, out);   // HEPEX_ME_OK = 0
 *   hepex_me_destroy(me);
 *
 * momenta: n_events * particles * 4 doubles, event-major, (E, px, py, pz) in
 * GeV per particle in the order g g t tbar g...; every event is checked (on
 * shell, momentum conserved, finite) before any work. Kokkos is initialised by
 * the first hepex_me_create if the program has not done so, and finalised at
 * exit: destroy every handle before the program ends. Any thread may call
 * these functions, on one handle or several: hepex runs the evaluations one
 * after the other, and hepex_me_last_error is the calling thread's.
 *
 * For event generators, the call sequence of CUDACPP's Fortran bridge
 * (MadEvent's auto_dsig1.f; docs/madevent.md): hepex_me_create_bridge with
 * the run's param_card.dat and the most events per call, then per batch
 * hepex_me_sequence with each event's strong coupling gs and uniform random
 * numbers, giving each event's ME and the helicity and colour flow chosen for
 * it as MadGraph chooses them; hepex_fbridge.h offers the bridge's own
 * Fortran entry points (fbridgecreate_, ...) over these. */
#ifndef HEPEX_HEPEX_ME_H
#define HEPEX_HEPEX_ME_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hepex_me hepex_me;

/* Return codes, the same as the hepex CLI's exit codes. */
enum { HEPEX_ME_OK = 0, HEPEX_ME_INVALID_INPUT = 1, HEPEX_ME_RUNTIME_ERROR = 2 };

/* The processes this library has (its process registry): their number, and
 * the name and particles of process i (0 <= i < hepex_me_processes(); NULL and
 * -1 otherwise). Names as MadGraph's subprocesses without P1_: "gg_ttgg". */
int hepex_me_processes(void);
const char* hepex_me_process_name(int i);
int hepex_me_process_particles(int i);

/* 1 if MadEvent may call process i through the Fortran bridge (its diagram
 * numbers, MadEvent's channel ids, are those of the MadGraph that CUDACPP
 * serves); 0 for one whose tables come from another MadGraph (the 3-jet
 * subprocesses: MadGraph 3.1.1); -1 for i out of range. */
int hepex_me_process_madevent(int i);

/* The index i of the process named `name` (a name of hepex_me_process_name
 * or MadGraph's alias of one: "gg_ttx" for gg_tt); -1 for an unknown name or
 * NULL. */
int hepex_me_process_index(const char* name);

/* process: a name of hepex_me_process_name (an unknown one: NULL, and
 * hepex_me_last_error lists the known ones);
 * precision: "double" | "float" | "mixed". NULL on failure. */
hepex_me* hepex_me_create(const char* process, const char* precision);

/* Particles per event of the handle's process; -1 for NULL. */
int hepex_me_particles(const hepex_me* handle);

/* Writes n_events MEs to out_me; a HEPEX_ME_* code. */
int hepex_me_evaluate(hepex_me* handle, int n_events, const double* momenta, double* out_me);

/* Like hepex_me_create, with the top mass, top width and alpha_s of a MadGraph
 * param_card.dat (NULL: MT 173, WT 1.4915, aS 0.118) and at most max_events
 * events per hepex_me_sequence (> 0). NULL on failure. */
hepex_me* hepex_me_create_bridge(const char* process, const char* precision, const char* param_card,
                                 int max_events);

/* Like hepex_me_create_bridge, with MadEvent's run_card.dat too (NULL: none):
 * the collider's s and tmin_for_channel of the multichannel weights
 * (hepex_me_sequence's channel; docs/madevent.md). NULL on failure. */
hepex_me* hepex_me_create_madevent(const char* process, const char* precision,
                                   const char* param_card, const char* run_card, int max_events);

/* One batch of 1..max_events events, as CUDACPP's fbridgesequence:
 *   gs      the event's strong coupling (> 0; NULL: sqrt(4 pi aS) of the card);
 *   rndhel  uniform in [0, 1): the helicity is chosen into out_selhel (the
 *           1-based MadGraph helicity), with probability |M_h|^2 / |M|^2;
 *           NULL: none (out_selhel may be NULL);
 *   rndcol  uniform in [0, 1): the colour flow is chosen into out_selcol
 *           (1-based), with probability proportional to |jamp_i|^2 over the
 *           flows that configuration igraph allows (MadGraph's icolamp;
 *           igraph 0 or NULL: the channel's configuration, else every
 *           flow); NULL: none (out_selcol may be NULL);
 *   channel MadEvent's channel ids (the diagram of an integration
 *           configuration, 1..diagrams of the process): out_me is the ME
 *           times the channel's multichannel weight, MadGraph's
 *           sde_strategy 2 (docs/madevent.md); 0 or NULL: the ME alone.
 * Every input is checked first: on an error (HEPEX_ME_INVALID_INPUT, with
 * the event and value in hepex_me_last_error) nothing is written. */
int hepex_me_sequence(hepex_me* handle, int n_events, const double* momenta, const double* gs,
                      const double* rndhel, const double* rndcol, const int* channel,
                      const int* igraph, double* out_me, int* out_selhel, int* out_selcol);

/* The helicities with a non-zero |M|^2 and all helicities of the process. */
int hepex_me_helicities(const hepex_me* handle, int* good, int* total);

/* The handle's max_events (0 for hepex_me_create: no limit). */
int hepex_me_max_events(const hepex_me* handle, int* max_events);

void hepex_me_destroy(hepex_me* handle);

/* The message of the last failed call ("" if none). */
const char* hepex_me_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* HEPEX_HEPEX_ME_H */
