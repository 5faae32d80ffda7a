#include "hepex/core/runtime.hpp"

#include <algorithm>
#include <sstream>
#include <string>

#include "hepex/backend/device_query.hpp"
#include "hepex/backend/gemm.hpp"
#include "hepex/config.hpp"
#include "hepex/core/kokkos_compat.hpp"
#include "hepex/version.hpp"

#if HEPEX_HAS_MPI
#include <mpi.h>
#endif

namespace hepex {

Runtime::Runtime(int& argc, char* argv[], int device_id) {
  if (Kokkos::is_initialized()) return;
  // Kokkos gets the --kokkos-* options only (and the device unless given):
  // Kokkos 3 also takes --threads, --numa, --device ... and fails on them
  // with its own message (exit 2), where they are simply not hepex's options
  // (CLI11: exit 1). What Kokkos leaves of its options goes back to argv.
  const auto is_kokkos = [](const char* a) { return std::string(a).rfind("--kokkos-", 0) == 0; };
  std::vector<char*> args{argv[0]}, rest;
  bool options_end = false;
  for (int i = 1; i < argc; ++i) {
    options_end = options_end || std::string(argv[i]) == "--";
    (!options_end && is_kokkos(argv[i]) ? args : rest).push_back(argv[i]);
  }
  std::string device_option = "--kokkos-device-id=" + std::to_string(device_id);
  const bool given = std::any_of(args.begin(), args.end(), [](const char* a) {
    return std::string(a).rfind("--kokkos-device-id", 0) == 0;
  });
  if (device_id >= 0 && !given) args.push_back(device_option.data());
  int count = static_cast<int>(args.size());
  args.push_back(nullptr);
  Kokkos::initialize(count, args.data());
  argc = 1;
  for (char* a : rest) argv[argc++] = a;
  for (int i = 1; i < count; ++i) {
    if (args[i] != device_option.data()) argv[argc++] = args[i];
  }
  argv[argc] = nullptr;
  owns_kokkos_ = true;
}

Runtime::~Runtime() {
  if (owns_kokkos_) Kokkos::finalize();
}

namespace {

std::vector<std::string> enabled_exec_spaces() {
  std::vector<std::string> spaces;
#ifdef KOKKOS_ENABLE_CUDA
  spaces.emplace_back("Cuda");
#endif
#ifdef KOKKOS_ENABLE_HIP
  spaces.emplace_back("HIP");
#endif
#ifdef KOKKOS_ENABLE_SYCL
  spaces.emplace_back("SYCL");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  spaces.emplace_back("OpenMP");
#endif
#ifdef KOKKOS_ENABLE_THREADS
  spaces.emplace_back("Threads");
#endif
#ifdef KOKKOS_ENABLE_SERIAL
  spaces.emplace_back("Serial");
#endif
  return spaces;
}

std::vector<std::string> blas_paths() {
  std::vector<std::string> paths{"host: CBLAS DGEMM, int8 products as loops"};
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP)
  paths.emplace_back(std::string("device: ") + backend::device_gemm_library() +
                     " (DGEMM; int8 GEMM on the integer units) on the caller's stream");
#endif
  return paths;
}

std::string mpi_library_version() {
#if HEPEX_HAS_MPI
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);  // allowed before MPI_Init
  std::string version(text, static_cast<std::size_t>(length));
  return version.substr(0, version.find_first_of(",\n"));
#else
  return {};
#endif
}

}  // namespace

BuildInfo build_info() {
  BuildInfo info;
  info.hepex_version = HEPEX_VERSION_STRING;
  info.kokkos_version = std::to_string(compat::kokkos_major) + "." +
                        std::to_string(compat::kokkos_minor) + "." +
                        std::to_string(compat::kokkos_patch);
  info.exec_spaces = enabled_exec_spaces();
  info.default_space = Kokkos::DefaultExecutionSpace::name();
  info.mpi = HEPEX_HAS_MPI != 0;
  info.mpi_library = mpi_library_version();
  info.blas_paths = blas_paths();
  return info;
}

std::vector<DeviceInfo> devices() { return backend::query_devices(); }

std::size_t host_memory_bytes() { return backend::host_memory_bytes(); }

std::string version_line() {
  const BuildInfo info = build_info();
  std::ostringstream line;
  line << "hepex " << info.hepex_version << " (Kokkos " << info.kokkos_version << "; backends: ";
  for (std::size_t i = 0; i < info.exec_spaces.size(); ++i) {
    line << (i ? ", " : "") << info.exec_spaces[i];
  }
  line << ")";
  return line.str();
}

}  // namespace hepex
