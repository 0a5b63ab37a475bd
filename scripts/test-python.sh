#!/usr/bin/env bash
# Build the Python package (crates/kute-py) and run its pytest suite.
#
#   scripts/test-python.sh [PYTEST-ARGS...]
#
# Makes a virtual environment (KUTE_PY_VENV, default ~/.cache/kute-py-venv) with maturin,
# pytest and sympy from PyPI, installs the package into it exactly as the README says
# (`pip install ./crates/kute-py`, here without build isolation: maturin is already in
# the environment) and runs crates/kute-py/tests. The Rust part is built in
# target/python (CARGO_TARGET_DIR is not shared with a cargo command that runs this), with
# the dev profile (KUTE_PY_PROFILE, default dev: half the build time of release, and
# overflow checks on; `release` builds what `pip install ./crates/kute-py` installs).
#
# Needs python3 (3.9 or newer, with venv) and a Rust toolchain. When python3 or its venv
# module is missing, or PyPI cannot be reached to install maturin and pytest, the script
# prints a line starting "SKIPPED:" and exits 0; any other failure exits non-zero.
# Set PYTHON to choose the interpreter.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
py=${PYTHON:-python3}
venv=${KUTE_PY_VENV:-$HOME/.cache/kute-py-venv}

skip() {
    echo "SKIPPED: the Python tests of crates/kute-py did not run: $*"
    exit 0
}

command -v "$py" >/dev/null 2>&1 || skip "no $py on PATH"
"$py" -c 'import sys; sys.exit(sys.version_info < (3, 9))' || skip "$py is older than 3.9"

if [[ ! -x $venv/bin/python ]]; then
    rm -rf "$venv"
    "$py" -m venv "$venv" >/dev/null 2>&1 || { rm -rf "$venv"; skip "$py -m venv failed (is python3-venv installed?)"; }
fi
vpy=$venv/bin/python

if ! "$vpy" -c 'import maturin, pytest, sympy' >/dev/null 2>&1; then
    if ! "$vpy" -m pip install --quiet --disable-pip-version-check --timeout 30 --retries 2 \
        'maturin>=1.5,<2' pytest sympy; then
        # only an unreachable package index is a reason to skip
        if ! "$vpy" -c 'import urllib.request; urllib.request.urlopen("https://pypi.org/simple/maturin/", timeout=20)' \
            >/dev/null 2>&1; then
            skip "PyPI cannot be reached to install maturin, pytest and sympy"
        fi
        echo "error: pip could not install maturin, pytest and sympy although PyPI is reachable" >&2
        exit 1
    fi
fi

echo "building (profile ${KUTE_PY_PROFILE:-dev}) and installing crates/kute-py into $venv"
export CARGO_TARGET_DIR=$here/target/python
export MATURIN_PEP517_ARGS="--profile ${KUTE_PY_PROFILE:-dev}"
# (maturin is run by pip from the venv's bin directory)
PATH=$venv/bin:$PATH "$vpy" -m pip install --quiet --disable-pip-version-check --no-build-isolation \
    --force-reinstall --no-deps ./crates/kute-py

cd crates/kute-py
exec "$vpy" -m pytest -q -p no:cacheprovider tests "$@"
