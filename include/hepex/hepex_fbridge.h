/* CUDACPP's Fortran bridge (madgraph4gpu, SubProcesses/fbridge.cc and
 * fbridge.inc), over hepex's C API (hepex_me.h): the entry points MadEvent's
 * auto_dsig1.f calls, with the same names and arguments, so that a MadEvent
 * build of any subprocess hepex has (hepex_me_process_name: g g -> t tbar +
 * 0..3 gluons and the subprocesses of p p -> t tbar + 0..2 jets) switches to
 * hepex by linking libhepex_fbridge and libhepex instead of CUDACPP's library
 * (docs/madevent.md). Fortran passes every argument by reference.
 *
 * The process is HEPEX_PROCESS where set, else the subprocess of the
 * directory MadEvent runs in (the executable's directory, the working
 * directory or its parent named P<n>_<subprocess>, as CUDACPP builds one
 * library per subprocess directory: P2_gu_ttxgu is gu_ttxgu, P1_gg_ttx is
 * gg_tt), else the one process with npar particles; it must have npar
 * particles. The precision
 * from the environment variable HEPEX_PRECISION (double, float or mixed;
 * default double), the parameters from the run's param_card.dat and
 * run_card.dat: those named by HEPEX_PARAM_CARD and HEPEX_RUN_CARD (default:
 * run_card.dat beside the param card), else the Cards directory where
 * CUDACPP finds it (../Cards, ../../Cards, $MG5AMC_CARD_PATH, then ../Cards
 * and ../../Cards beside the executable). A channel id other than 0
 * multiplies the ME by the channel's multichannel weight (docs/madevent.md).
 * Every entry point leaves the caller's floating-point environment (its
 * exception flags) as it found it. Fortran has no error return here: an
 * error (a missing card, bad inputs) prints "hepex fbridge: ..." to stderr
 * and exits with status 1 before anything is written, where CUDACPP throws. */
#ifndef HEPEX_HEPEX_FBRIDGE_H
#define HEPEX_HEPEX_FBRIDGE_H

#include <stdbool.h>

#include "hepex/hepex_me.h"

#ifdef __cplusplus
extern "C" {
#endif

/* PBRIDGE (INTEGER*8 in Fortran) receives the handle; nevt events per call. */
void fbridgecreate_(hepex_me** bridge, const int* nevt, const int* npar, const int* np4);
void fbridgedelete_(hepex_me** bridge);

/* momenta(0:3, npar, nevt); gs, rndhel, rndcol, channel_ids, igraph per
 * event; mes, selhel, selcol out. helonly: CUDACPP's first call that only
 * finds the good helicities (hepex finds them at creation): returns at once. */
void fbridgesequence_(hepex_me** bridge, const double* momenta, const double* gs,
                      const double* rndhel, const double* rndcol, const unsigned int* channel_ids,
                      const int* igraph, double* mes, int* selhel, int* selcol,
                      const bool* helonly);
void fbridgesequence_nomultichannel_(hepex_me** bridge, const double* momenta, const double* gs,
                                     const double* rndhel, const double* rndcol, const int* igraph,
                                     double* mes, int* selhel, int* selcol, const bool* helonly);
void fbridgegetngoodhel_(hepex_me** bridge, unsigned int* ngoodhel, unsigned int* ntothel);

#ifdef __cplusplus
}
#endif

#endif /* HEPEX_HEPEX_FBRIDGE_H */
