#pragma once
// The names of the Kokkos kernels launched while a KernelLog lives, through
// Kokkos' tool callbacks: lets a test observe which path a library call took
// (which Vandermonde solve, whether a conversion ran again) without any
// hook in the library. One KernelLog at a time; kernels are launched from
// the test's thread.

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "hepex/core/kokkos_compat.hpp"

namespace hepex::test {

class KernelLog {
 public:
  KernelLog() : saved_(Kokkos::Tools::Experimental::get_callbacks()) {
    names().clear();
    Kokkos::Tools::Experimental::set_begin_parallel_for_callback(&record);
    Kokkos::Tools::Experimental::set_begin_parallel_reduce_callback(&record);
    Kokkos::Tools::Experimental::set_begin_parallel_scan_callback(&record);
  }
  ~KernelLog() { Kokkos::Tools::Experimental::set_callbacks(saved_); }
  KernelLog(const KernelLog&) = delete;
  KernelLog& operator=(const KernelLog&) = delete;

  // Launches so far whose name is one of `labels`.
  std::size_t count(std::initializer_list<const char*> labels) const {
    std::size_t n = 0;
    for (const auto& name : names())
      for (const char* label : labels) n += name == label;
    return n;
  }
  // Launches so far whose name starts with `prefix`.
  std::size_t count_prefix(const std::string& prefix) const {
    return static_cast<std::size_t>(
        std::count_if(names().begin(), names().end(),
                      [&](const std::string& n) { return n.rfind(prefix, 0) == 0; }));
  }
  std::size_t launches() const { return names().size(); }
  void clear() { names().clear(); }

 private:
  static std::vector<std::string>& names() {
    static std::vector<std::string> all;
    return all;
  }
  static void record(const char* name, const std::uint32_t, std::uint64_t* id) {
    names().emplace_back(name);
    *id = names().size();
  }
  Kokkos::Tools::Experimental::EventSet saved_;
};

}  // namespace hepex::test
