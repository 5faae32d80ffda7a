#!/usr/bin/env bash
# On a GPU node (one H200, .ext/gpu carried), issue 42's single-GPU items in
# one call: the CUDA build (tests and the two benchmarks), the growing-form
# tests on the device and under compute-sanitizer memcheck, the growing form
# beside a fresh RREF (hepex_bench row-space), and the n = N RREF with every
# entry checked (hepex_bench rref-check) for two primes while another
# process holds all but LIMIT_MIB of the GPU's memory (an 80 GB H100's
# 81559 MiB by default), with the memory each process used sampled by
# nvidia-smi every 200 ms. Logs in OUT_DIR; a table last.
#   [N=100000 D=16 LIMIT_MIB=81559] bash perf/linalg/device_large_rref.sh OUT_DIR
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
out=${1:?usage: device_large_rref.sh OUT_DIR}
n=${N:-100000}
d=${D:-16}
limit=${LIMIT_MIB:-81559}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/node.txt"
start=$EPOCHREALTIME
HEPEX_CMAKE_ARGS="-DHEPEX_BUILD_PERF=ON -DHEPEX_BUILD_PYTHON=OFF" \
  HEPEX_TARGETS="hepex_tests hepex_bench" \
  bash perf/common/build_gpu.sh build-cuda >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "build: %.0f s\n", b - a }' | tee -a "$out/node.txt"
source perf/common/gpu_env.sh
bin=build-cuda

# 1. The growing form's tests on the device and the host, then memcheck on the device's.
"$bin/tests/hepex_tests" --gtest_filter='*RowSpace*:*RrefOnSpace*' >"$out/tests.log" 2>&1
echo "tests: rc $? $(grep -c '^\[       OK' "$out/tests.log") passed, $(grep -c '^\[  FAILED' "$out/tests.log") failed" |
  tee -a "$out/node.txt"
compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/tests/hepex_tests" \
  --gtest_filter='*RowSpace*Cuda*' >"$out/memcheck.log" 2>&1
echo "memcheck: rc $? $(grep -c '^\[       OK' "$out/memcheck.log") tests, $(grep -o 'ERROR SUMMARY: [0-9]* errors' "$out/memcheck.log" | tail -1)" |
  tee -a "$out/node.txt"

# 2. Adding 250 rows to a 5000 x 6000 form beside the fresh RREF, and the
# antares loop's largest step (5250 -> 5500 rows) at 6000 columns.
"$bin/perf/hepex_bench" row-space 5000 250 6000 2147483647 device 5 | tee "$out/row_space.jsonl" | tail -1
"$bin/perf/hepex_bench" row-space 5250 250 6000 2147483647 device 3 | tee -a "$out/row_space.jsonl" | tail -1

# 3. The large RREF with the GPU's memory limited by a ballast process.
total=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0)
ballast=$((total - limit))
python3 - "$ballast" >"$out/ballast.log" 2>&1 <<'PY' &
import sys, time, torch
x = torch.empty(int(sys.argv[1]) << 20, dtype=torch.uint8, device="cuda:0")
x.fill_(1)
torch.cuda.synchronize()
print("ballast MiB", sys.argv[1], flush=True)
time.sleep(3600)
PY
ballast_pid=$!
for _ in $(seq 60); do grep -q "ballast MiB" "$out/ballast.log" && break; sleep 1; done
nvidia-smi --query-gpu=memory.used,memory.total --format=csv | tee -a "$out/node.txt"
nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits -lms 200 >"$out/memory_samples.csv" &
sampler=$!
"$bin/perf/hepex_bench" rref-check "$n" "$d" 7 2147483647 2147483629 | tee "$out/rref_check.jsonl" &
check=$!
wait $check
echo "rref_check: rc $?" | tee -a "$out/node.txt"
kill $sampler $ballast_pid 2>/dev/null
# The peak of every process but the ballast.
awk -F', *' -v b="$ballast_pid" '$1 != b { if ($2 > peak[$1]) peak[$1] = $2 }
  END { for (p in peak) printf "peak MiB of pid %s: %d\n", p, peak[p] }' "$out/memory_samples.csv" |
  tee -a "$out/node.txt"
echo "ballast pid $ballast_pid, $ballast MiB; GPU limit left to hepex: $limit MiB" | tee -a "$out/node.txt"
cat "$out/node.txt"
