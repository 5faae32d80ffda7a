// The C API of include/hepex/hepex_me.h over amplitudes::MatrixElement.
#include <cstdlib>
#include <memory>
#include <string>

#include "hepex/amplitudes/matrix_element.hpp"
#include "hepex/core/error.hpp"
#include "hepex/hepex_me.h"

struct hepex_me {
  std::unique_ptr<hepex::amplitudes::MatrixElement> me;
};

namespace {

std::string last_error;

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

void ensure_kokkos() {
  if (Kokkos::is_initialized()) return;
  Kokkos::initialize();
  std::atexit([] {
    if (Kokkos::is_initialized()) Kokkos::finalize();
  });
}

}  // namespace

extern "C" {

hepex_me* hepex_me_create(const char* process, const char* precision) {
  hepex_me* handle = nullptr;
  guarded([&] {
    if (process == nullptr || precision == nullptr)
      throw hepex::Error("process or precision is NULL");
    const auto p = hepex::amplitudes::parse_process(process);
    hepex::amplitudes::MatrixElementOptions options;
    options.precision = hepex::amplitudes::parse_precision(precision);
    ensure_kokkos();
    auto me = std::make_unique<hepex::amplitudes::MatrixElement>(p, options);
    handle = new hepex_me{std::move(me)};
  });
  return handle;
}

int hepex_me_particles(const hepex_me* handle) {
  return handle == nullptr ? -1 : handle->me->info().particles;
}

int hepex_me_evaluate(hepex_me* handle, int n_events, const double* momenta, double* out_me) {
  return guarded([&] {
    if (handle == nullptr || momenta == nullptr || out_me == nullptr) {
      throw hepex::Error("hepex_me_evaluate: handle, momenta or out_me is NULL");
    }
    if (n_events <= 0) {
      throw hepex::Error("hepex_me_evaluate: n_events = " + std::to_string(n_events) +
                         " must be positive");
    }
    const std::size_t values = std::size_t(n_events) * 4 * handle->me->info().particles;
    const auto me = handle->me->evaluate(std::vector<double>(momenta, momenta + values));
    std::copy(me.begin(), me.end(), out_me);
  });
}

void hepex_me_destroy(hepex_me* handle) { delete handle; }

const char* hepex_me_last_error(void) { return last_error.c_str(); }

}  // extern "C"
