# Events of an LHE file and its coloured particles without their colour
# lines (a gluon needs both, a top or antitop one): prints "EVENTS MISSING".
/<event>/ { events++ }
/<event>/, /<\/event>/ {
  if (NF == 13 && $1 ~ /^-?[0-9]+$/) {
    if (($1 == 21 && ($5 == 0 || $6 == 0)) || (($1 == 6 || $1 == -6) && $5 == 0 && $6 == 0)) missing++
  }
}
END { print events + 0, missing + 0 }
