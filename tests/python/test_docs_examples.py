"""The README's and docs' examples, run as written (issue 36: examples that
needed inputs the repository does not have, Python lines with undefined
names). Each runs in a scratch copy of the repository's layout: `build/src`
is the CLI's folder, `examples/` a copy (the examples write their outputs
there), `tests/data` the test data. A command line whose comment says
"exit N" must exit N; every other line must succeed."""
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PYTHON_DIR = str(pathlib.Path(__import__("hepex").__file__).resolve().parent.parent)


@pytest.fixture
def layout(cli, tmp_path):
    """A scratch copy of the repository's layout (see above), and its env."""
    (tmp_path / "build").mkdir()
    os.symlink(pathlib.Path(cli).resolve().parent, tmp_path / "build" / "src")
    os.symlink(PYTHON_DIR, tmp_path / "build" / "python")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    (tmp_path / "tests").mkdir()
    os.symlink(ROOT / "tests" / "data", tmp_path / "tests" / "data")
    env = {**os.environ, "PYTHONPATH": PYTHON_DIR,
           "PATH": f"{pathlib.Path(cli).resolve().parent}:{os.environ['PATH']}"}
    return tmp_path, env


def blocks(doc, languages):
    """The fenced code blocks of a markdown file in these languages (list
    items' indentation removed)."""
    text = (ROOT / doc).read_text()
    found = []
    for m in re.finditer(r"^( *)```(\w+)\n(.*?)^\1```", text, re.S | re.M):
        if m.group(2) in languages:
            indent = len(m.group(1))
            found.append("".join(line[indent:] + "\n" for line in m.group(3).splitlines()))
    return found


def command_lines(block):
    """Logical lines (continuations joined), without comment-only lines."""
    lines, current = [], ""
    for line in block.splitlines():
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        current += line
        if current.strip() and not current.lstrip().startswith("#"):
            lines.append(current)
        current = ""
    return lines


def run_lines(lines, cwd, env):
    for line in lines:
        expected = re.search(r"#\s*exit (\d)", line)
        command = line.split(" #")[0].strip() if " #" in line else line.strip()
        if command.startswith("cd "):
            cwd = cwd / command[3:].strip()
            continue
        if command.startswith("export PATH="):
            continue  # the fixture's PATH already has build/src first
        r = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True,
                           text=True, timeout=600)
        want = int(expected.group(1)) if expected else 0
        assert r.returncode == want, f"{command}\n-> exit {r.returncode}, expected {want}\n{r.stderr[-3000:]}"


def test_readme_examples(layout):
    cwd, env = layout
    section = (ROOT / "README.md").read_text().split("## One example per family")[1].split("\n## ")[0]
    sh = re.findall(r"```sh\n(.*?)```", section, re.S)
    python = re.findall(r"```python\n(.*?)```", section, re.S)
    console = re.findall(r"```console\n(.*?)```", section, re.S)
    assert len(sh) == 1 and len(python) == 1 and console
    run_lines(command_lines(sh[0]), cwd, env)
    for line in console[0].splitlines():
        if line.startswith("$ "):
            # The README names Debian's interpreter, the one its build used;
            # here the interpreter running the tests is the build's.
            command = line[2:].replace("/usr/bin/python3", sys.executable)
            r = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True,
                               text=True, timeout=60)
            assert r.returncode == 0, (command, r.stderr)
    r = subprocess.run([sys.executable, "-c", python[0]], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "/usr/bin/python3" in section  # the interpreter the build used, named


@pytest.mark.parametrize("doc", ["docs/linalg.md", "docs/reconstruct.md", "docs/reduce.md",
                                 "docs/amplitudes.md", "docs/distributed.md", "docs/madevent.md"])
def test_docs_command_lines(layout, doc):
    cwd, env = layout
    found = [b for b in blocks(doc, ("sh", "bash"))
             if any(line.lstrip().startswith(("hepex ", "mpiexec ")) for line in b.splitlines())]
    assert found, f"{doc}: no command examples found"
    for block in found:
        run_lines([line for line in command_lines(block)
                   if line.lstrip().startswith(("hepex ", "mpiexec ", "cd "))], cwd, env)


def test_python_md_doctests(layout):
    cwd, env = layout
    code = [b for b in blocks("docs/python.md", ("python",)) if "cupy" not in b]
    assert len(code) >= 4
    script = cwd / "doctests.py"
    # One doctest of all the blocks in order: later blocks use earlier names.
    script.write_text(
        "import doctest, sys\n"
        "parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(\n"
        "    optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)\n"
        f"text = {chr(10).join(code)!r}\n"
        "runner.run(parser.get_doctest(text, {}, 'python.md', 'docs/python.md', 0))\n"
        "result = runner.summarize(verbose=False)\n"
        "sys.exit(1 if result.failed or result.attempted < 20 else 0)\n")
    r = subprocess.run([sys.executable, str(script)], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
