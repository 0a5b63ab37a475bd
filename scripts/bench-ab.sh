#!/usr/bin/env bash
# kute-bench side by side: this checkout against another commit, `compare` runs in turn.
#
#   scripts/bench-ab.sh COMMIT [ROUNDS]     (5 rounds by default)
#
# Builds COMMIT's kute-bench in a temporary git worktree and this checkout's as usual, then
# runs `kute-bench compare` of each in turn, ROUNDS times, so that the machine's slow and
# fast spells fall on both. Prints each run's summary line and W1 geometric means, then every
# W1 row's best time per build. The references come from $KUTE_BENCH_DIR (default
# ../shared/bench) as for `kute-bench compare`. Set KUTE_BENCH_PIN="taskset -c 3" to pin.
set -euo pipefail
base=${1:?usage: scripts/bench-ab.sh COMMIT [ROUNDS]}
rounds=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
cleanup() { git -C "$root" worktree remove --force "$work/tree" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
git -C "$root" worktree add -q --detach "$work/tree" "$base"
echo "building $base ..." >&2
(cd "$work/tree" && CARGO_TARGET_DIR="$work/target" cargo build --release -q -p kute-bench)
echo "building this checkout ..." >&2
(cd "$root" && cargo build --release -q -p kute-bench)
export KUTE_BENCH_DIR=${KUTE_BENCH_DIR:-$root/../shared/bench}
declare -A bin=([base]="$work/target/release/kute-bench" [head]="$root/target/release/kute-bench")
for i in $(seq 1 "$rounds"); do
  for b in base head; do
    out="$work/${b}_$i.txt"
    ${KUTE_BENCH_PIN:-} "${bin[$b]}" compare > "$out" 2>&1
    echo "$i $b: $(grep '^summary' "$out" | sed 's/^summary: //') | W1 ns kute / C++: $(grep '^geometric mean' "$out" | awk '{print $3, "/", $5}')"
  done
done
echo
echo "best ns per W1 row (*_into form), $base against this checkout:"
for b in base head; do
  cat "$work/${b}"_*.txt | awk -v b="$b" '/^[a-z_]+\(/ && NF >= 7 && $2 + 0 > 0 { if (!($1 in m) || $2 < m[$1]) m[$1] = $2 } END { for (k in m) print k, b, m[k] }'
done | sort | awk '{ if ($1 != row) { if (row) print line; row = $1; line = sprintf("%-56s", $1) } line = line sprintf("  %s %7.2f", $2, $3) } END { print line }'
