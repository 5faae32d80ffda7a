#!/usr/bin/env python3
"""perf/results: the naming rule, the index, its check, and the one-time migration.

The rule (issue 40, "Benchmarks as a product"):

    perf/results/<family>/<bench>/<YYYY-MM-DD>_<device>_<commit>[_<variant>].<ext>

or a run folder of one measurement named the same way without <ext>
(perf/results/<family>/<bench>/<YYYY-MM-DD>_<device>_<commit>[_<variant>]/,
anything inside). <family> and <bench> are lowercase words ([a-z0-9_]),
<device> one lowercase word (h100, h200, h200x4, epyc, epyc1core, xeon, cpu,
...), <commit> the 7-hex short hash of the hepex commit measured (the newest
one where a file holds several: the others go in the variant, e.g.
`7914dd7-vs-3171e8f`), <variant> lowercase words, digits, '_' and '-'. Besides
the results, perf/results holds only perf/results/INDEX.md (written here) and
one README.md per family.

    python3 tools/perf_results_index.py            write perf/results/INDEX.md
    python3 tools/perf_results_index.py --check    exit 1 (naming the file) if a result breaks the rule,
                                                   if INDEX.md is not current, or if there is no result
    python3 tools/perf_results_index.py --mapping  print the migration table (old name -> new name)
    python3 tools/perf_results_index.py --apply    the one-time migration (2026-11-28): `git mv` of every
                                                   old name in MIGRATION, then the references in
                                                   perf/results/*/README.md, perf/README.md, docs/*.md

Python 3 standard library only. --check and the index need no git; --apply
needs a git work tree holding the old names.
"""

import argparse
import datetime
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "perf" / "results"
INDEX = RESULTS / "INDEX.md"
SELF = Path(__file__).resolve()

WORD_RE = re.compile(r"^[a-z0-9][a-z0-9_]*$")  # a family or a bench
STEM_RE = re.compile(
    r"^(?P<date>\d{4}-\d{2}-\d{2})_(?P<device>[a-z0-9]+)_(?P<commit>[0-9a-f]{7})"
    r"(?:_(?P<variant>[a-z0-9][a-z0-9_-]*))?$"
)
EXT_RE = re.compile(r"^[a-z0-9]+(?:\.[a-z0-9]+)*$")
RULE_TEXT = "<family>/<bench>/<YYYY-MM-DD>_<device>_<commit7>[_<variant>].<ext> (or a run folder of that name)"


# --------------------------------------------------------------------------------------------
# The naming rule and the index
# --------------------------------------------------------------------------------------------


class Entry:
    def __init__(self, family, bench, name, is_dir, files):
        self.family, self.bench, self.name, self.is_dir, self.files = family, bench, name, is_dir, files
        stem, _, ext = name.partition(".") if not is_dir else (name, "", "")
        m = STEM_RE.match(stem)
        self.date, self.device, self.commit = m["date"], m["device"], m["commit"]
        self.variant = m["variant"] or ""
        self.ext = ext

    @property
    def rel(self):  # relative to perf/results
        return f"{self.family}/{self.bench}/{self.name}" + ("/" if self.is_dir else "")

    def key(self):
        return (self.family, self.bench, self.date, self.device, self.commit, self.variant, self.ext)


def name_error(name, is_dir):
    """Why `name` (a file or a run folder inside a bench folder) breaks the rule; None if it does not."""
    if is_dir:
        stem, ext = name, ""
    else:
        stem, dot, ext = name.partition(".")
        if not dot or not EXT_RE.match(ext):
            return "no lowercase extension"
    m = STEM_RE.match(stem)
    if not m:
        return "not <YYYY-MM-DD>_<device>_<commit7>[_<variant>]"
    try:
        datetime.date.fromisoformat(m["date"])
    except ValueError:
        return f"no such date {m['date']}"
    return None


def collect(results=None):
    """The results under perf/results, and the errors (strings naming the path) of what breaks the rule."""
    results = RESULTS if results is None else results
    entries, errors = [], []

    def rel(p):
        return p.relative_to(results.parent.parent).as_posix()

    if not results.is_dir():
        return entries, [f"{rel(results)}: no such folder"]
    for top in sorted(results.iterdir()):
        if top.is_file() or top.is_symlink():
            if top.name != "INDEX.md":
                errors.append(f"{rel(top)}: a file outside the family folders (rule: {RULE_TEXT})")
            continue
        family = top.name
        if not WORD_RE.match(family):
            errors.append(f"{rel(top)}/: a family is one lowercase word")
            continue
        for sub in sorted(top.iterdir()):
            if sub.is_file() or sub.is_symlink():
                if sub.name != "README.md":
                    errors.append(f"{rel(sub)}: a raw file directly in the family folder (rule: {RULE_TEXT})")
                continue
            bench = sub.name
            if not WORD_RE.match(bench):
                errors.append(f"{rel(sub)}/: a bench is one lowercase word ([a-z0-9_]) (rule: {RULE_TEXT})")
                continue
            children = sorted(sub.iterdir())
            if not children:
                errors.append(f"{rel(sub)}/: an empty bench folder")
            for item in children:
                is_dir = item.is_dir() and not item.is_symlink()
                why = name_error(item.name, is_dir)
                if why is None and not is_dir and not item.is_file():
                    why = "not a plain file"
                if why:
                    errors.append(f"{rel(item)}{'/' if is_dir else ''}: {why} (rule: {RULE_TEXT})")
                    continue
                files = sum(len(fs) for _, _, fs in os.walk(item)) if is_dir else 1
                if is_dir and files == 0:
                    errors.append(f"{rel(item)}/: an empty run folder")
                    continue
                entries.append(Entry(family, bench, item.name, is_dir, files))
    entries.sort(key=Entry.key)
    return entries, errors


def render_index(entries):
    families = []
    for e in entries:
        if e.family not in families:
            families.append(e.family)
    out = [
        "# perf/results: every raw result",
        "",
        "Written by `python3 tools/perf_results_index.py` from the file names; do not edit",
        "(`python3 tools/perf_results_index.py --check` fails when this file is not current).",
        "Names: `<family>/<bench>/<YYYY-MM-DD>_<device>_<commit>[_<variant>].<ext>`, or a run",
        "folder of that name (`perf/README.md`, \"Rules for results\"). The numbers, what was run",
        "and how are in each family's README, current ones first.",
        "",
        " · ".join(f"[{f}](#{f}) ({sum(1 for e in entries if e.family == f)})" for f in families),
    ]
    for f in families:
        out += ["", f"## {f}", "", f"Numbers: [`{f}/README.md`]({f}/README.md).", ""]
        out += ["| bench | date | device | commit | variant | file |", "|---|---|---|---|---|---|"]
        for e in (e for e in entries if e.family == f):
            text = e.name + ("/" if e.is_dir else "")
            link = f"[`{text}`]({e.rel})"
            if e.is_dir:
                link += f" (run folder, {e.files} files)"
            out.append(f"| {e.bench} | {e.date} | {e.device} | {e.commit} | {e.variant} | {link} |")
    return "\n".join(out) + "\n"


def write_index():
    entries, errors = collect()
    for e in errors:
        print(f"perf_results_index: {e}", file=sys.stderr)
    if errors:
        print("perf_results_index: INDEX.md not written: rename the files above first", file=sys.stderr)
        return 1
    if not entries:
        print("perf_results_index: no result under perf/results", file=sys.stderr)
        return 1
    text = render_index(entries)
    old = INDEX.read_text(encoding="utf-8") if INDEX.exists() else None
    if old != text:
        INDEX.write_text(text, encoding="utf-8")
    print(f"perf_results_index: {INDEX.relative_to(ROOT)} {'written' if old != text else 'already current'}: "
          f"{len(entries)} results")
    return 0


def check():
    entries, errors = collect()
    if not errors and entries:
        if not INDEX.exists():
            errors.append(f"{INDEX.relative_to(ROOT)}: missing (write it: python3 tools/perf_results_index.py)")
        elif INDEX.read_text(encoding="utf-8") != render_index(entries):
            listed = set(re.findall(r"\]\(([^)#]+)\)", INDEX.read_text(encoding="utf-8")))
            present = {e.rel for e in entries}
            why = [f"{RESULTS.relative_to(ROOT)}/{r} not in it" for r in sorted(present - listed)[:5]]
            why += [f"{r} listed but not there" for r in sorted(listed - present) if not r.endswith("README.md")][:5]
            errors.append(f"{INDEX.relative_to(ROOT)}: not current" + (f" ({'; '.join(why)})" if why else "") +
                          " (write it: python3 tools/perf_results_index.py)")
    if not entries and not errors:
        errors.append(f"{RESULTS.relative_to(ROOT)}: checked 0 files (no result found)")
    for e in errors:
        print(f"perf_results_index --check: {e}", file=sys.stderr)
    if errors:
        return 1
    runs = [e for e in entries if e.is_dir]
    inside = sum(e.files for e in runs)
    print(f"perf_results_index --check: {len(entries)} results checked ({len(entries) - len(runs)} files, "
          f"{len(runs)} run folders holding {inside} files), {len({(e.family, e.bench) for e in entries})} "
          f"benches, INDEX.md current")
    return 0


# --------------------------------------------------------------------------------------------
# The one-time migration (2026-11-28) of the older names, kept for history
# --------------------------------------------------------------------------------------------
#
# An old name (perf/results/<family>/<name>.<ext>, or a run folder <family>/<name>/) is split
# at '_' into tokens:
#   - a device token (DEVICES) is the device;
#   - 7-hex tokens are commits; commits joined by 'vs' / 'beside' (or following each other) are one
#     group: the last is the commit, the group (joined by '-') stays in the variant where it was;
#   - the other tokens are words. The longest RULES prefix of the words names the bench; the rule's
#     variant words go first, then the words after the prefix: that is the variant.
#   - the device of a rule applies where the old name names none (the README says the machine).
#   - date: the day of the commit that first added the file (for a run folder, its first file):
#     git log --diff-filter=A --follow --format=%ad --date=short -- FILE | tail -1
# NAME_FIXES are the few names the rule cannot read alone. MIGRATION (the end of this file) is
# the table it gave; --apply checks that the rule and git still give that table, then moves.

DEVICES = ("h100", "h200", "h200x2", "h200x4", "epyc", "epyc1core", "xeon")
CONNECTORS = ("vs", "beside")

# (family, leading words of the old name, bench, variant words put first, device if the name has none)
RULES = [
    ("amplitudes", "channel_weights_tests", "channel_weights_tests", "", None),
    ("amplitudes", "generate_events", "generate_events", "", None),
    ("amplitudes", "madevent", "madevent", "", None),
    # me_<commit>_h100.*, me_h100_<commit>.*, me_ttggg_*, me_host_core_*, me_cudacpp*, me_h100_sweep*:
    # the GPU sweep of `hepex bench me` (run_me_bench.sh) with its host-core and CUDACPP parts
    ("amplitudes", "me", "me_gpu", "", None),
    ("amplitudes", "me_ab", "me_ab", "", None),
    ("amplitudes", "me_blas", "me_blas", "", None),
    ("amplitudes", "me_channels", "me_choices", "channels", None),  # run_me_choices_bench.sh CHOICES=...,channels
    ("amplitudes", "me_choices", "me_choices", "", None),
    ("amplitudes", "me_cpu", "me_cpu", "", None),
    ("amplitudes", "me_demo", "me_demo", "", None),
    ("amplitudes", "me_in_flight", "me_in_flight", "", "h100"),  # 303ec30's: "Evaluations in flight", H100
    ("amplitudes", "me_lanes", "me_lanes", "", None),
    ("amplitudes", "me_latency", "me_latency", "", None),
    ("amplitudes", "me_launch_bounds", "me_launch_bounds", "", None),
    ("amplitudes", "me_merged_steps", "me_merged_steps", "", None),
    ("amplitudes", "me_ncu", "me_ncu", "", None),
    ("amplitudes", "me_sanitizer", "me_sanitizer", "", None),
    ("amplitudes", "me_shapes", "me_shapes", "", None),
    ("amplitudes", "me_stalls", "me_stalls", "", None),
    ("amplitudes", "me_team_sizes", "me_team_sizes", "", None),
    ("amplitudes", "me_tests", "me_tests", "", None),
    ("checks", "memcheck", "memcheck", "", None),
    ("checks", "racecheck_survey", "racecheck_survey", "", None),
    ("checks", "row_space_memcheck", "memcheck", "row_space", None),
    ("checks", "row_space_tests", "tests", "row_space", None),
    ("checks", "run_gpu_checks", "run_gpu_checks", "", None),
    ("distributed", "reconstruct_schedules", "reconstruct_schedules", "", None),
    ("distributed", "scaling", "scaling", "", None),
    ("field", "field_mulmod", "mulmod", "", None),
    ("linalg", "gemm", "gemm", "", None),
    ("linalg", "gemm_cpu", "gemm_cpu", "", "epyc"),  # one core of the 2-vCPU AMD EPYC VM beside FFLAS-FFPACK
    ("linalg", "large_rref", "large_rref", "", None),
    ("linalg", "npy_read", "npy_read", "", None),
    ("linalg", "row_space", "row_space", "", None),
    ("linalg", "rref", "rref", "", None),
    ("linalg", "rref_blocked_linac", "rref_linac", "blocked", None),
    ("linalg", "rref_blocked2_linac", "rref_linac", "blocked2", None),
    ("linalg", "rref_cpu", "rref_cpu", "", "epyc"),  # one core of the 2-core AMD EPYC build machine
    ("linalg", "rref_flint", "rref_flint", "", None),
    ("linalg", "rref_linac", "rref_linac", "", None),
    ("linalg", "rref_python", "rref_python", "", None),
    ("linalg", "vendor_gemm_ab", "vendor_gemm_ab", "", None),
    ("reconstruct", "family", "family_regression", "", "epyc"),  # the family before/after, build machine
    ("reconstruct", "family_regression", "family_regression", "", "epyc"),
    ("reconstruct", "firefly_suite", "firefly_suite", "", "epyc"),
    ("reconstruct", "reconstruct", "reconstruct_gpu", "", None),  # hepex_reconstruct_bench --box device|expression
    ("reconstruct", "reconstruct_side_by_side", "side_by_side", "", "epyc"),
    ("reconstruct", "zippel", "zippel", "", None),
    ("reduce", "hepex_finiteflow", "side_by_side", "hepex_finiteflow", None),  # device_side_by_side.sh
    ("reduce", "host_and_gpu", "side_by_side", "host_and_gpu", None),  # device_side_by_side.sh
    ("reduce", "host_threads", "host_threads", "", None),
    ("reduce", "neatibp_dbox", "neatibp_dbox", "", "epyc"),
    ("reduce", "one_core_hepex", "side_by_side", "one_core_hepex", "epyc"),  # hepex alone, same session
    ("reduce", "replay_rate", "replay_rate", "", None),
    ("reduce", "side_by_side", "side_by_side", "", "epyc"),  # side_by_side.sh (one core), device_side_by_side.sh
    ("reduce", "table_check", "table_check", "", "epyc"),
]

# old name: (text in the old name, what it becomes before the rule reads it)
NAME_FIXES = {
    # "batch_fit": the tree measured became f7ccb80, "the commit after 031113a" (reconstruct README)
    "reconstruct/firefly_suite_batch_fit.jsonl": ("batch_fit", "f7ccb80"),
    "reconstruct/family_small_bench_7914dd7_vs_batch_fit.jsonl": ("batch_fit", "f7ccb80"),
    # 'cpu' there is the device: the 2-core AMD EPYC build machine (linalg README, the file's header)
    "linalg/npy_read_cpu_ae42c4f.log": ("_cpu_", "_epyc_"),
}

HEX7 = re.compile(r"^[0-9a-f]{7}$")


def derive(old, date):
    """New path (relative to perf/results) of the old `family/name` (a file or a run folder) by the rule."""
    family, name = old.split("/", 1)
    is_dir = "." not in name
    stem, _, ext = name.partition(".")
    if old in NAME_FIXES:
        stem = stem.replace(*NAME_FIXES[old])
    tokens = stem.split("_")
    device, words, commit, i = None, [], None, 0
    while i < len(tokens):
        t = tokens[i]
        if t in DEVICES:
            if device:
                raise ValueError(f"{old}: two devices")
            device, i = t, i + 1
        elif HEX7.match(t):
            group = [t]
            i += 1
            while i < len(tokens) and (HEX7.match(tokens[i]) or
                                       (tokens[i] in CONNECTORS and i + 1 < len(tokens) and HEX7.match(tokens[i + 1]))):
                group.append(tokens[i])
                i += 1
            if commit:
                raise ValueError(f"{old}: two separate commits")
            commit = group[-1]
            if len(group) > 1:
                words.append("-".join(group))
        else:
            words.append(t)
            i += 1
    if not commit:
        raise ValueError(f"{old}: no commit in the name")
    best = None
    for fam, prefix, bench, first, default_device in RULES:
        p = prefix.split("_")
        if fam == family and words[:len(p)] == p and (best is None or len(p) > len(best[0])):
            best = (p, bench, first, default_device)
    if best is None:
        raise ValueError(f"{old}: no rule")
    p, bench, first, default_device = best
    variant = "_".join(([first] if first else []) + words[len(p):])
    device = device or default_device
    if not device:
        raise ValueError(f"{old}: no device")
    new = f"{date}_{device}_{commit}" + (f"_{variant}" if variant else "")
    if name_error(new + ("" if is_dir else "." + ext), is_dir):
        raise ValueError(f"{old}: {new} breaks the rule")
    return f"{family}/{bench}/{new}" + ("" if is_dir else "." + ext)


def git(*args, check=True):
    r = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise SystemExit(f"git {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


def old_results():
    """The old names present in git: {'family/name': [files]} (a run folder lists its files)."""
    out = {}
    for path in git("ls-files", "-z", "perf/results").split("\0"):
        if not path:
            continue
        parts = path.split("/")[2:]
        if parts[-1] in ("README.md", "INDEX.md") and len(parts) <= 2:
            continue
        if len(parts) > 2 and not any(HEX7.match(t) for t in parts[1].split("_")):
            continue  # <family>/<bench>/...: named by the rule already
        out.setdefault("/".join(parts[:2]), []).append(path)
    return out


def added_on(path):
    log = git("log", "--diff-filter=A", "--follow", "--format=%ad", "--date=short", "--", path)
    lines = log.split()
    if not lines:
        raise SystemExit(f"{path}: not in git history")
    return lines[-1]


def derived_mapping(olds):
    table = {}
    for old, files in sorted(olds.items()):
        date = min(added_on(f) for f in files)
        table[old] = derive(old, date)
    return table


def frozen_mapping():
    table = {}
    for line in MIGRATION.strip().splitlines():
        old, new = line.split()
        table[old] = new
    return table


# References written as patterns in the family READMEs: (family, old text, new text). Each is
# checked before it is replaced: the old pattern's files must be exactly those the new one names.
# 'P' stands for a process (madevent_channels_P_...), '*' and {a,b} as in the shell.
PATTERN_REFERENCES = [
    ("amplitudes", "madevent_channels_P_sde2_epyc_4637313.jsonl", "madevent/2026-11-28_epyc_4637313_channels_P_sde2.jsonl"),
    ("amplitudes", "madevent_channels_P_epyc_7ad1ff1.jsonl", "madevent/2026-11-28_epyc_7ad1ff1_channels_P.jsonl"),
    ("amplitudes", "me_in_flight_303ec30_k{1,4,16}.json", "me_in_flight/2026-11-23_h100_303ec30_k{1,4,16}.json"),
    ("amplitudes", "me_in_flight_k{1,2,4,8,16}_h100_5b5d688.json", "me_in_flight/2026-11-23_h100_5b5d688_k{1,2,4,8,16}.json"),
    ("linalg", "rref_cpu_1c7186e_run{1,2}.json", "rref_cpu/2026-11-23_epyc_1c7186e_run{1,2}.json"),
    ("linalg", "rref_1c7186e_{p31,p23,p62}_all_h100.json", "rref/2026-11-23_h100_1c7186e_{p31,p23,p62}_all.json"),
    ("linalg", "rref_555fbae_p31_{49152,65536}_h100.json", "rref/2026-11-23_h100_555fbae_p31_{49152,65536}.json"),
    ("linalg", "gemm_p*_h100_bcd8853.json", "gemm/*_h100_bcd8853_p*.json"),
    ("linalg", "rref_1c7186e_{p31,f64}_h100.json", "rref/2026-11-23_h100_1c7186e_{p31,f64}.json"),
    ("linalg", "rref_c1f9fdb_{p31,p23,p62,f64,p31_32768}_h100.json",
     "rref/2026-11-23_h100_c1f9fdb_{p31,p23,p62,f64,p31_32768}.json"),
    ("linalg", "rref_blocked2_{p31,p23,f64,p31_panels1024}_h100_3a2dd0d.json",
     "rref/2026-11-23_h100_3a2dd0d_blocked2_{p31,p23,f64,p31_panels1024}.json"),
    ("linalg", "rref_blocked_{p31,p31_32768,p23,f64}_h100_ff13cf7.json",
     "rref/2026-11-23_h100_ff13cf7_blocked_{p31,p31_32768,p23,f64}.json"),
    ("linalg", "rref_blocked_linac_{p31,p23,p62}_h100_ff13cf7.log", "rref_linac/2026-11-23_h100_ff13cf7_blocked_{p31,p23,p62}.log"),
    ("reconstruct", "reconstruct_h100_expression_f4a2abe.{jsonl,log}",
     "reconstruct_gpu/2026-11-24_h100_f4a2abe_expression.{jsonl,log}"),
    ("reconstruct", "zippel_crossover2_*_h100_1513e66.json", "zippel/2026-11-23_h100_1513e66_crossover2_*.json"),
    ("reduce", "side_by_side_*_076d3d5.jsonl", "side_by_side/2026-11-28_epyc_076d3d5_*.jsonl"),
    ("reduce", "one_core_hepex_*_c732c45.jsonl", "side_by_side/2026-11-28_epyc_c732c45_one_core_hepex_*.jsonl"),
]


def pattern_re(pattern):
    out, i = "", 0
    while i < len(pattern):
        c = pattern[i]
        if c == "{":
            j = pattern.index("}", i)
            out += "(?:" + "|".join(re.escape(a) for a in pattern[i + 1:j].split(",")) + ")"
            i = j + 1
            continue
        if c == "*":
            out += "[^/]*"
        elif c == "P" and pattern[i - 1:i] in ("_", "/") and pattern[i + 1:i + 2] in ("_", "."):
            out += "[^/]+"
        else:
            out += re.escape(c)
        i += 1
    return re.compile("^" + out + "$")


def check_patterns(table):
    for family, old, new in PATTERN_REFERENCES:
        olds = {o for o in table if o.startswith(family + "/") and pattern_re(old).match(o.split("/", 1)[1])}
        news = {n for n in table.values() if n.startswith(family + "/") and pattern_re(new).match(n.split("/", 1)[1])}
        if not olds or {table[o] for o in olds} != news:
            raise SystemExit(f"pattern {family}: {old} -> {new}: names {sorted(olds)} but the new one {sorted(news)}")


def reference_re(names):
    alternation = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(r"(?<![A-Za-z0-9_.-])(?:" + alternation + r")(?![A-Za-z0-9_])")


def rewrite(text, context_family, where_is, pattern):
    """Replace each old name whose path (relative to the file's folder) is known; return text, unresolved."""
    unresolved, out, last = [], [], 0
    for m in pattern.finditer(text):
        name = m.group(0)
        line_start = text.rfind("\n", 0, m.start()) + 1
        prefix = re.search(r"[A-Za-z0-9_./-]*$", text[line_start:m.start()]).group(0)
        family, new = where_is[name]
        if prefix == "":
            ok = context_family == family
        else:
            parts = prefix.rstrip("/").split("/")
            ok = prefix.endswith("/") and parts[-1] == family
        line_no = text.count("\n", 0, m.start()) + 1
        if ok:
            out.append(text[last:m.start()] + new)
            last = m.end()
        else:
            unresolved.append((line_no, prefix + name))
    out.append(text[last:])
    return "".join(out), unresolved


def apply():
    if git("status", "--porcelain", "--", "perf/results"):
        raise SystemExit("perf/results has uncommitted changes: commit or stash them first")
    olds = old_results()
    table = frozen_mapping()
    missing = sorted(set(table) - set(olds))
    if missing:
        raise SystemExit(f"--apply: {len(missing)} of the {len(table)} old names are not in git "
                         f"(already migrated?), e.g. {missing[:3]}")
    extra = sorted(o for o in olds if o not in table and name_error(o.split("/")[-1], "." not in o) is not None
                   and len(o.split("/")) == 2)
    derived = derived_mapping({o: olds[o] for o in table})
    differ = [(o, table[o], derived[o]) for o in table if derived[o] != table[o]]
    if differ or extra:
        for o, t, d in differ:
            print(f"--apply: {o}: MIGRATION says {t}, the rule and git give {d}", file=sys.stderr)
        for o in extra:
            print(f"--apply: {o}: not in MIGRATION", file=sys.stderr)
        raise SystemExit(1)
    if len(set(table.values())) != len(table):
        raise SystemExit("--apply: two old names map to one new name")
    check_patterns(table)
    for old, new in sorted(table.items()):
        src, dst = RESULTS / old, RESULTS / new
        if dst.exists():
            raise SystemExit(f"--apply: {dst.relative_to(ROOT)} exists")
        dst.parent.mkdir(parents=True, exist_ok=True)
        git("mv", src.relative_to(ROOT).as_posix(), dst.relative_to(ROOT).as_posix())
    print(f"--apply: moved {len(table)} results "
          f"({sum(len(olds[o]) for o in table)} files, {sum(1 for o in table if '.' not in o)} run folders)")

    # References: a name relative to the file's folder ('' in perf/results/F/README.md for F's own
    # files, '../G/' for another family's) becomes bench/new_name; perf/README.md and docs/*.md name
    # them through results/F/ or perf/results/F/.
    where_is = {}
    for old, new in table.items():
        family, name = old.split("/", 1)
        where_is[name] = (family, new.split("/", 1)[1])
    pattern = reference_re(where_is)
    texts = sorted(RESULTS.glob("*/README.md")) + [ROOT / "perf" / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    changed, unresolved = [], []
    for path in texts:
        context = path.parent.name if path.parent.parent == RESULTS else None
        text = path.read_text(encoding="utf-8")
        new_text, left = rewrite(text, context, where_is, pattern)
        if context:
            for family, old, new in PATTERN_REFERENCES:
                if family == context:
                    new_text = new_text.replace(old, new)
        unresolved += [(path, n, ref) for n, ref in left]
        if new_text != text:
            path.write_text(new_text, encoding="utf-8")
            changed.append(path.relative_to(ROOT).as_posix())
    print("--apply: references rewritten in " + (", ".join(changed) if changed else "no file"))
    docs = [c for c in changed if c.startswith("docs/")]
    print("--apply: docs/*.md changed: " + (", ".join(docs) if docs else "none"))
    for path, n, ref in unresolved:
        print(f"--apply: left as it was (path not known): {path.relative_to(ROOT)}:{n}: {ref}")

    # What still names an old file anywhere in the work tree (build folders and .git aside)
    names = reference_re(where_is)
    left = 0
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [d for d in dirnames if d != ".git" and not d.startswith("build")]
        for f in filenames:
            p = Path(dirpath) / f
            if p.resolve() == SELF:
                continue
            try:
                text = p.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            for m in names.finditer(text):
                left += 1
                line = text.count("\n", 0, m.start()) + 1
                print(f"--apply: still named: {p.relative_to(ROOT)}:{line}: {m.group(0)}")
    print(f"--apply: {left} references to old names left; now write the index: python3 {SELF.relative_to(ROOT)}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--check", action="store_true", help="exit 1 if a result breaks the rule or INDEX.md is stale")
    g.add_argument("--apply", action="store_true", help="the one-time migration of the old names (git mv)")
    g.add_argument("--mapping", action="store_true", help="print the migration table")
    g.add_argument("--derive", action="store_true", help="print the table the rule and git give now (old names in git)")
    args = ap.parse_args()
    if args.check:
        return check()
    if args.apply:
        return apply()
    if args.mapping:
        for old, new in sorted(frozen_mapping().items()):
            print(f"{old}  {new}")
        return 0
    if args.derive:
        for old, new in derived_mapping(old_results()).items():
            print(f"{old}  {new}")
        return 0
    return write_index()


# The migration of 2026-11-28: perf/results/<old>  ->  perf/results/<new> (run folders without an extension).
MIGRATION = """
amplitudes/channel_weights_tests_h200_7146809.log             amplitudes/channel_weights_tests/2026-11-28_h200_7146809.log
amplitudes/generate_events_epyc_7ad1ff1.jsonl                 amplitudes/generate_events/2026-11-28_epyc_7ad1ff1.jsonl
amplitudes/generate_events_gg_tt_epyc_76ba864.jsonl           amplitudes/generate_events/2026-11-28_epyc_76ba864_gg_tt.jsonl
amplitudes/madevent_channels_gg_tt_epyc_7ad1ff1.jsonl         amplitudes/madevent/2026-11-28_epyc_7ad1ff1_channels_gg_tt.jsonl
amplitudes/madevent_channels_gg_tt_sde2_epyc_4637313.jsonl    amplitudes/madevent/2026-11-28_epyc_4637313_channels_gg_tt_sde2.jsonl
amplitudes/madevent_channels_gg_ttg_epyc_7ad1ff1.jsonl        amplitudes/madevent/2026-11-28_epyc_7ad1ff1_channels_gg_ttg.jsonl
amplitudes/madevent_channels_gg_ttg_sde2_epyc_4637313.jsonl   amplitudes/madevent/2026-11-28_epyc_4637313_channels_gg_ttg_sde2.jsonl
amplitudes/madevent_channels_gg_ttgg_epyc_7ad1ff1.jsonl       amplitudes/madevent/2026-11-28_epyc_7ad1ff1_channels_gg_ttgg.jsonl
amplitudes/madevent_channels_gg_ttgg_sde2_epyc_4637313.jsonl  amplitudes/madevent/2026-11-28_epyc_4637313_channels_gg_ttgg_sde2.jsonl
amplitudes/madevent_gpu_h200_7146809.log                      amplitudes/madevent/2026-11-28_h200_7146809_gpu.log
amplitudes/madevent_gpu_h200_7ad1ff1.log                      amplitudes/madevent/2026-11-28_h200_7ad1ff1_gpu.log
amplitudes/madevent_one_core_gg_ttgg_epyc_4637313.jsonl       amplitudes/madevent/2026-11-28_epyc_4637313_one_core_gg_ttgg.jsonl
amplitudes/madevent_one_core_gg_ttggg_epyc_4637313.jsonl      amplitudes/madevent/2026-11-28_epyc_4637313_one_core_gg_ttggg.jsonl
amplitudes/madevent_simd_gg_ttgg_epyc_core1_7ad1ff1.jsonl     amplitudes/madevent/2026-11-28_epyc_7ad1ff1_simd_gg_ttgg_core1.jsonl
amplitudes/me_303ec30_h100.json                               amplitudes/me_gpu/2026-11-23_h100_303ec30.json
amplitudes/me_303ec30_h100.log                                amplitudes/me_gpu/2026-11-23_h100_303ec30.log
amplitudes/me_303ec30_h100.png                                amplitudes/me_gpu/2026-11-23_h100_303ec30.png
amplitudes/me_6d92ba1_h100.json                               amplitudes/me_gpu/2026-11-24_h100_6d92ba1.json
amplitudes/me_6d92ba1_h100.log                                amplitudes/me_gpu/2026-11-24_h100_6d92ba1.log
amplitudes/me_6d92ba1_h100.png                                amplitudes/me_gpu/2026-11-24_h100_6d92ba1.png
amplitudes/me_ab_303ec30_h100.log                             amplitudes/me_ab/2026-11-23_h100_303ec30.log
amplitudes/me_ab_6d80e96_h100.log                             amplitudes/me_ab/2026-11-24_h100_6d80e96.log
amplitudes/me_ab_6d92ba1_h100.log                             amplitudes/me_ab/2026-11-24_h100_6d92ba1.log
amplitudes/me_ab_dc46ece_h100.log                             amplitudes/me_ab/2026-11-23_h100_dc46ece.log
amplitudes/me_ab_fb9b315_h100.log                             amplitudes/me_ab/2026-11-24_h100_fb9b315.log
amplitudes/me_blas_fb9b315_h100.log                           amplitudes/me_blas/2026-11-24_h100_fb9b315.log
amplitudes/me_channels_h200_7ad1ff1.md                        amplitudes/me_choices/2026-11-28_h200_7ad1ff1_channels.md
amplitudes/me_choices_h100_12533cc.log                        amplitudes/me_choices/2026-11-26_h100_12533cc.log
amplitudes/me_choices_h100_bbfe31e.log                        amplitudes/me_choices/2026-11-26_h100_bbfe31e.log
amplitudes/me_cpu_core_pairs_xeon_f2af27a.txt                 amplitudes/me_cpu/2026-11-25_xeon_f2af27a_core_pairs.txt
amplitudes/me_cpu_openmp_avx2_avx512_xeon_f2af27a.txt         amplitudes/me_cpu/2026-11-25_xeon_f2af27a_openmp_avx2_avx512.txt
amplitudes/me_cpu_openmp_xeon_f2af27a.txt                     amplitudes/me_cpu/2026-11-25_xeon_f2af27a_openmp.txt
amplitudes/me_cpu_refs_openmp_xeon_f2af27a.log                amplitudes/me_cpu/2026-11-25_xeon_f2af27a_refs_openmp.log
amplitudes/me_cpu_rounds_xeon_f2af27a_call1.log               amplitudes/me_cpu/2026-11-25_xeon_f2af27a_rounds_call1.log
amplitudes/me_cpu_rounds_xeon_f2af27a_call2.log               amplitudes/me_cpu/2026-11-25_xeon_f2af27a_rounds_call2.log
amplitudes/me_cudacpp_h100_0a53bf1.tsv                        amplitudes/me_gpu/2026-11-23_h100_0a53bf1_cudacpp.tsv
amplitudes/me_cudacpp_ttggg_h100_0a53bf1.tsv                  amplitudes/me_gpu/2026-11-23_h100_0a53bf1_cudacpp_ttggg.tsv
amplitudes/me_dc46ece_h100.json                               amplitudes/me_gpu/2026-11-23_h100_dc46ece.json
amplitudes/me_dc46ece_h100.log                                amplitudes/me_gpu/2026-11-23_h100_dc46ece.log
amplitudes/me_demo_6d92ba1_h100.log                           amplitudes/me_demo/2026-11-24_h100_6d92ba1.log
amplitudes/me_demo_fb9b315_h100.log                           amplitudes/me_demo/2026-11-24_h100_fb9b315.log
amplitudes/me_fb9b315_h100.json                               amplitudes/me_gpu/2026-11-24_h100_fb9b315.json
amplitudes/me_fb9b315_h100.log                                amplitudes/me_gpu/2026-11-24_h100_fb9b315.log
amplitudes/me_fb9b315_h100.png                                amplitudes/me_gpu/2026-11-24_h100_fb9b315.png
amplitudes/me_h100_0a53bf1.json                               amplitudes/me_gpu/2026-11-23_h100_0a53bf1.json
amplitudes/me_h100_0a53bf1.log                                amplitudes/me_gpu/2026-11-23_h100_0a53bf1.log
amplitudes/me_h100_0a53bf1.png                                amplitudes/me_gpu/2026-11-23_h100_0a53bf1.png
amplitudes/me_h100_f2af27a.log                                amplitudes/me_gpu/2026-11-25_h100_f2af27a.log
amplitudes/me_h100_sweep_f2af27a.json                         amplitudes/me_gpu/2026-11-25_h100_f2af27a_sweep.json
amplitudes/me_h100_sweep_f4a2abe_beside_f2af27a.json          amplitudes/me_gpu/2026-11-25_h100_f2af27a_sweep_f4a2abe-beside-f2af27a.json
amplitudes/me_host_core_h100_0a53bf1.json                     amplitudes/me_gpu/2026-11-23_h100_0a53bf1_host_core.json
amplitudes/me_in_flight_303ec30.log                           amplitudes/me_in_flight/2026-11-23_h100_303ec30.log
amplitudes/me_in_flight_303ec30_k1.json                       amplitudes/me_in_flight/2026-11-23_h100_303ec30_k1.json
amplitudes/me_in_flight_303ec30_k16.json                      amplitudes/me_in_flight/2026-11-23_h100_303ec30_k16.json
amplitudes/me_in_flight_303ec30_k4.json                       amplitudes/me_in_flight/2026-11-23_h100_303ec30_k4.json
amplitudes/me_in_flight_gg_ttgg_h100_5b5d688.png              amplitudes/me_in_flight/2026-11-23_h100_5b5d688_gg_ttgg.png
amplitudes/me_in_flight_gg_ttggg_h100_5b5d688.png             amplitudes/me_in_flight/2026-11-23_h100_5b5d688_gg_ttggg.png
amplitudes/me_in_flight_h100_5b5d688.log                      amplitudes/me_in_flight/2026-11-23_h100_5b5d688.log
amplitudes/me_in_flight_k16_h100_5b5d688.json                 amplitudes/me_in_flight/2026-11-23_h100_5b5d688_k16.json
amplitudes/me_in_flight_k1_h100_5b5d688.json                  amplitudes/me_in_flight/2026-11-23_h100_5b5d688_k1.json
amplitudes/me_in_flight_k2_h100_5b5d688.json                  amplitudes/me_in_flight/2026-11-23_h100_5b5d688_k2.json
amplitudes/me_in_flight_k4_h100_5b5d688.json                  amplitudes/me_in_flight/2026-11-23_h100_5b5d688_k4.json
amplitudes/me_in_flight_k8_h100_5b5d688.json                  amplitudes/me_in_flight/2026-11-23_h100_5b5d688_k8.json
amplitudes/me_lanes_h100_47eb49f.log                          amplitudes/me_lanes/2026-11-23_h100_47eb49f.log
amplitudes/me_latency_h100_a479f94.json                       amplitudes/me_latency/2026-11-23_h100_a479f94.json
amplitudes/me_latency_h100_a479f94.log                        amplitudes/me_latency/2026-11-23_h100_a479f94.log
amplitudes/me_launch_bounds_h100_6d92ba1.log                  amplitudes/me_launch_bounds/2026-11-24_h100_6d92ba1.log
amplitudes/me_merged_steps_h100_fb9b315.log                   amplitudes/me_merged_steps/2026-11-24_h100_fb9b315.log
amplitudes/me_ncu_dc46ece_h100.log                            amplitudes/me_ncu/2026-11-23_h100_dc46ece.log
amplitudes/me_ncu_h100_5b5d688.log                            amplitudes/me_ncu/2026-11-23_h100_5b5d688.log
amplitudes/me_ncu_span_h100_5b5d688.log                       amplitudes/me_ncu/2026-11-23_h100_5b5d688_span.log
amplitudes/me_ncu_stalls_h100_5b5d688.log                     amplitudes/me_ncu/2026-11-23_h100_5b5d688_stalls.log
amplitudes/me_sanitizer_303ec30_h100.log                      amplitudes/me_sanitizer/2026-11-23_h100_303ec30.log
amplitudes/me_shapes_h100_0a53bf1.log                         amplitudes/me_shapes/2026-11-23_h100_0a53bf1.log
amplitudes/me_stalls_h100_6d92ba1.log                         amplitudes/me_stalls/2026-11-24_h100_6d92ba1.log
amplitudes/me_team_sizes_h100_fb9b315.log                     amplitudes/me_team_sizes/2026-11-24_h100_fb9b315.log
amplitudes/me_tests_303ec30_h100.log                          amplitudes/me_tests/2026-11-23_h100_303ec30.log
amplitudes/me_tests_6d92ba1_h100.log                          amplitudes/me_tests/2026-11-24_h100_6d92ba1.log
amplitudes/me_tests_dc46ece_h100.log                          amplitudes/me_tests/2026-11-23_h100_dc46ece.log
amplitudes/me_tests_fb9b315_h100.log                          amplitudes/me_tests/2026-11-24_h100_fb9b315.log
amplitudes/me_tests_h100_5b5d688.log                          amplitudes/me_tests/2026-11-23_h100_5b5d688.log
amplitudes/me_ttggg_h100_0a53bf1.json                         amplitudes/me_gpu/2026-11-23_h100_0a53bf1_ttggg.json
amplitudes/me_ttggg_h100_0a53bf1.log                          amplitudes/me_gpu/2026-11-23_h100_0a53bf1_ttggg.log
checks/memcheck_h200_ce3aabb.log                              checks/memcheck/2026-11-28_h200_ce3aabb.log
checks/memcheck_h200_e680ffe.log                              checks/memcheck/2026-11-28_h200_e680ffe.log
checks/racecheck_survey_h200_e680ffe.txt                      checks/racecheck_survey/2026-11-28_h200_e680ffe.txt
checks/row_space_memcheck_h200_6738888.log                    checks/memcheck/2026-11-28_h200_6738888_row_space.log
checks/row_space_tests_h200_6738888.log                       checks/tests/2026-11-28_h200_6738888_row_space.log
checks/run_gpu_checks_h200_ce3aabb.txt                        checks/run_gpu_checks/2026-11-28_h200_ce3aabb.txt
checks/run_gpu_checks_h200_f2ebaa3.txt                        checks/run_gpu_checks/2026-11-28_h200_f2ebaa3.txt
distributed/reconstruct_schedules_h200x4_c93cd76              distributed/reconstruct_schedules/2026-11-28_h200x4_c93cd76
distributed/scaling_h200x2_8b21d9f                            distributed/scaling/2026-11-23_h200x2_8b21d9f
distributed/scaling_h200x4_6738888                            distributed/scaling/2026-11-28_h200x4_6738888
field/field_mulmod_h100_de0f257.json                          field/mulmod/2026-11-22_h100_de0f257.json
linalg/gemm_cpu_fflas_bcd8853.json                            linalg/gemm_cpu/2026-11-23_epyc_bcd8853_fflas.json
linalg/gemm_h100_bcd8853.log                                  linalg/gemm/2026-11-23_h100_bcd8853.log
linalg/gemm_h100_bcd8853.png                                  linalg/gemm/2026-11-23_h100_bcd8853.png
linalg/gemm_p16_h100_bcd8853.json                             linalg/gemm/2026-11-22_h100_bcd8853_p16.json
linalg/gemm_p16_kept_h100_bcd8853.json                        linalg/gemm/2026-11-23_h100_bcd8853_p16_kept.json
linalg/gemm_p20_h100_bcd8853.json                             linalg/gemm/2026-11-23_h100_bcd8853_p20.json
linalg/gemm_p24_h100_bcd8853.json                             linalg/gemm/2026-11-23_h100_bcd8853_p24.json
linalg/gemm_p31_h100_bcd8853.json                             linalg/gemm/2026-11-22_h100_bcd8853_p31.json
linalg/gemm_p31_int64_h100_bcd8853.json                       linalg/gemm/2026-11-23_h100_bcd8853_p31_int64.json
linalg/gemm_p31_kept_h100_bcd8853.json                        linalg/gemm/2026-11-23_h100_bcd8853_p31_kept.json
linalg/gemm_p62_int64_h100_bcd8853.json                       linalg/gemm/2026-11-23_h100_bcd8853_p62_int64.json
linalg/gemm_p63_h100_bcd8853.json                             linalg/gemm/2026-11-22_h100_bcd8853_p63.json
linalg/large_rref_h200_6738888                                linalg/large_rref/2026-11-28_h200_6738888
linalg/npy_read_cpu_ae42c4f.log                               linalg/npy_read/2026-11-26_epyc_ae42c4f.log
linalg/row_space_epyc1core_6738888.jsonl                      linalg/row_space/2026-11-28_epyc1core_6738888.jsonl
linalg/rref_1c7186e_all_h100.log                              linalg/rref/2026-11-23_h100_1c7186e_all.log
linalg/rref_1c7186e_f64_h100.json                             linalg/rref/2026-11-23_h100_1c7186e_f64.json
linalg/rref_1c7186e_h100.log                                  linalg/rref/2026-11-23_h100_1c7186e.log
linalg/rref_1c7186e_linac_h100.log                            linalg/rref_linac/2026-11-23_h100_1c7186e.log
linalg/rref_1c7186e_linac_p31_h100.log                        linalg/rref_linac/2026-11-23_h100_1c7186e_p31.log
linalg/rref_1c7186e_p23_all_h100.json                         linalg/rref/2026-11-23_h100_1c7186e_p23_all.json
linalg/rref_1c7186e_p31_all_h100.json                         linalg/rref/2026-11-23_h100_1c7186e_p31_all.json
linalg/rref_1c7186e_p31_h100.json                             linalg/rref/2026-11-23_h100_1c7186e_p31.json
linalg/rref_1c7186e_p62_all_h100.json                         linalg/rref/2026-11-23_h100_1c7186e_p62_all.json
linalg/rref_555fbae_big_h100.log                              linalg/rref/2026-11-23_h100_555fbae_big.log
linalg/rref_555fbae_p31_49152_h100.json                       linalg/rref/2026-11-23_h100_555fbae_p31_49152.json
linalg/rref_555fbae_p31_65536_h100.json                       linalg/rref/2026-11-23_h100_555fbae_p31_65536.json
linalg/rref_blocked2_f64_h100_3a2dd0d.json                    linalg/rref/2026-11-23_h100_3a2dd0d_blocked2_f64.json
linalg/rref_blocked2_h100_3a2dd0d.log                         linalg/rref/2026-11-23_h100_3a2dd0d_blocked2.log
linalg/rref_blocked2_linac_p31_h100_3a2dd0d.log               linalg/rref_linac/2026-11-23_h100_3a2dd0d_blocked2_p31.log
linalg/rref_blocked2_p23_h100_3a2dd0d.json                    linalg/rref/2026-11-23_h100_3a2dd0d_blocked2_p23.json
linalg/rref_blocked2_p31_h100_3a2dd0d.json                    linalg/rref/2026-11-23_h100_3a2dd0d_blocked2_p31.json
linalg/rref_blocked2_p31_panels1024_h100_3a2dd0d.json         linalg/rref/2026-11-23_h100_3a2dd0d_blocked2_p31_panels1024.json
linalg/rref_blocked_f64_h100_ff13cf7.json                     linalg/rref/2026-11-23_h100_ff13cf7_blocked_f64.json
linalg/rref_blocked_h100_3a2dd0d.png                          linalg/rref/2026-11-23_h100_3a2dd0d_blocked.png
linalg/rref_blocked_h100_ff13cf7.log                          linalg/rref/2026-11-23_h100_ff13cf7_blocked.log
linalg/rref_blocked_linac_p23_h100_ff13cf7.log                linalg/rref_linac/2026-11-23_h100_ff13cf7_blocked_p23.log
linalg/rref_blocked_linac_p31_h100_ff13cf7.log                linalg/rref_linac/2026-11-23_h100_ff13cf7_blocked_p31.log
linalg/rref_blocked_linac_p62_h100_ff13cf7.log                linalg/rref_linac/2026-11-23_h100_ff13cf7_blocked_p62.log
linalg/rref_blocked_p23_h100_ff13cf7.json                     linalg/rref/2026-11-23_h100_ff13cf7_blocked_p23.json
linalg/rref_blocked_p31_32768_h100_ff13cf7.json               linalg/rref/2026-11-23_h100_ff13cf7_blocked_p31_32768.json
linalg/rref_blocked_p31_h100_ff13cf7.json                     linalg/rref/2026-11-23_h100_ff13cf7_blocked_p31.json
linalg/rref_c1f9fdb_f64_h100.json                             linalg/rref/2026-11-23_h100_c1f9fdb_f64.json
linalg/rref_c1f9fdb_h100.log                                  linalg/rref/2026-11-23_h100_c1f9fdb.log
linalg/rref_c1f9fdb_h100.png                                  linalg/rref/2026-11-23_h100_c1f9fdb.png
linalg/rref_c1f9fdb_linac_other_h100.log                      linalg/rref_linac/2026-11-23_h100_c1f9fdb_other.log
linalg/rref_c1f9fdb_linac_p31_h100.log                        linalg/rref_linac/2026-11-23_h100_c1f9fdb_p31.log
linalg/rref_c1f9fdb_p23_h100.json                             linalg/rref/2026-11-23_h100_c1f9fdb_p23.json
linalg/rref_c1f9fdb_p31_32768_h100.json                       linalg/rref/2026-11-23_h100_c1f9fdb_p31_32768.json
linalg/rref_c1f9fdb_p31_h100.json                             linalg/rref/2026-11-23_h100_c1f9fdb_p31.json
linalg/rref_c1f9fdb_p62_h100.json                             linalg/rref/2026-11-23_h100_c1f9fdb_p62.json
linalg/rref_cpu_1c7186e_p31_repeats.json                      linalg/rref_cpu/2026-11-23_epyc_1c7186e_p31_repeats.json
linalg/rref_cpu_1c7186e_run1.json                             linalg/rref_cpu/2026-11-23_epyc_1c7186e_run1.json
linalg/rref_cpu_1c7186e_run2.json                             linalg/rref_cpu/2026-11-23_epyc_1c7186e_run2.json
linalg/rref_cpu_3a2dd0d.json                                  linalg/rref_cpu/2026-11-23_epyc_3a2dd0d.json
linalg/rref_cpu_c1f9fdb_quiet.json                            linalg/rref_cpu/2026-11-23_epyc_c1f9fdb_quiet.json
linalg/rref_cpu_c1f9fdb_run1.json                             linalg/rref_cpu/2026-11-23_epyc_c1f9fdb_run1.json
linalg/rref_cpu_c1f9fdb_run2.json                             linalg/rref_cpu/2026-11-23_epyc_c1f9fdb_run2.json
linalg/rref_f64_h100_4f8acdb.json                             linalg/rref/2026-11-22_h100_4f8acdb_f64.json
linalg/rref_flint_p31_h100_3d7e257.json                       linalg/rref_flint/2026-11-22_h100_3d7e257_p31.json
linalg/rref_h100_4f8acdb.png                                  linalg/rref/2026-11-22_h100_4f8acdb.png
linalg/rref_linac_h100_4f8acdb.log                            linalg/rref_linac/2026-11-22_h100_4f8acdb.log
linalg/rref_p23_h100_4f8acdb.json                             linalg/rref/2026-11-22_h100_4f8acdb_p23.json
linalg/rref_p31_h100_4f8acdb.json                             linalg/rref/2026-11-22_h100_4f8acdb_p31.json
linalg/rref_python_h100_7cfbe4f.log                           linalg/rref_python/2026-11-26_h100_7cfbe4f.log
linalg/vendor_gemm_ab_h100_1d11146.log                        linalg/vendor_gemm_ab/2026-11-26_h100_1d11146.log
reconstruct/family_20000_7914dd7_vs_3171e8f.jsonl             reconstruct/family_regression/2026-11-27_epyc_3171e8f_20000_7914dd7-vs-3171e8f.jsonl
reconstruct/family_20000_7914dd7_vs_690773a.jsonl             reconstruct/family_regression/2026-11-27_epyc_690773a_20000_7914dd7-vs-690773a.jsonl
reconstruct/family_r5000_1250_best5_7914dd7_vs_4c24299.jsonl  reconstruct/family_regression/2026-11-27_epyc_4c24299_r5000_1250_best5_7914dd7-vs-4c24299.jsonl
reconstruct/family_regression_7914dd7_vs_97c9e17.jsonl        reconstruct/family_regression/2026-11-27_epyc_97c9e17_7914dd7-vs-97c9e17.jsonl
reconstruct/family_regression_bench_7914dd7_vs_4c24299.jsonl  reconstruct/family_regression/2026-11-27_epyc_4c24299_bench_7914dd7-vs-4c24299.jsonl
reconstruct/family_regression_bench_7914dd7_vs_71fb220.jsonl  reconstruct/family_regression/2026-11-27_epyc_71fb220_bench_7914dd7-vs-71fb220.jsonl
reconstruct/family_regression_bench_7914dd7_vs_b147dd5.jsonl  reconstruct/family_regression/2026-11-27_epyc_b147dd5_bench_7914dd7-vs-b147dd5.jsonl
reconstruct/family_regression_bench_7914dd7_vs_b681abd.jsonl  reconstruct/family_regression/2026-11-27_epyc_b681abd_bench_7914dd7-vs-b681abd.jsonl
reconstruct/family_small_bench_7914dd7_vs_batch_fit.jsonl     reconstruct/family_regression/2026-11-27_epyc_f7ccb80_small_bench_7914dd7-vs-f7ccb80.jsonl
reconstruct/firefly_suite_690773a.jsonl                       reconstruct/firefly_suite/2026-11-27_epyc_690773a.jsonl
reconstruct/firefly_suite_97c9e17.jsonl                       reconstruct/firefly_suite/2026-11-27_epyc_97c9e17.jsonl
reconstruct/firefly_suite_b147dd5.jsonl                       reconstruct/firefly_suite/2026-11-27_epyc_b147dd5.jsonl
reconstruct/firefly_suite_b681abd.jsonl                       reconstruct/firefly_suite/2026-11-27_epyc_b681abd.jsonl
reconstruct/firefly_suite_batch_fit.jsonl                     reconstruct/firefly_suite/2026-11-27_epyc_f7ccb80.jsonl
reconstruct/reconstruct_h100_aa009f8.jsonl                    reconstruct/reconstruct_gpu/2026-11-24_h100_aa009f8.jsonl
reconstruct/reconstruct_h100_aa009f8.log                      reconstruct/reconstruct_gpu/2026-11-24_h100_aa009f8.log
reconstruct/reconstruct_h100_dce85a0.jsonl                    reconstruct/reconstruct_gpu/2026-11-24_h100_dce85a0.jsonl
reconstruct/reconstruct_h100_dce85a0.log                      reconstruct/reconstruct_gpu/2026-11-24_h100_dce85a0.log
reconstruct/reconstruct_h100_expression_f4a2abe.jsonl         reconstruct/reconstruct_gpu/2026-11-24_h100_f4a2abe_expression.jsonl
reconstruct/reconstruct_h100_expression_f4a2abe.log           reconstruct/reconstruct_gpu/2026-11-24_h100_f4a2abe_expression.log
reconstruct/reconstruct_side_by_side_701a199.jsonl            reconstruct/side_by_side/2026-11-24_epyc_701a199.jsonl
reconstruct/reconstruct_side_by_side_dce85a0.jsonl            reconstruct/side_by_side/2026-11-24_epyc_dce85a0.jsonl
reconstruct/reconstruct_side_by_side_n10_f4a2abe.jsonl        reconstruct/side_by_side/2026-11-24_epyc_f4a2abe_n10.jsonl
reconstruct/zippel_4m8_h100_f4077c7.json                      reconstruct/zippel/2026-11-23_h100_f4077c7_4m8.json
reconstruct/zippel_crossover2_fast_h100_1513e66.json          reconstruct/zippel/2026-11-23_h100_1513e66_crossover2_fast.json
reconstruct/zippel_crossover2_quadratic_h100_1513e66.json     reconstruct/zippel/2026-11-23_h100_1513e66_crossover2_quadratic.json
reconstruct/zippel_crossover_fast_h100_4156a57.json           reconstruct/zippel/2026-11-23_h100_4156a57_crossover_fast.json
reconstruct/zippel_crossover_quadratic_h100_4156a57.json      reconstruct/zippel/2026-11-23_h100_4156a57_crossover_quadratic.json
reconstruct/zippel_fast_h100_1513e66.json                     reconstruct/zippel/2026-11-23_h100_1513e66_fast.json
reconstruct/zippel_fast_h100_1513e66.log                      reconstruct/zippel/2026-11-23_h100_1513e66_fast.log
reconstruct/zippel_fast_run1_h100_4156a57.json                reconstruct/zippel/2026-11-23_h100_4156a57_fast_run1.json
reconstruct/zippel_fast_run1_h100_4156a57.log                 reconstruct/zippel/2026-11-23_h100_4156a57_fast_run1.log
reconstruct/zippel_h100_1513e66.png                           reconstruct/zippel/2026-11-23_h100_1513e66.png
reconstruct/zippel_h100_f4077c7.json                          reconstruct/zippel/2026-11-23_h100_f4077c7.json
reconstruct/zippel_h100_f4077c7.log                           reconstruct/zippel/2026-11-23_h100_f4077c7.log
reconstruct/zippel_levels_h100_4156a57.log                    reconstruct/zippel/2026-11-23_h100_4156a57_levels.log
reduce/h100_hepex_finiteflow_c732c45.jsonl                    reduce/side_by_side/2026-11-28_h100_c732c45_hepex_finiteflow.jsonl
reduce/h100_host_and_gpu_b681abd.jsonl                        reduce/side_by_side/2026-11-27_h100_b681abd_host_and_gpu.jsonl
reduce/h100_side_by_side_9f71119.jsonl                        reduce/side_by_side/2026-11-28_h100_9f71119.jsonl
reduce/h200_host_and_gpu_4c24299.jsonl                        reduce/side_by_side/2026-11-27_h200_4c24299_host_and_gpu.jsonl
reduce/h200_host_threads_85d774b_e1aaa5c_834543e.jsonl        reduce/host_threads/2026-11-27_h200_834543e_85d774b-e1aaa5c-834543e.jsonl
reduce/neatibp_dbox_14b30f5.jsonl                             reduce/neatibp_dbox/2026-11-27_epyc_14b30f5.jsonl
reduce/one_core_hepex_laporta_dbox13_c732c45.jsonl            reduce/side_by_side/2026-11-28_epyc_c732c45_one_core_hepex_laporta_dbox13.jsonl
reduce/one_core_hepex_laporta_dbox_c732c45.jsonl              reduce/side_by_side/2026-11-28_epyc_c732c45_one_core_hepex_laporta_dbox.jsonl
reduce/one_core_hepex_laporta_pentagon_c732c45.jsonl          reduce/side_by_side/2026-11-28_epyc_c732c45_one_core_hepex_laporta_pentagon.jsonl
reduce/one_core_hepex_neatibp_dbox_c732c45.jsonl              reduce/side_by_side/2026-11-28_epyc_c732c45_one_core_hepex_neatibp_dbox.jsonl
reduce/replay_rate_h100_0bca214.jsonl                         reduce/replay_rate/2026-11-28_h100_0bca214.jsonl
reduce/replay_rate_h100_b681abd.jsonl                         reduce/replay_rate/2026-11-27_h100_b681abd.jsonl
reduce/side_by_side_laporta_dbox13_076d3d5.jsonl              reduce/side_by_side/2026-11-28_epyc_076d3d5_laporta_dbox13.jsonl
reduce/side_by_side_laporta_dbox_076d3d5.jsonl                reduce/side_by_side/2026-11-28_epyc_076d3d5_laporta_dbox.jsonl
reduce/side_by_side_laporta_pentagon_076d3d5.jsonl            reduce/side_by_side/2026-11-28_epyc_076d3d5_laporta_pentagon.jsonl
reduce/side_by_side_neatibp_dbox_076d3d5.jsonl                reduce/side_by_side/2026-11-28_epyc_076d3d5_neatibp_dbox.jsonl
reduce/table_check_laporta_dbox_4c24299.jsonl                 reduce/table_check/2026-11-27_epyc_4c24299_laporta_dbox.jsonl
"""

if __name__ == "__main__":
    sys.exit(main())
