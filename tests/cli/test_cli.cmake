# ctest driver for the CLI contract (docs/cli.md): output shapes and exit codes.
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
expect(0 "Zp32 .*Zp64 .*Real64 .*Complex128 .*reconstruct +balanced Zippel.*amplitudes .*gg_ttgg, reference event .*all checks passed"
       demo --cases 5000)
expect(0 "backend host" demo --backend host --cases 1000 --json "${json}")
expect(1 "backend" demo --backend gpu)
expect(1 "cases" demo --cases 0)
expect(1 "" no-such-command)
# --help prints hepex's help alone (no Kokkos block) and exits 0 (docs/cli.md "Common");
# docs/cli.md against every command's help: test_cli_docs.cmake (ctest cli.docs).
expect(0 "^hepex: exact.*Subcommands:.*Exit codes: 0 success" --help)
expect(0 "^LO matrix elements.*--process TEXT REQUIRED.*--events UINT.*=16384" me --help)
expect(0 "^rank of a matrix\n" rank --help)
expect(1 "" demo --no-such-flag)

file(READ "${json}" text)
if(NOT text MATCHES "\"failures\": 0" OR NOT text MATCHES "\"backend\": \"host\"")
  message(FATAL_ERROR "demo --json wrote:\n${text}")
endif()

# Linear algebra (docs/cli.md "Linear algebra"): exact outputs on a small system mod 7.
set(dir "${CMAKE_CURRENT_BINARY_DIR}/cli_linalg")
file(MAKE_DIRECTORY "${dir}")
set(header "%%MatrixMarket matrix array integer general\n")
file(WRITE "${dir}/A.mtx" "${header}2 3\n1\n4\n2\n5\n3\n6\n")           # [[1 2 3] [4 5 6]]
file(WRITE "${dir}/b.mtx" "%%MatrixMarket matrix coordinate integer general\n2 1 2\n1 1 6\n2 1 15\n")
file(WRITE "${dir}/S.mtx" "${header}2 2\n1\n2\n2\n4\n")                   # singular
file(WRITE "${dir}/b1.mtx" "${header}2 1\n1\n1\n")
file(WRITE "${dir}/b3.mtx" "${header}3 1\n1\n2\n3\n")
file(WRITE "${dir}/frac.mtx" "${header}1 2\n1\n3.5\n")
file(WRITE "${dir}/nan.mtx" "%%MatrixMarket matrix array real general\n1 1\nnan\n")
file(WRITE "${dir}/short.mtx" "${header}2 2\n1\n")
file(WRITE "${dir}/huge.mtx" "${header}400000 400000\n")

expect(0 "^%%MatrixMarket matrix array integer general\n2 3\n1\n0\n0\n1\n6\n2\n$"
       rref --prime 7 "${dir}/A.mtx" --json "${dir}/rref.json")
file(READ "${dir}/rref.json" text)
if(NOT text MATCHES "\"rank\": 2" OR NOT text MATCHES "\"pivots\": \\[\n *0,\n *1\n *\\]")
  message(FATAL_ERROR "rref --json wrote:\n${text}")
endif()
expect(0 "^2\n$" rank --prime 7 "${dir}/A.mtx")
# Kokkos's options still reach Kokkos, before or after the command.
expect(0 "^2\n$" --kokkos-disable-warnings rank --prime 7 "${dir}/A.mtx")
expect(0 "^2\n$" rank --kokkos-device-id=0 --prime 7 "${dir}/A.mtx")
expect(0 "^%%MatrixMarket matrix array integer general\n3 1\n6\n2\n6\n$"
       nullspace --prime 7 "${dir}/A.mtx")
expect(0 "^%%MatrixMarket matrix array integer general\n3 1\n0\n3\n0\n$"
       solve --prime 7 "${dir}/A.mtx" "${dir}/b.mtx")
expect(3 "inconsistent" solve --prime 7 "${dir}/S.mtx" "${dir}/b1.mtx")
expect(0 "^%%MatrixMarket matrix array real general\n2 3\n1\n0\n0\n1\n-1\n2\n$"
       rref --field real "${dir}/A.mtx")
expect(1 "not a prime" rref --prime 15 "${dir}/A.mtx")
expect(1 "below 2\\^63" rref --prime 9223372036854775837 "${dir}/A.mtx")
expect(1 "frac.mtx:4: entry '3.5' is not an integer" rref --prime 7 "${dir}/frac.mtx")
expect(1 "nan.mtx:3: entry 'nan' is NaN, not a finite number" rref --field real "${dir}/nan.mtx")
expect(1 "short.mtx: expected 4 entries, found 1" rank --prime 7 "${dir}/short.mtx")
expect(1 "huge.mtx: a 400000 x 400000 matrix .* needs 3 copies of .* MiB for the work, more than" rank --prime 7 "${dir}/huge.mtx")
expect(1 "has 2 rows but .* has 3" solve --prime 7 "${dir}/A.mtx" "${dir}/b3.mtx")
expect(1 "cannot open" rank --prime 7 "${dir}/missing.mtx")
expect(1 "choose the field" rank "${dir}/A.mtx")

# gemm (docs/cli.md): [[1 2 3] [4 5 6]] * [1 1 1]^T = [6 15] = [6 1] mod 7.
file(WRITE "${dir}/v.mtx" "${header}3 1\n1\n1\n1\n")
expect(0 "^%%MatrixMarket matrix array integer general\n2 1\n6\n1\n$" gemm --prime 7 "${dir}/A.mtx" "${dir}/v.mtx")
expect(0 "^%%MatrixMarket matrix array integer general\n2 1\n6\n15\n$"
       gemm --prime 2147483647 --method int64 "${dir}/A.mtx" "${dir}/v.mtx")
expect(1 "not exact for p = 2147483647" gemm --prime 2147483647 --method fp64 "${dir}/A.mtx" "${dir}/v.mtx")
expect(0 "^%%MatrixMarket matrix array integer general\n2 1\n6\n15\n$"
       gemm --prime 2147483647 --method multiword "${dir}/A.mtx" "${dir}/v.mtx")
expect(1 "multiword is not exact" gemm --prime 9223372036854775783 --method multiword "${dir}/A.mtx" "${dir}/v.mtx")
expect(0 "^%%MatrixMarket matrix array integer general\n2 1\n6\n15\n$"
       gemm --prime 2147483647 --method int8 "${dir}/A.mtx" "${dir}/v.mtx")
expect(1 "has 3 columns but .* has 2 rows" gemm --prime 7 "${dir}/A.mtx" "${dir}/A.mtx")
expect(1 "give --prime" gemm "${dir}/A.mtx" "${dir}/v.mtx")
expect(1 "--field|received 3" gemm --field real "${dir}/A.mtx" "${dir}/v.mtx")   # gemm has no --field

# The benchmarks left the CLI (perf/hepex_bench.cpp, tested as perf.*):
# `hepex bench` is an unknown command.
expect(1 "^hepex: the benchmarks left the CLI: run the hepex_bench program" bench gemm --prime 65521 --sizes 16)

# Reconstruction (docs/cli.md "Reconstruction"): exact answers, one line per input,
# the output parsed back to itself, and the exit codes.
set(rdir "${CMAKE_CURRENT_BINARY_DIR}/cli_reconstruct")
file(MAKE_DIRECTORY "${rdir}")
file(WRITE "${rdir}/in.txt" "x^2/(1-x*y)\n(x+y)^3 - 1/2\n3/7\n(x^2 - z^2)/(x - z)*y^-2\n")
file(WRITE "${rdir}/bad.txt" "x + y\n2*(x))\n")
file(WRITE "${rdir}/open.txt" "x + y\n2*(x\n")
# Expressions may span lines and end with ';' (FireFly's and Mathematica's files).
file(WRITE "${rdir}/multi.m" "(x + y)/\n  (x - 2*y);\n\n3/7;\n")
expect(0 "^\\(x \\+ y\\)/\\(x\\*y\\)\n$" reconstruct --vars x,y --function "1/x + 1/y")
expect(0 "^\\(-x\\^2\\)/\\(x\\*y - 1\\)\n\\(2\\*x\\^3 \\+ 6\\*x\\^2\\*y \\+ 6\\*x\\*y\\^2 \\+ 2\\*y\\^3 - 1\\)/\\(2\\)\n\\(3\\)/\\(7\\)\n\\(x \\+ z\\)/\\(y\\^2\\)\n$"
       reconstruct --vars x,y,z --file "${rdir}/in.txt" --json "${rdir}/r.json")
file(READ "${rdir}/r.json" text)
if(NOT text MATCHES "\"functions\": 4" OR NOT text MATCHES "\"primes\": [0-9]+"
   OR NOT text MATCHES "\"probes\": [1-9][0-9]*" OR NOT text MATCHES "\"black_box_seconds\": "
   OR NOT text MATCHES "\"prime_list\": \\[\n +{\n +\"prime\": [0-9]+,\n +\"probes\": [0-9]+,\n +\"role\": \"image\""
   OR NOT text MATCHES "\"seed\": [0-9]+")
  message(FATAL_ERROR "reconstruct --json wrote:\n${text}")
endif()
execute_process(COMMAND "${HEPEX}" reconstruct --vars x,y,z --file "${rdir}/in.txt"
                OUTPUT_FILE "${rdir}/out.txt" RESULT_VARIABLE rc)
execute_process(COMMAND "${HEPEX}" reconstruct --vars x,y,z --file "${rdir}/out.txt"
                OUTPUT_VARIABLE again RESULT_VARIABLE rc2)
file(READ "${rdir}/out.txt" first)
if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0 OR NOT first STREQUAL again)
  message(FATAL_ERROR "reconstruct output does not parse back to itself:\n${first}\n--\n${again}")
endif()
expect(0 "reconstruct: prime 1 .*: [0-9]+ probes, [0-9]+ terms; each further prime needs about [0-9]+ probes"
       reconstruct --vars x,y,z --file "${rdir}/out.txt" --verbose --seed 5)
expect(1 "--function: column 5: expected a number" reconstruct --vars x,y --function "x + * y")
expect(1 "bad.txt:2: column 6: " reconstruct --vars x,y --file "${rdir}/bad.txt")
expect(1 "open.txt:2: the expression starting here runs to the end of the file with 1 parenthesis\\(es\\) open"
       reconstruct --vars x,y --file "${rdir}/open.txt")
expect(0 "^\\(x \\+ y\\)/\\(x - 2\\*y\\)\n\\(3\\)/\\(7\\)\n$" reconstruct --vars x,y --file "${rdir}/multi.m")
# --together: one black box, one job; the shared work under "together".
expect(0 "^\\(x \\+ y\\)/\\(x - 2\\*y\\)\n\\(3\\)/\\(7\\)\n$"
       reconstruct --vars x,y --file "${rdir}/multi.m" --together --json "${rdir}/together.json")
file(READ "${rdir}/together.json" text)
if(NOT text MATCHES "\"functions\": 2" OR NOT text MATCHES "\"together\": {"
   OR NOT text MATCHES "\"prime_list\": \\[")
  message(FATAL_ERROR "reconstruct --together --json wrote:\n${text}")
endif()
foreach(scan auto on off)
  expect(0 "^\\(x\\^2 - 3\\)/\\(x\\^2\\*y - 3\\*x\\*y\\)\n$"
         reconstruct --vars x,y --function "(x^2 - 3)/(x*y*(x - 3))" --factor-scan ${scan})
endforeach()
expect(1 "--factor-scan: maybe not in" reconstruct --vars x --function x --factor-scan maybe)
expect(1 "unknown variable 'w'" reconstruct --vars x,y --function "x*w")
expect(1 "exactly one of --function" reconstruct --vars x)
expect(1 "--vars: '' is not a variable name" reconstruct --vars "x,,y" --function x)
expect(1 "cannot open" reconstruct --vars x --file "${rdir}/missing.txt")
expect(0 "^\\(7\\*x \\+ 15\\)/\\(21\\)\n$" reconstruct --vars x --function "x/3 + 5/7" --primes 1)
expect(3 "1 prime did not determine the function: .*raise --primes"
       reconstruct --vars x --function "x/3 + 1234567890123456789012345678901234567/7" --primes 1)
# No constant term in the denominator (shifted lines), and a function with no
# value anywhere: an error naming the line.
expect(0 "^\\(x\\*y \\+ 2\\)/\\(x\\^2\\*y \\+ x\\*y\\^2\\)\n$"
       reconstruct --vars x,y --function "1/(x + y) + 2/(x*y*(x + y))")
# Each line is its own job: an undefined line and one needing more primes are
# reported with their line numbers (exit 3), the others still answered.
file(WRITE "${rdir}/undefined.txt" "x + y\n1/(x - x)\nx/3 + 1234567890123456789012345678901234567/7\n3/7\n")
expect(3 "^x \\+ y\n# not reconstructed: [^\n]*undefined.txt:2: the function is undefined at all 64 random points tried mod each of 3 random primes[^\n]*\n# not reconstructed: [^\n]*undefined.txt:3: 1 prime did not determine the function[^\n]*\n\\(3\\)/\\(7\\)\nhepex: .*undefined.txt:2: .*hepex: .*undefined.txt:3: .*hepex: 2 of 4 functions not reconstructed"
       reconstruct --vars x,y --file "${rdir}/undefined.txt" --primes 1)
# Matrix elements (docs/cli.md "Matrix elements"): RAMBO throughput runs, a momenta
# file (the first two reference events of gg_ttg, ME 6.0592929364416362e-05 and
# 2.7559994717990207e-04) and bad inputs.
set(medir "${CMAKE_CURRENT_BINARY_DIR}/cli_me")
file(MAKE_DIRECTORY "${medir}")
expect(0 "process gg_tt, 64 RAMBO events.*16/16 good helicities.*throughput [0-9.e+]+ MEs/s\nmean ME [0-9.e+-]+ GeV\\^0"
       me --process gg_tt --events 64)
expect(0 "precision mixed.*mean ME [0-9.e+-]+ GeV\\^-4" me --process gg_ttgg --events 8 --precision mixed --seed 7)
expect(0 "precision float" me --process gg_ttg --events 8 --precision float --sqrts 500
       --json "${medir}/me.json")
file(READ "${medir}/me.json" text)
if(NOT text MATCHES "\"process\": \"gg_ttg\"" OR NOT text MATCHES "\"mes_per_second\": [0-9]")
  message(FATAL_ERROR "me --json wrote:\n${text}")
endif()
expect(0 "colour sum blas.*mean ME" me --process gg_ttg --events 8 --colour-sum blas)
expect(1 "blas needs --precision double" me --process gg_ttg --colour-sum blas --precision float)
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/../data/madgraph/gg_ttg_onshell_ref.txt" lines REGEX "^[0-9]")
list(GET lines 0 first)
string(REGEX REPLACE "^[0-9]+ [0-9.e+-]+ " "" first "${first}")
string(REGEX REPLACE " [0-9.e+-]+ [0-9.e+-]+$" "" first "${first}")
file(WRITE "${medir}/ttg.txt" "# one event per line\n${first}\n")
expect(0 "^[0-9.e+ -]+ 6\\.05929293644[0-9]+e-05\n$" me --process gg_ttg --momenta "${medir}/ttg.txt")
expect(0 "" me --process gg_ttg --momenta "${medir}/ttg.txt" --out "${medir}/ttg.out")
file(READ "${medir}/ttg.out" text)
if(NOT text MATCHES " 6\\.05929293644[0-9]+e-05\n$")
  message(FATAL_ERROR "me --out wrote:\n${text}")
endif()
file(WRITE "${medir}/short.txt" "1 2 3\n")
file(WRITE "${medir}/word.txt" "${first} x\n")
string(REGEX REPLACE "^[^ ]+" "751" offshell "${first}")
file(WRITE "${medir}/offshell.txt" "${offshell}\n")
expect(1 "short.txt:1: 3 numbers, expected 20" me --process gg_ttg --momenta "${medir}/short.txt")
expect(1 "word.txt:1: 'x' is not a number" me --process gg_ttg --momenta "${medir}/word.txt")
expect(1 "offshell.txt:1: particle 1 \\(g\\): off shell" me --process gg_ttg --momenta "${medir}/offshell.txt")
expect(0 " [0-9.e+-]+\n$" me --process gg_ttg --momenta "${medir}/offshell.txt" --momentum-tolerance 0.01)
# A gluon along the beam: the ME is not finite, an error naming the line.
file(WRITE "${medir}/collinear.txt" "# a gluon along the beam\n500 0 0 500 500 0 0 -500 450 412.39665372066247 0 -49.999999999999993 450 -412.39665372066247 0 -49.999999999999993 100 0 0 100\n")
expect(1 "collinear.txt:2: the ME is -?nan" me --process gg_ttg --momenta "${medir}/collinear.txt")
expect(0 " -?nan\n$" me --process gg_ttg --momenta "${medir}/collinear.txt" --keep-nonfinite)
expect(1 "cannot read" me --process gg_tt --momenta "${medir}/missing.txt")
expect(1 "process 'gg_tttt'" me --process gg_tttt)
expect(1 "precision 'half'" me --process gg_tt --precision half)
expect(1 "threshold" me --process gg_tt --sqrts 300)
expect(1 "--events: '0' is not a whole number from 1" me --process gg_tt --events 0)
expect(1 "" me --events 10)

# Per-event coupling and MadGraph's choices (--select), MadGraph's parameters
# (--param-card): event 0 of MadGraph's selection reference for gg_ttg
# (tests/data/madgraph/gg_ttg_selection_ref.txt: its ME, selhel 18, selcol 3).
set(card "${CMAKE_CURRENT_LIST_DIR}/../data/madgraph/param_card.dat")
file(WRITE "${medir}/select.txt" "# gs rndhel rndcol igraph\n1.0195716890686066 0.66557313892569314 0.44326176554822083 13\n")
expect(0 "^2\\.08762717353[0-9]*e-05 18 3\n$"
       me --process gg_ttg --momenta "${medir}/ttg.txt" --select "${medir}/select.txt" --param-card "${card}")
# With MadEvent's channel (diagram 2) and the run card: the ME times
# MadGraph's channel weight for event 0 (gg_ttg_channel_weights_ref.txt:
# 2.8718600240413950e-02 at stot 1.69e8).
set(run_card "${CMAKE_CURRENT_LIST_DIR}/../data/madgraph/run_card.dat")
file(WRITE "${medir}/select5.txt" "1.0195716890686066 0.66557313892569314 0.44326176554822083 13 2\n")
expect(0 "^5\\.99537302[0-9]*e-07 18 3\n$"
       me --process gg_ttg --momenta "${medir}/ttg.txt" --select "${medir}/select5.txt" --param-card "${card}" --run-card "${run_card}")
expect(1 "run card ${medir}/missing.dat: cannot open it"
       me --process gg_ttg --momenta "${medir}/ttg.txt" --run-card "${medir}/missing.dat")
file(WRITE "${medir}/select3.txt" "1.0195716890686066 0.66557313892569314 0.44326176554822083\n")
expect(0 "^2\\.08762717353[0-9]*e-05 18 [1-6]\n$"
       me --process gg_ttg --momenta "${medir}/ttg.txt" --select "${medir}/select3.txt")
expect(0 "^[0-9.e+ -]+ 6\\.05929293644[0-9]+e-05\n$"
       me --process gg_ttg --momenta "${medir}/ttg.txt" --param-card "${card}")
foreach(bad "nan 0.5 0.5 1|select.txt:1: gs = nan must be finite and > 0"
            "1.2 1 0.5 1|select.txt:1: rndhel = 1 is not in \\[0, 1\\)"
            "1.2 0.5 -0.25 1|select.txt:1: rndcol = -0.25 is not in \\[0, 1\\)"
            "1.2 0.5 0.5 16|select.txt:1: igraph = 16 is not in \\[0, 15\\]"
            "1.2 0.5 0.5 2.5|select.txt:1: igraph 2.5[0-9]* is not a whole number"
            "1.2 0.5 0.5 1 7 8|select.txt:1: 6 numbers, expected 3"
            "1.2 0.5 0.5 1 17|select.txt:1: channel = 17 is not in \\[0, 16\\]"
            "1.2 0.5 0.5 1 1.5|select.txt:1: channel 1.5[0-9]* is not a whole number"
            "1e400 0.5 0.5 1|select.txt:1: '1e400' is beyond the largest double"
            "1e-400 0.5 0.5 1|select.txt:1: '1e-400' is below the smallest double"
            "1.2 0.5 0.5 1\n1.2 0.5 0.5 1|select.txt: 2 lines for 1 events")
  string(REPLACE "|" ";" parts "${bad}")
  list(GET parts 0 line)
  list(GET parts 1 message)
  file(WRITE "${medir}/select.txt" "${line}\n")
  expect(1 "^hepex: [^\n]*${message}"
         me --process gg_ttg --momenta "${medir}/ttg.txt" --select "${medir}/select.txt" --out "${medir}/never.txt")
endforeach()
if(EXISTS "${medir}/never.txt")
  message(FATAL_ERROR "me --select with bad inputs wrote its --out file")
endif()
expect(1 "--select chooses helicities and colours for the events of --momenta"
       me --process gg_ttg --select "${medir}/select.txt")
expect(1 "param card ${medir}/missing.dat: cannot open it"
       me --process gg_ttg --momenta "${medir}/ttg.txt" --param-card "${medir}/missing.dat")
file(READ "${card}" text)
string(REPLACE "    6 1.730000e+02 # MT" "    6 1.750000e+02 # MT" text "${text}")
file(WRITE "${medir}/mt175.dat" "${text}")
expect(1 "ttg.txt:2: particle 3 \\(t\\): off shell, p\\^2 = [0-9.]+ GeV\\^2 but m\\^2 = 30625"
       me --process gg_ttg --momenta "${medir}/ttg.txt" --param-card "${medir}/mt175.dat")
expect(0 "mean ME" me --process gg_ttg --events 8 --param-card "${medir}/mt175.dat")

# Outputs are never silently lost (issue 24): an unwritable path is refused
# before any work (nothing on stdout), a failed write is exit 1, a failure
# leaves an existing output as it was, and --out may name the command's own
# input.
set(odir "${CMAKE_CURRENT_BINARY_DIR}/cli_outputs")
file(REMOVE_RECURSE "${odir}")
file(MAKE_DIRECTORY "${odir}")
expect(1 "^hepex: --json: cannot write '/nonexistent/dir/r.json': No such file"
       reconstruct --vars x,y --function "1/x + 1/y" --json /nonexistent/dir/r.json)
expect(1 "^hepex: --out: cannot write '/nonexistent/dir/r.txt'"
       reconstruct --vars x,y --function "1/x + 1/y" --out /nonexistent/dir/r.txt)
expect(1 "^hepex: --json: cannot write" rank --prime 7 "${dir}/A.mtx" --json /nonexistent/dir/r.json)
expect(1 "^hepex: --out: cannot write '${odir}': is a directory" rank --prime 7 "${dir}/A.mtx" --out "${odir}")
expect(1 "^hepex: --json: cannot write" me --process gg_tt --events 4 --json /nonexistent/dir/m.json)
expect(1 "^hepex: --json is for RAMBO runs" me --process gg_ttg --momenta "${medir}/ttg.txt" --json "${odir}/m.json")
file(WRITE "${odir}/previous.txt" "previous\n")
expect(1 "short.mtx" rank --prime 7 "${dir}/short.mtx" --out "${odir}/previous.txt")
file(READ "${odir}/previous.txt" text)
file(GLOB leftovers "${odir}/*.tmp-*")
if(NOT text STREQUAL "previous\n" OR leftovers)
  message(FATAL_ERROR "a failed run changed its --out file ('${text}') or left '${leftovers}'")
endif()
file(COPY "${medir}/short.txt" DESTINATION "${odir}")
expect(1 "short.txt:1: 3 numbers" me --process gg_ttg --momenta "${odir}/short.txt" --out "${odir}/short.txt")
file(READ "${odir}/short.txt" text)
if(NOT text STREQUAL "1 2 3\n")
  message(FATAL_ERROR "me --out over its bad --momenta file changed it: '${text}'")
endif()
file(COPY "${medir}/ttg.txt" DESTINATION "${odir}")
expect(0 "^$" me --process gg_ttg --momenta "${odir}/ttg.txt" --out "${odir}/ttg.txt")
file(READ "${odir}/ttg.txt" text)
if(NOT text MATCHES " 6\\.05929293644[0-9]+e-05\n$")
  message(FATAL_ERROR "me --out over its own --momenta file wrote:\n${text}")
endif()
if(EXISTS /dev/full)
  expect(1 "^hepex: --out: cannot write '/dev/full': No space left" rank --prime 7 "${dir}/A.mtx" --out /dev/full)
  expect(1 "hepex: --json: cannot write '/dev/full'" rank --prime 7 "${dir}/A.mtx" --json /dev/full)
  expect(1 "hepex: --json: cannot write '/dev/full'" demo --cases 10 --json /dev/full)
  foreach(args "rank;--prime;7;${dir}/A.mtx" "reconstruct;--vars;x;--function;1/x+1"
               "me;--process;gg_tt;--events;4" "info")
    execute_process(COMMAND "${HEPEX}" ${args} OUTPUT_FILE /dev/full RESULT_VARIABLE rc
                    ERROR_VARIABLE err)
    if(NOT rc EQUAL 1 OR NOT err MATCHES "^hepex: cannot write to standard output")
      message(FATAL_ERROR "hepex ${args} > /dev/full: exit ${rc}, '${err}'")
    endif()
    message(STATUS "ok: hepex ${args} > /dev/full -> 1")
  endforeach()
endif()

# Numbers and nesting beyond what fits are errors before any work (issue 24):
# nothing wraps, clamps or crashes.
expect(1 "--events: '-1' is not a whole number" me --process gg_tt --events -1)
expect(1 "--seed: '-1' is not a whole number" me --process gg_tt --seed -1)
expect(1 "--seed: '18446744073709551616' is too large" reconstruct --vars x --function x --seed 18446744073709551616)
expect(1 "--events 144115188075855873: a batch needs .* GiB" me --process gg_tt --events 144115188075855873)
expect(1 "--tol: 'nan' is NaN, not a finite number" rank --field real --tol nan "${dir}/A.mtx")
expect(1 "--tol: 'inf' is infinite, not a finite number" solve --field real --tol inf "${dir}/A.mtx" "${dir}/b1.mtx")
expect(1 "--chunk: '0x10' is not a whole number" reconstruct --vars x --function x --chunk 0x10)
string(REPEAT "(" 20000 open)
string(REPEAT ")" 20000 close)
file(WRITE "${odir}/deep.txt" "x + 1\n${open}x${close}\n")
expect(1 "deep.txt:2: column 1002: the expression nests more than 1000" reconstruct --vars x --file "${odir}/deep.txt")

# Outputs that cannot fit are refused before the work: the null space of a
# 1 x 200000 matrix, the product of a 200000 x 1 and a 1 x 200000 matrix.
file(WRITE "${odir}/row.mtx" "%%MatrixMarket matrix coordinate integer general\n1 200000 1\n1 1 1\n")
file(WRITE "${odir}/col.mtx" "%%MatrixMarket matrix coordinate integer general\n200000 1 1\n1 1 1\n")
file(WRITE "${odir}/wide.mtx" "%%MatrixMarket matrix coordinate integer general\n1 200000 1\n1 1 1\n")
expect(1 "^hepex: the null space has 200000 x 199999 entries, .* GiB, more than the" nullspace --prime 7 "${odir}/row.mtx")
expect(1 "^hepex: the product has 200000 x 200000 entries, .* GiB, more than the" gemm --prime 7 "${odir}/col.mtx" "${odir}/wide.mtx")
