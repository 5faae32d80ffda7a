#!/usr/bin/env bash
# `hepex reduce` on NeatIBP's shipped massless double box (yzhphy/NeatIBP,
# examples/dbox: outputs/dbox/results/IBP_all.txt, OrderedIntegrals.txt,
# MI_all.txt and targetIntegrals.txt, parameters d, s, t), read from a
# checkout or git mirror of NeatIBP fetched beforehand (nothing is
# downloaded, nothing of NeatIBP is copied into this repository). Checks that
# hepex's masters are NeatIBP's (MI_all.txt) and prints the run's JSON summary.
#   NEATIBP=/path/to/NeatIBP (a work tree, or a bare mirror: read with git show)
#   HEPEX=build/src/hepex  SEED=1  OUT=dir (kept: table.txt, summary.json)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
NEATIBP=${NEATIBP:?set NEATIBP to a NeatIBP checkout or mirror}
HEPEX=${HEPEX:-$REPO/build/src/hepex}
SEED=${SEED:-1}
OUT=${OUT:-$(mktemp -d /tmp/neatibp_dbox.XXXXXX)}
mkdir -p "$OUT"
get() {  # get PATH-IN-NEATIBP DEST
  if [ -f "$NEATIBP/$1" ]; then cp "$NEATIBP/$1" "$2"; else git -C "$NEATIBP" show "HEAD:$1" > "$2"; fi
}
R=examples/dbox/outputs/dbox/results
get "$R/IBP_all.txt" "$OUT/IBP_all.txt"
get "$R/OrderedIntegrals.txt" "$OUT/OrderedIntegrals.txt"
get "$R/MI_all.txt" "$OUT/MI_all.txt"
get examples/dbox/targetIntegrals.txt "$OUT/targetIntegrals.txt"
echo "[dbox] $(grep -o 'G\[' "$OUT/IBP_all.txt" | wc -l) integral occurrences; hepex $("$HEPEX" --version 2>/dev/null | head -1)" >&2
start=$(date +%s.%N)
"$HEPEX" reduce "$OUT/IBP_all.txt" --vars d,s,t --order "$OUT/OrderedIntegrals.txt" \
  --targets "$OUT/targetIntegrals.txt" --seed "$SEED" --out "$OUT/table.txt" --json "$OUT/summary.json" -v
end=$(date +%s.%N)
python3 - "$OUT" "$start" "$end" <<'PY'
import json, re, sys
out, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
summary = json.load(open(f"{out}/summary.json"))
norm = lambda t: re.sub(r"\s+", "", t)
theirs = sorted(norm(m) for m in re.findall(r"G\[[^\]]*\]", open(f"{out}/MI_all.txt").read()))
ours = sorted(summary["masters"])
summary["wall_seconds"] = round(end - start, 3)
summary["neatibp_masters"] = theirs
summary["same_masters"] = set(ours) <= set(theirs)
print(json.dumps(summary))
if not summary["same_masters"]:
    sys.exit(f"masters differ: hepex {ours}, NeatIBP {theirs}")
PY
