# ctest driver: install hepex from the build tree into a scratch prefix, build
# tests/consumer against it as a separate project, run it, check its output.
foreach(var HEPEX_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR CXX_COMPILER KOKKOS_DIR GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_consumer_test.cmake: ${var} is not set")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
run(${CMAKE_COMMAND} --install "${HEPEX_BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
run(${CMAKE_COMMAND} -S "${CONSUMER_SOURCE_DIR}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
    -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
    "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix"
    "-DKokkos_DIR=${KOKKOS_DIR}")
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run("${WORK_DIR}/build/consumer")
message(STATUS "consumer output:\n${last_output}")
if(NOT last_output STREQUAL "999999 -22/7\n")
  message(FATAL_ERROR "unexpected consumer output:\n${last_output}")
endif()

# The installed Python package imports from the prefix alone.
if(PYTHON)
  run(${CMAKE_COMMAND} -E env "PYTHONPATH=${WORK_DIR}/prefix/${PYTHON_DIR}" --
      ${PYTHON} -c "import hepex, numpy\nprint(hepex.__version__, hepex.__file__, hepex.rank(numpy.eye(3, dtype=numpy.int64), 7))")
  message(STATUS "installed Python package: ${last_output}")
  if(NOT last_output MATCHES "^[0-9.]+ ${WORK_DIR}/prefix/${PYTHON_DIR}/hepex/__init__.py 3\n$")
    message(FATAL_ERROR "the installed Python package was not the one imported:\n${last_output}")
  endif()
endif()
