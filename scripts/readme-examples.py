#!/usr/bin/env python3
"""Refresh the outputs of the `console` examples of the documents (README.md and every
docs/**/*.md) by running kute.

Every fenced block marked ```console holds commands (lines starting with `$ kute`)
each followed by its output. This script re-runs the commands with the kute binary
(KUTE, or target/release/kute) and writes their real output (stdout, then stderr)
under them.

    scripts/readme-examples.py            # rewrite the documents
    scripts/readme-examples.py --check    # exit 1 if a document is out of date

crates/kute-cli/tests/readme.rs makes the same check under `cargo test`.
"""

import glob
import os
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KUTE = os.environ.get("KUTE", os.path.join(ROOT, "target", "release", "kute"))


def run(cmd):
    argv = shlex.split(cmd)
    assert argv[0] == "kute", f"console examples must run kute: {cmd}"
    p = subprocess.run([KUTE] + argv[1:], capture_output=True, text=True)
    return p.stdout + p.stderr


def refresh(text):
    out, block, indent = [], None, ""
    for line in text.split("\n"):
        stripped = line.lstrip(" ")
        if block is None:
            out.append(line)
            if stripped == "```console":
                block, indent = [], line[: len(line) - len(stripped)]
            continue
        if stripped == "```" and line.startswith(indent):
            for cmd in block:
                out.append(f"{indent}$ {cmd}")
                for o in run(cmd).rstrip("\n").split("\n"):
                    out.append(f"{indent}{o}" if o else o)
            out.append(line)
            block = None
            continue
        body = line[len(indent):]
        if body.startswith("$ "):
            block.append(body[2:])
    return "\n".join(out)


def documents():
    docs = sorted(glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))
    return [os.path.join(ROOT, "README.md")] + docs


def main():
    stale = []
    for path in documents():
        name = os.path.relpath(path, ROOT)
        text = open(path, encoding="utf-8").read()
        new = refresh(text)
        if new == text:
            continue
        if "--check" in sys.argv[1:]:
            stale.append(name)
        else:
            open(path, "w", encoding="utf-8").write(new)
            print(f"{name} updated")
    if stale:
        print(f"examples out of date in {', '.join(stale)}; run scripts/readme-examples.py", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
