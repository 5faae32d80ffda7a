#!/usr/bin/env bash
# The per-instruction-set ME kernels (src/amplitudes/lane_kernel_*.cpp) must
# not export code another object could link to, nor run code at start-up:
# a copy compiled for AVX-512 that the linker picked for a shared inline
# function would crash any CPU without it. Given the library's objects, checks
# every lane_kernel_* object: its defined global symbols are its entry point,
# the personality reference, or libstdc++ simd code whose type names the
# instruction set (_MachineFlagsTemplate), and it has no static initialisers.
set -u
status=0
checked=0
for object in "$@"; do
  case "$object" in *lane_kernel_*) ;; *) continue ;; esac
  checked=$((checked + 1))
  bad=$(nm --defined-only -g -P "$object" | awk '{print $1}' |
        grep -v -e '^_ZN5hepex10amplitudes6detail[0-9]*lane_kernel_' \
                -e '^DW\.ref\.__gxx_personality_v0$' -e '_MachineFlagsTemplate')
  if [ -n "$bad" ]; then
    echo "FAIL $object exports symbols other objects could bind to:"
    echo "$bad" | head -20
    status=1
  fi
  if objdump -h "$object" | grep -qE '\.(init_array|ctors)'; then
    echo "FAIL $object has static initialisers (run at start-up, on any CPU)"
    status=1
  fi
done
if [ "$checked" -eq 0 ]; then
  echo "FAIL no lane_kernel_* object among the arguments"
  exit 1
fi
[ "$status" -eq 0 ] && echo "ok: $checked lane kernel objects export only their entry points"
exit $status
