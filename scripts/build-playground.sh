#!/usr/bin/env bash
# Build the browser playground: kute compiled to WebAssembly (crates/kute-wasm), bound
# by wasm-bindgen, with the static page of crates/kute-wasm/web/, into one folder that
# any static web server can serve.
#
#   scripts/build-playground.sh [--serve [PORT]]
#
# The folder is $PLAYGROUND_OUT, by default target/playground (under $CARGO_TARGET_DIR
# when that is set). --serve then serves it with python3's http.server on PORT (8000).
# Browsers load WebAssembly modules over http, not from file://.
#
# Needs the wasm32-unknown-unknown target (added with rustup when missing) and
# wasm-bindgen-cli of exactly the wasm-bindgen version in Cargo.lock (a matching one
# on PATH, else installed once with cargo into ~/.cache/kute-playground/). Set
# KUTE_PLAYGROUND_NO_INSTALL=1 to install nothing.
# Exit status: 0 when built; 3 when a tool is missing and cannot be installed (no
# network, say); anything else is a failure of the build.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
target_dir=${CARGO_TARGET_DIR:-$here/target}
out=${PLAYGROUND_OUT:-$target_dir/playground}
cache=${KUTE_PLAYGROUND_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kute-playground}

serve=
port=8000
while [[ $# -gt 0 ]]; do
    case $1 in
        --serve) serve=1; if [[ ${2:-} =~ ^[0-9]+$ ]]; then port=$2; shift; fi ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

missing() {
    echo "build-playground: $*" >&2
    # for scripts/test-playground.sh, which reports the reason it skips
    [[ -z ${KUTE_PLAYGROUND_REASON_FILE:-} ]] || echo "$*" >"$KUTE_PLAYGROUND_REASON_FILE"
    exit 3
}
no_install=${KUTE_PLAYGROUND_NO_INSTALL:-}

# The Rust target.
if ! rustc --print target-libdir --target wasm32-unknown-unknown 2>/dev/null | xargs -I{} test -d {}; then
    command -v rustup >/dev/null || missing "the wasm32-unknown-unknown target is not installed, and there is no rustup to add it"
    [[ -z $no_install ]] || missing "the wasm32-unknown-unknown target is not installed (KUTE_PLAYGROUND_NO_INSTALL is set)"
    echo "build-playground: adding the wasm32-unknown-unknown target" >&2
    rustup target add wasm32-unknown-unknown >&2 || missing "cannot add the wasm32-unknown-unknown target (rustup target add failed)"
fi

# wasm-bindgen-cli, exactly the version of the wasm-bindgen crate in Cargo.lock (the
# two must agree on the bindings' format).
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[[ -n $version ]] || { echo "build-playground: no wasm-bindgen in Cargo.lock" >&2; exit 1; }
bindgen=
if command -v wasm-bindgen >/dev/null && [[ $(wasm-bindgen --version) == "wasm-bindgen $version" ]]; then
    bindgen=$(command -v wasm-bindgen)
else
    bindgen=$cache/wasm-bindgen-$version/bin/wasm-bindgen
    if [[ ! -x $bindgen ]]; then
        [[ -z $no_install ]] || missing "wasm-bindgen-cli $version is not installed (KUTE_PLAYGROUND_NO_INSTALL is set)"
        echo "build-playground: installing wasm-bindgen-cli $version into $cache (once)" >&2
        mkdir -p "$cache"
        CARGO_TARGET_DIR=$cache/build cargo install --quiet wasm-bindgen-cli --version "$version" \
            --root "$cache/wasm-bindgen-$version" >&2 \
            || missing "cannot install wasm-bindgen-cli $version (cargo install failed)"
        rm -rf "$cache/build"
    fi
fi

echo "build-playground: compiling kute-wasm for wasm32-unknown-unknown" >&2
cargo build --release --target wasm32-unknown-unknown -p kute-wasm
wasm=$target_dir/wasm32-unknown-unknown/release/kute_wasm.wasm

rm -rf "$out"
mkdir -p "$out/pkg"
"$bindgen" --target web --no-typescript --out-dir "$out/pkg" "$wasm"
cp crates/kute-wasm/web/* "$out/"
echo "build-playground: built $out ($(du -k "$out/pkg/kute_wasm_bg.wasm" | cut -f1) KiB of WebAssembly)" >&2

if [[ -n $serve ]]; then
    echo "build-playground: serving at http://localhost:$port/ (Ctrl-C stops)" >&2
    exec python3 -m http.server --bind 127.0.0.1 --directory "$out" "$port"
fi
echo "Serve it and open it: python3 -m http.server --directory $out 8000, then http://localhost:8000/"
echo "(or: scripts/build-playground.sh --serve)"
