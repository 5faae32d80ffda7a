#include "hepex/amplitudes/jobs.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <sstream>

#include "hepex/amplitudes/rambo.hpp"
#include "hepex/amplitudes/simd.hpp"
#include "hepex/config.hpp"
#include "hepex/core/error.hpp"
#include "hepex/core/runtime.hpp"

namespace hepex::amplitudes {

namespace {

std::string hexfloat(double x) {
  std::ostringstream text;
  text << std::hexfloat << x;
  return text.str();
}

}  // namespace

// Momenta and MEs in the device's memory, the MEs again in the host's.
void check_batch_memory(std::size_t events, const ProcessInfo& info) {
  const std::size_t per_event = (4 * static_cast<std::size_t>(info.particles) + 1) * sizeof(double);
  std::size_t limit = host_memory_bytes();
  const auto found = devices();
  if (has_accelerator && !found.empty()) limit = std::min(limit, found.front().memory_bytes);
  if (events <= limit / per_event) return;
  std::ostringstream message;
  message << std::setprecision(3) << "--events " << events << ": a batch needs "
          << static_cast<long double>(events) * per_event / (1u << 30)
          << " GiB for its momenta and MEs, more than the "
          << static_cast<double>(limit) / (1u << 30) << " GiB of memory";
  throw Error(message.str());
}

RamboBatchJobs::RamboBatchJobs(MatrixElement& me, RamboBatchSettings settings)
    : me_(me), settings_(settings) {
  check_batch_memory(settings_.events, me_.info());
}

std::string RamboBatchJobs::identity() const {
  const auto& o = me_.options();
  std::ostringstream identity;
  identity << "me\n"
           << me_.info().name << ' ' << settings_.events << ' ' << settings_.seed << ' '
           << hexfloat(settings_.sqrt_s) << ' ' << precision_name(o.precision) << ' '
           << static_cast<int>(o.colour_sum) << ' ' << settings_.batches << ' '
           << simd_name(o.simd)  // lane widths round differently
           << ' ' << hexfloat(o.parameters.top_mass) << ' ' << hexfloat(o.parameters.top_width)
           << ' ' << hexfloat(o.parameters.alpha_s);
  return identity.str();
}

RamboBatch RamboBatchJobs::evaluate(std::size_t batch) {
  const auto& info = me_.info();
  const std::size_t n = settings_.events;
  MomentaView<MatrixElement::Memory> momenta("hepex::me_momenta", n, info.particles, 4);
  rambo(DeviceSpace(), momenta, settings_.sqrt_s, settings_.seed, batch * n,
        me_.options().parameters.top_mass);
  Kokkos::View<double*, MatrixElement::Memory> values("hepex::me_values", n);
  DeviceSpace().fence();
  const auto start = std::chrono::steady_clock::now();
  me_.evaluate(momenta, values);
  RamboBatch result;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), values);
  for (std::size_t e = 0; e < n; ++e) result.sum += host(e);
  return result;
}

std::vector<RamboBatch> RamboBatchJobs::run(const std::vector<std::size_t>& jobs) {
  std::vector<RamboBatch> results;
  for (const std::size_t b : jobs) {
    results.push_back(evaluate(b));
    if (settings_.progress != nullptr) {
      *settings_.progress << "me: batch " << b + 1 << " of " << settings_.batches << ": "
                          << settings_.events << " events in " << results.back().seconds << " s\n";
    }
  }
  return results;
}

std::string RamboBatchJobs::encode(RamboBatch batch) const {
  return hexfloat(batch.sum) + ' ' + hexfloat(batch.seconds);
}

RamboBatch RamboBatchJobs::decode(std::string bytes) const {
  std::istringstream fields(bytes);
  std::string sum, seconds, rest;
  if (!(fields >> sum >> seconds) || (fields >> rest)) {
    throw Error("me job: not a result of this form", ErrorKind::runtime);
  }
  char* end = nullptr;
  RamboBatch batch;
  batch.sum = std::strtod(sum.c_str(), &end);
  if (*end != '\0') throw Error("me job: not a result of this form", ErrorKind::runtime);
  batch.seconds = std::strtod(seconds.c_str(), &end);
  if (*end != '\0') throw Error("me job: not a result of this form", ErrorKind::runtime);
  return batch;
}

}  // namespace hepex::amplitudes
