#!/usr/bin/env bash
# Runs a command and checks both its exit status and its output (stdout and
# stderr together, an extended regular expression): the perf smoke tests'
# check (perf/CMakeLists.txt), which a crash after the expected line fails.
#   bash perf/common/expect.sh STATUS PATTERN COMMAND [ARGS...]
set -uo pipefail
want=${1:?usage: expect.sh STATUS PATTERN COMMAND...}
pattern=${2:?usage: expect.sh STATUS PATTERN COMMAND...}
shift 2
output=$("$@" 2>&1)
status=$?
printf '%s\n' "$output"
if [[ $status -ne $want ]]; then
  echo "expect.sh: exit status $status, expected $want: $*" >&2
  exit 1
fi
if ! grep -Eq -- "$pattern" <<<"$output"; then
  echo "expect.sh: no line matches '$pattern': $*" >&2
  exit 1
fi
