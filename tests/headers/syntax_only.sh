#!/bin/sh
# Compiler launcher of the header self-containment check (CMakeLists.txt
# here): runs the compile command with -fsyntax-only (parse and check every
# declaration, generate no code) and then creates the empty object file the
# build tool expects, so that the step counts as done until its header or
# anything the header includes changes (the depfile is still written).
out=
prev=
for arg in "$@"; do
  [ "$prev" = "-o" ] && out=$arg
  prev=$arg
done
"$@" -fsyntax-only || exit $?
[ -z "$out" ] || : > "$out"
