#!/usr/bin/env python3
"""Writes the files of one commit of a bare git directory (a snapshot of a
repository outside this one, such as the `fetch` tool's of MadGraph5_aMC@NLO
for make_madevent_reference.sh) into OUT, skipping the blobs the snapshot
lacks (its largest files may be listed but absent, which makes `git archive`
stop) and naming them on stderr. Usage:
    python3 export_git_tree.py GIT_DIR COMMIT OUT"""
import os
import subprocess
import sys


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    git_dir, commit, out = sys.argv[1:]
    listing = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", commit],
                             capture_output=True, text=True, check=True).stdout.splitlines()
    cat = subprocess.Popen(["git", "--git-dir", git_dir, "cat-file", "--batch"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    missing = []
    for line in listing:
        meta, path = line.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind != "blob":
            continue
        cat.stdin.write((sha + "\n").encode())
        cat.stdin.flush()
        header = cat.stdout.readline().decode().split()
        if header[-1] == "missing":
            missing.append(path)
            continue
        data = cat.stdout.read(int(header[2]))
        cat.stdout.read(1)
        target = os.path.join(out, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if mode == "120000":
            os.symlink(data.decode(), target)
        else:
            with open(target, "wb") as f:
                f.write(data)
            if mode == "100755":
                os.chmod(target, 0o755)
    cat.stdin.close()
    cat.wait()
    for path in missing:
        print(f"absent from the snapshot: {path}", file=sys.stderr)
    print(f"{len(listing) - len(missing)} files written to {out}, {len(missing)} absent")


if __name__ == "__main__":
    main()
