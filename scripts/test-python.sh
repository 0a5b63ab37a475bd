#!/usr/bin/env bash
# Build the Python package (crates/kute-py) and run its pytest suite.
#
#   scripts/test-python.sh [PYTEST-ARGS...]
#
# Makes a virtual environment (KUTE_PY_VENV, default ~/.cache/kute-py-venv) with maturin,
# pytest, sympy, numpy (for kute.Tensor) and mypy from PyPI, and pycute (NVIDIA's
# pure-Python CuTe, the `pycute` package of the nvidia-cutlass wheel, installed without its
# dependencies, which pycute does not use) for the tests that compare kute.pycute with it;
# installs the package into it exactly as the README says (`pip install ./crates/kute-py`,
# here without build isolation: maturin is already in the environment) and runs
# crates/kute-py/tests, the type checker among them. The Rust part is built in
# target/python (CARGO_TARGET_DIR is not shared with a cargo command that runs this), with
# the dev profile (KUTE_PY_PROFILE, default dev: half the build time of release, and
# overflow checks on; `release` builds what `pip install ./crates/kute-py` installs).
#
# Needs python3 (3.9 or newer, with venv) and a Rust toolchain. When python3 or its venv
# module is missing, or PyPI cannot be reached to install what the tests need, the script
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

# the reference pycute: one version, so that its answers do not move under the tests
pycute_pin=nvidia-cutlass==4.2.0.0

pip_install() {
    "$vpy" -m pip install --quiet --disable-pip-version-check --timeout 30 --retries 2 "$@"
}

pypi_down() {
    ! "$vpy" -c 'import urllib.request; urllib.request.urlopen("https://pypi.org/simple/maturin/", timeout=20)' \
        >/dev/null 2>&1
}

if ! "$vpy" -c 'import maturin, pytest, sympy, mypy, numpy' >/dev/null 2>&1; then
    if ! pip_install 'maturin>=1.5,<2' pytest sympy mypy numpy; then
        # only an unreachable package index is a reason to skip
        pypi_down && skip "PyPI cannot be reached to install maturin, pytest, sympy, mypy and numpy"
        echo "error: pip could not install maturin, pytest, sympy, mypy and numpy although PyPI is reachable" >&2
        exit 1
    fi
fi
if ! "$vpy" -c 'import pycute, importlib.metadata as m; assert m.version("nvidia-cutlass") == "4.2.0.0"' >/dev/null 2>&1; then
    if ! pip_install --no-deps "$pycute_pin"; then
        pypi_down && skip "PyPI cannot be reached to install pycute ($pycute_pin)"
        echo "error: pip could not install pycute ($pycute_pin) although PyPI is reachable" >&2
        exit 1
    fi
fi
# the comparison with pycute must run, not be skipped
export KUTE_PY_REQUIRE_PYCUTE=1

echo "building (profile ${KUTE_PY_PROFILE:-dev}) and installing crates/kute-py into $venv"
export CARGO_TARGET_DIR=$here/target/python
export MATURIN_PEP517_ARGS="--profile ${KUTE_PY_PROFILE:-dev}"
# The stable-ABI build (`--features abi3`: one wheel for every CPython from 3.9 on) leaves
# out the vectorcall constructors of the default build; the tests run the default build,
# so the other one is at least compiled.
cargo check --quiet -p kute-py --features abi3
# (maturin is run by pip from the venv's bin directory)
PATH=$venv/bin:$PATH "$vpy" -m pip install --quiet --disable-pip-version-check --no-build-isolation \
    --force-reinstall --no-deps ./crates/kute-py

cd crates/kute-py
exec "$vpy" -m pytest -q -p no:cacheprovider tests "$@"
