#include "python_call.hpp"

#include <atomic>
#include <mutex>

#include "hepex/core/runtime.hpp"

namespace hepex::python {

PythonCall::PythonCall(const py::object& progress) {
  {
    py::gil_scoped_release release;  // another thread may hold the lock and want the GIL
    lock_.emplace();
  }
  ProgressWatch::Hooks hooks;
  hooks.poll = [] {
    py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  };
  if (!progress.is_none()) {
    hooks.report = [progress](const Progress& p) {
      py::gil_scoped_acquire gil;
      progress(p.task, p.stage, p.done, p.total, p.unit, p.seconds, p.rate(), p.eta_seconds());
    };
  }
  watch_.emplace(std::move(hooks));
}

namespace {

std::mutex runtime_mutex;
Runtime* runtime = nullptr;  // guarded by runtime_mutex
std::size_t holds = 0;       // live KokkosHolds, guarded by runtime_mutex
bool exiting = false;        // the interpreter has begun to exit

void finalise_if_done() {  // with runtime_mutex held
  if (exiting && holds == 0 && runtime != nullptr) {
    delete runtime;
    runtime = nullptr;
  }
}

}  // namespace

KokkosHold::KokkosHold() {
  const std::lock_guard<std::mutex> lock(runtime_mutex);
  ++holds;
}

KokkosHold::KokkosHold(const KokkosHold&) : KokkosHold() {}

KokkosHold::~KokkosHold() {
  const std::lock_guard<std::mutex> lock(runtime_mutex);
  --holds;
  finalise_if_done();
}

void start_kokkos() {
  static int argc = 1;
  static char name[] = "hepex";
  static char* argv[] = {name, nullptr};
  const std::lock_guard<std::mutex> lock(runtime_mutex);
  if (runtime == nullptr) runtime = new Runtime(argc, argv);
}

void finish_kokkos() {
  const std::lock_guard<std::mutex> lock(runtime_mutex);
  exiting = true;
  finalise_if_done();
}

}  // namespace hepex::python
