# ctest driver for the CLI contract (docs CLI.md): output shapes and exit codes.
if(NOT DEFINED HEPEX)
  message(FATAL_ERROR "test_cli.cmake: HEPEX (the hepex executable) is not set")
endif()

# expect(<exit code> <regex on stdout+stderr> args...)
function(expect code pattern)
  execute_process(COMMAND "${HEPEX}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL code)
    message(FATAL_ERROR "hepex ${ARGN}: exit ${rc}, expected ${code}\n${out}\n${err}")
  endif()
  if(NOT "${out}${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "hepex ${ARGN}: output does not match '${pattern}':\n${out}\n${err}")
  endif()
  message(STATUS "ok: hepex ${ARGN} -> ${rc}")
endfunction()

set(json "${CMAKE_CURRENT_BINARY_DIR}/cli_demo.json")
file(REMOVE "${json}")

expect(0 "^hepex [0-9]+\\.[0-9]+\\.[0-9]+ \\(Kokkos [0-9]+\\.[0-9]+\\.[0-9]+; backends: [A-Za-z, ]+\\)\n$"
       --version)
expect(0 "Kokkos: +[0-9.]+\nexecution spaces: .*devices:\n  \\[0\\] .*GiB.*MPI: .*BLAS paths: "
       info)
expect(0 "Zp32 .*Zp64 .*Real64 .*Complex128 .*all checks passed" demo --cases 5000)
expect(0 "backend host" demo --backend host --cases 1000 --json "${json}")
expect(1 "backend" demo --backend gpu)
expect(1 "cases" demo --cases 0)
expect(1 "" no-such-command)
expect(1 "" demo --no-such-flag)

file(READ "${json}" text)
if(NOT text MATCHES "\"failures\": 0" OR NOT text MATCHES "\"backend\": \"host\"")
  message(FATAL_ERROR "demo --json wrote:\n${text}")
endif()
