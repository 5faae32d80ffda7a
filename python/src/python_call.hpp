#pragma once
// How the bindings run hepex work, and how long Kokkos lives.
//
// PythonCall, at the top of every binding that reaches Kokkos:
//  * takes the process-wide Kokkos lock (hepex/core/kokkos_lock.hpp), with
//    the GIL released while it waits, so that calls from several Python
//    threads are serialised and never deadlock with a black box that needs
//    the GIL inside reconstruct();
//  * watches the call's progress: Ctrl-C is polled every 0.1 s of hepex
//    work (KeyboardInterrupt within a second, however long the call), and
//    each progress report goes to the user's callback, if any.
// The binding still releases the GIL around its long parts.
//
// KokkosHold, a member of every Python object that owns Kokkos memory, keeps
// Kokkos initialised while the object lives: Kokkos is finalised at
// interpreter exit, or after it, when the last such object goes (freeing
// Kokkos memory after Kokkos::finalize aborts the program).

#include <pybind11/pybind11.h>

#include <optional>

#include "hepex/core/kokkos_lock.hpp"
#include "hepex/core/progress.hpp"

namespace hepex::python {

namespace py = pybind11;

class PythonCall {
 public:
  // progress: None, or a callable taking (task, stage, done, total, unit,
  // seconds, rate, eta); what it raises ends the call.
  explicit PythonCall(const py::object& progress = py::none());
  PythonCall(const PythonCall&) = delete;
  PythonCall& operator=(const PythonCall&) = delete;

 private:
  std::optional<KokkosLock> lock_;
  std::optional<ProgressWatch> watch_;
};

class KokkosHold {
 public:
  KokkosHold();
  KokkosHold(const KokkosHold&);
  KokkosHold& operator=(const KokkosHold&) { return *this; }
  ~KokkosHold();
};

// Kokkos for the module: started on import; finish_kokkos() at interpreter
// exit finalises it once no KokkosHold is left (else the last one does).
void start_kokkos();
void finish_kokkos();

}  // namespace hepex::python
