// The C API of include/hepex/hepex_me.h over amplitudes::MatrixElement.
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/core/error.hpp"
#include "hepex/hepex_me.h"

struct hepex_me {
  std::unique_ptr<hepex::amplitudes::MatrixElement> me;
  int max_events = 0;  // 0: no limit (hepex_me_create)
};

namespace {

// Per thread, so that each caller reads its own call's message.
thread_local std::string last_error;

// Runs `body`, turning exceptions into a return code and last_error.
template <class Body>
int guarded(Body&& body) {
  try {
    body();
    last_error.clear();
    return HEPEX_ME_OK;
  } catch (const hepex::Error& e) {
    last_error = e.what();
    return e.kind() == hepex::ErrorKind::invalid_input ? HEPEX_ME_INVALID_INPUT
                                                       : HEPEX_ME_RUNTIME_ERROR;
  } catch (const std::exception& e) {
    last_error = std::string("runtime failure: ") + e.what();
    return HEPEX_ME_RUNTIME_ERROR;
  }
}

// Once, whichever thread creates the first handle.
void ensure_kokkos() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (Kokkos::is_initialized()) return;
    Kokkos::initialize();
    std::atexit([] {
      if (Kokkos::is_initialized()) Kokkos::finalize();
    });
  });
}

}  // namespace

extern "C" {

int hepex_me_processes(void) { return hepex::amplitudes::process_count; }

const char* hepex_me_process_name(int i) {
  if (i < 0 || i >= hepex::amplitudes::process_count) return nullptr;
  return hepex::amplitudes::process_info(hepex::amplitudes::all_processes()[i]).name;
}

int hepex_me_process_particles(int i) {
  if (i < 0 || i >= hepex::amplitudes::process_count) return -1;
  return hepex::amplitudes::process_info(hepex::amplitudes::all_processes()[i]).particles;
}

int hepex_me_process_madevent(int i) {
  if (i < 0 || i >= hepex::amplitudes::process_count) return -1;
  return hepex::amplitudes::process_info(hepex::amplitudes::all_processes()[i]).madevent ? 1 : 0;
}

int hepex_me_process_index(const char* name) {
  if (name == nullptr) return -1;
  for (int i = 0; i < hepex::amplitudes::process_count; ++i) {
    if (std::string(name) ==
        hepex::amplitudes::process_info(hepex::amplitudes::all_processes()[i]).name)
      return i;
  }
  for (const auto& alias : hepex::amplitudes::process_aliases) {
    if (std::string(name) == alias.name) return static_cast<int>(alias.process);
  }
  return -1;
}

hepex_me* hepex_me_create_madevent(const char* process, const char* precision,
                                   const char* param_card, const char* run_card, int max_events) {
  hepex_me* handle = nullptr;
  guarded([&] {
    if (process == nullptr || precision == nullptr)
      throw hepex::Error("process or precision is NULL");
    if (max_events < 0) {
      throw hepex::Error("max_events = " + std::to_string(max_events) + " must be positive");
    }
    const auto p = hepex::amplitudes::parse_process(process);
    hepex::amplitudes::MatrixElementOptions options;
    options.precision = hepex::amplitudes::parse_precision(precision);
    if (param_card != nullptr) options.parameters = hepex::amplitudes::read_param_card(param_card);
    if (run_card != nullptr) options.run = hepex::amplitudes::read_run_card(run_card);
    ensure_kokkos();
    auto me = std::make_unique<hepex::amplitudes::MatrixElement>(p, options);
    handle = new hepex_me{std::move(me), max_events};
  });
  return handle;
}

hepex_me* hepex_me_create_bridge(const char* process, const char* precision, const char* param_card,
                                 int max_events) {
  return hepex_me_create_madevent(process, precision, param_card, nullptr, max_events);
}

hepex_me* hepex_me_create(const char* process, const char* precision) {
  return hepex_me_create_bridge(process, precision, nullptr, 0);
}

int hepex_me_particles(const hepex_me* handle) {
  return handle == nullptr ? -1 : handle->me->info().particles;
}

int hepex_me_evaluate(hepex_me* handle, int n_events, const double* momenta, double* out_me) {
  return guarded([&] {
    if (handle == nullptr || momenta == nullptr || out_me == nullptr) {
      throw hepex::Error("hepex_me_evaluate: handle, momenta or out_me is NULL");
    }
    if (n_events <= 0 || (handle->max_events > 0 && n_events > handle->max_events)) {
      throw hepex::Error("hepex_me_evaluate: n_events = " + std::to_string(n_events) +
                         " must be positive (and at most the bridge's max_events)");
    }
    const std::size_t values = std::size_t(n_events) * 4 * handle->me->info().particles;
    const auto me = handle->me->evaluate(std::vector<double>(momenta, momenta + values));
    std::copy(me.begin(), me.end(), out_me);
  });
}

int hepex_me_sequence(hepex_me* handle, int n_events, const double* momenta, const double* gs,
                      const double* rndhel, const double* rndcol, const int* channel,
                      const int* igraph, double* out_me, int* out_selhel, int* out_selcol) {
  return guarded([&] {
    if (handle == nullptr || momenta == nullptr || out_me == nullptr) {
      throw hepex::Error("hepex_me_sequence: handle, momenta or out_me is NULL");
    }
    if (n_events <= 0 || (handle->max_events > 0 && n_events > handle->max_events)) {
      throw hepex::Error("hepex_me_sequence: n_events = " + std::to_string(n_events) +
                         " must be in [1, " + std::to_string(handle->max_events) +
                         "], the bridge's max_events");
    }
    if ((rndhel != nullptr && out_selhel == nullptr) ||
        (rndcol != nullptr && out_selcol == nullptr)) {
      throw hepex::Error("hepex_me_sequence: rndhel needs out_selhel, rndcol needs out_selcol");
    }
    if (igraph != nullptr && rndcol == nullptr) {
      throw hepex::Error("hepex_me_sequence: igraph without rndcol");
    }
    const std::size_t events = std::size_t(n_events);
    const auto vector = [&](const auto* p) {
      using T = std::remove_cv_t<std::remove_pointer_t<decltype(p)>>;
      return p == nullptr ? std::vector<T>() : std::vector<T>(p, p + events);
    };
    hepex::amplitudes::EventInputs inputs{vector(gs), vector(rndhel), vector(rndcol),
                                          vector(igraph), vector(channel)};
    const std::size_t values = events * 4 * handle->me->info().particles;
    const auto results =
        handle->me->evaluate(std::vector<double>(momenta, momenta + values), inputs);
    std::copy(results.me.begin(), results.me.end(), out_me);
    std::copy(results.selhel.begin(), results.selhel.end(), out_selhel);
    std::copy(results.selcol.begin(), results.selcol.end(), out_selcol);
  });
}

int hepex_me_helicities(const hepex_me* handle, int* good, int* total) {
  return guarded([&] {
    if (handle == nullptr || good == nullptr || total == nullptr) {
      throw hepex::Error("hepex_me_helicities: handle, good or total is NULL");
    }
    *good = static_cast<int>(handle->me->good_helicities().size());
    *total = handle->me->info().helicity_combinations;
  });
}

int hepex_me_max_events(const hepex_me* handle, int* max_events) {
  return guarded([&] {
    if (handle == nullptr || max_events == nullptr) {
      throw hepex::Error("hepex_me_max_events: handle or max_events is NULL");
    }
    *max_events = handle->max_events;
  });
}

void hepex_me_destroy(hepex_me* handle) { delete handle; }

const char* hepex_me_last_error(void) { return last_error.c_str(); }

}  // extern "C"
