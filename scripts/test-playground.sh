#!/usr/bin/env bash
# Test the browser playground in headless Chromium: build it (scripts/build-playground.sh),
# serve it on a free local port, and drive it with Playwright (scripts/test-playground.py):
# type an expression, check the result, the table and the SVG picture, a shared link,
# an error, the worked examples, bank colours and a warp's access, Back/Forward and the
# arrow keys, the time a 256x256 layout takes, and a phone-sized screen.
#
#   scripts/test-playground.sh [SCREENSHOT.png]
#
# What it needs, and where it comes from when missing (each installed once, then reused):
#   - the wasm32 target and wasm-bindgen-cli: see scripts/build-playground.sh;
#   - Playwright for Python: a virtual environment in ~/.cache/kute-playground/venv
#     (pip install playwright);
#   - Chromium: $CHROMIUM, else chromium (Debian's package) or chromium-browser on PATH,
#     else Debian's package installed with apt-get (as root), else Playwright's build of
#     Chromium (python -m playwright install chromium, into ~/.cache/ms-playwright).
# Set KUTE_PLAYGROUND_NO_INSTALL=1 to install nothing.
#
# Exit status: 0 when every check passed, or when a tool is missing and cannot be
# installed (no network, say): then the last line is "SKIPPED: <reason>". Any other
# failure (the build, a check) exits non-zero.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
cache=${KUTE_PLAYGROUND_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kute-playground}
export KUTE_PLAYGROUND_CACHE=$cache
no_install=${KUTE_PLAYGROUND_NO_INSTALL:-}
shot=${1:-}
# the Playwright release the test was written against
playwright_version=1.65.2

skip() {
    echo "SKIPPED: $*"
    exit 0
}

# 1. Build the page.
out=${PLAYGROUND_OUT:-${CARGO_TARGET_DIR:-$here/target}/playground}
export PLAYGROUND_OUT=$out
reason=$(mktemp)
trap 'rm -f "$reason"' EXIT
set +e
KUTE_PLAYGROUND_REASON_FILE=$reason scripts/build-playground.sh
rc=$?
set -e
if [[ $rc == 3 ]]; then
    skip "the WebAssembly toolchain is missing: $(cat "$reason")"
elif [[ $rc != 0 ]]; then
    echo "test-playground: the build failed (exit status $rc)" >&2
    exit 1
fi

# 2. Playwright for Python.
command -v python3 >/dev/null || skip "python3 is not installed"
venv=$cache/venv
py=$venv/bin/python
if ! "$py" -c 'import playwright' 2>/dev/null; then
    [[ -z $no_install ]] || skip "Playwright for Python is not installed (KUTE_PLAYGROUND_NO_INSTALL is set)"
    echo "test-playground: installing Playwright $playwright_version into $venv (once)" >&2
    rm -rf "$venv"
    python3 -m venv "$venv" >&2 || skip "cannot create a Python virtual environment (python3 -m venv)"
    "$venv/bin/pip" install --quiet "playwright==$playwright_version" >&2 \
        || skip "cannot install Playwright for Python (pip install playwright failed)"
fi

# 3. Chromium.
browser=${CHROMIUM:-}
if [[ -z $browser ]]; then
    for b in chromium chromium-browser; do
        if command -v "$b" >/dev/null; then browser=$(command -v "$b"); break; fi
    done
fi
playwright_chromium() {
    # the executable of Playwright's own Chromium, when it is installed
    "$py" - <<'EOF'
import os
from playwright.sync_api import sync_playwright
with sync_playwright() as p:
    path = p.chromium.executable_path
print(path if os.path.exists(path) else "")
EOF
}
if [[ -z $browser ]]; then
    browser=$(playwright_chromium 2>/dev/null || true)
fi
if [[ -z $browser && -z $no_install ]]; then
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
        echo "test-playground: installing Debian's chromium package" >&2
        if DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >&2 \
            || { apt-get update -q >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >&2; }; then
            browser=$(command -v chromium || true)
        fi
    fi
    if [[ -z $browser ]]; then
        echo "test-playground: installing Playwright's Chromium into ~/.cache/ms-playwright" >&2
        "$py" -m playwright install chromium >&2 && browser=$(playwright_chromium 2>/dev/null || true)
    fi
fi
[[ -n $browser ]] || skip "no Chromium (chromium on PATH, or \$CHROMIUM), and none could be installed"
echo "test-playground: $("$browser" --version 2>/dev/null || echo "$browser"), Playwright $("$py" -c 'from importlib.metadata import version; print(version("playwright"))')" >&2

# 4. The checks.
"$py" scripts/test-playground.py "$out" "$browser" ${shot:+"$shot"}
