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
 * exit: destroy every handle before the program ends. Not thread safe. */
#ifndef HEPEX_HEPEX_ME_H
#define HEPEX_HEPEX_ME_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hepex_me hepex_me;

/* Return codes, the same as the hepex CLI's exit codes. */
enum { HEPEX_ME_OK = 0, HEPEX_ME_INVALID_INPUT = 1, HEPEX_ME_RUNTIME_ERROR = 2 };

/* process: "gg_tt" | "gg_ttg" | "gg_ttgg" | "gg_ttggg";
 * precision: "double" | "float" | "mixed". NULL on failure. */
hepex_me* hepex_me_create(const char* process, const char* precision);

/* Particles per event (4..7) of the handle's process; -1 for NULL. */
int hepex_me_particles(const hepex_me* handle);

/* Writes n_events MEs to out_me; a HEPEX_ME_* code. */
int hepex_me_evaluate(hepex_me* handle, int n_events, const double* momenta, double* out_me);

void hepex_me_destroy(hepex_me* handle);

/* The message of the last failed call ("" if none). */
const char* hepex_me_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* HEPEX_HEPEX_ME_H */
