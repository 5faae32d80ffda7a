# Kokkos discovery for hepex (used by the build and by the
# installed hepexConfig.cmake, so a consumer finds Kokkos the same way).
#
# Two layouts are supported unchanged:
#  * a standard Kokkos >= 4 install (-DKokkos_ROOT=...), e.g. with CUDA or HIP:
#    target Kokkos::kokkos;
#  * Debian 12's libtrilinos-kokkos-dev (Kokkos 3.4.01, TriBITS layout): targets
#    trilinos_kokkoscore, headers in
#    <prefix>/include/trilinos, and a Kokkos::kokkos whose include path points
#    at a non-existent <prefix>/lib/include, repaired here.
#
# Results:
#   HEPEX_KOKKOS_LAYOUT           "standard" or "tribits"

set(HEPEX_MIN_KOKKOS_VERSION 3.4.01)

macro(hepex_find_kokkos)
  # Kokkos' installed configurations refuse compiler extensions (gnu++17).
  set(CMAKE_CXX_EXTENSIONS OFF)
  find_package(Kokkos CONFIG REQUIRED)
  if(Kokkos_VERSION VERSION_LESS HEPEX_MIN_KOKKOS_VERSION)
    message(FATAL_ERROR
      "hepex needs Kokkos >= ${HEPEX_MIN_KOKKOS_VERSION}; found ${Kokkos_VERSION} "
      "in ${Kokkos_DIR}. Point -DKokkos_ROOT at a newer install.")
  endif()

  if(TARGET trilinos_kokkoscore)
    set(HEPEX_KOKKOS_LAYOUT tribits)
    _hepex_repair_tribits_kokkos_target()
  else()
    set(HEPEX_KOKKOS_LAYOUT standard)
  endif()
endmacro()

# Debian's TriBITS Kokkos::kokkos points its include path at <prefix>/lib/include,
# which does not exist (CMake rejects such imported targets at generate time),
# and carries a stray "-DKOKKOS_DEPENDENCE" in its link line. Kokkos_INCLUDE_DIRS
# from the same config file is right: use it.
macro(_hepex_repair_tribits_kokkos_target)
  set(_hepex_kokkos_includes "")
  foreach(_dir IN LISTS Kokkos_INCLUDE_DIRS)
    get_filename_component(_dir "${_dir}" REALPATH)
    list(APPEND _hepex_kokkos_includes "${_dir}")
  endforeach()
  if(NOT _hepex_kokkos_includes OR NOT EXISTS "${_hepex_kokkos_includes}/Kokkos_Core.hpp")
    message(FATAL_ERROR
      "Kokkos (TriBITS layout, ${Kokkos_DIR}): Kokkos_Core.hpp not found in "
      "'${Kokkos_INCLUDE_DIRS}'. Is libtrilinos-kokkos-dev installed completely?")
  endif()
  set_property(TARGET Kokkos::kokkos PROPERTY
    INTERFACE_INCLUDE_DIRECTORIES "${_hepex_kokkos_includes}")
  set_property(TARGET Kokkos::kokkos PROPERTY
    INTERFACE_LINK_LIBRARIES "${Kokkos_LIBRARIES}")
endmacro()
