#!/usr/bin/env bash
# Fuzz kute with cargo-fuzz (libFuzzer) on the nightly toolchain; CI stays on stable.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Runs each target (default: eval_lines algebra_laws) for SECONDS (default 600),
# all targets at once, one process each, with the campaign's limits: 1 s per
# input, 2 GiB of memory, inputs of at most 4 KiB, and every input slower than
# 100 ms reported. Logs go to fuzz/logs/TARGET.log; a crash, timeout or
# out-of-memory input is saved under fuzz/artifacts/TARGET/ and makes this
# script exit non-zero. Installs cargo-fuzz if it is missing. FUZZ_BUILD_FLAGS
# (e.g. --no-trace-compares, for more runs per second) go to cargo fuzz.
# An empty eval_lines corpus is seeded with the expressions of the test vectors.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
secs=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(eval_lines algebra_laws)

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz.sh: the nightly toolchain is needed (rustup toolchain install nightly)" >&2
    exit 2
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: installing cargo-fuzz" >&2
    cargo install cargo-fuzz || { echo "fuzz.sh: cannot install cargo-fuzz" >&2; exit 2; }
fi

flags=(${FUZZ_BUILD_FLAGS:-})
cargo +nightly fuzz build -s none "${flags[@]}"
mkdir -p logs corpus/eval_lines
if [ -z "$(ls -A corpus/eval_lines)" ]; then
    # seeds: the vectors' expressions, a dozen lines a file, some of them bound to A
    cut -f1 ../crates/kute/tests/data/*.tsv | grep -v '^#' | grep -v '^$' |
        awk 'NR % 4 == 1 { $0 = "A = " $0 } { print > sprintf("corpus/eval_lines/seed_%04d", int((NR - 1) / 12)) }'
fi
pids=()
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t"
    cargo +nightly fuzz run -s none "${flags[@]}" "$t" "corpus/$t" -- \
        -max_total_time="$secs" -timeout=1 -rss_limit_mb=2048 -max_len=4096 \
        -report_slow_units=0.1 -print_final_stats=1 > "logs/$t.log" 2>&1 &
    pids+=($!)
done
status=0
for i in "${!pids[@]}"; do
    t=${targets[$i]}
    if wait "${pids[$i]}"; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$' || echo '?')
        peak=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$' || echo '?')
        slow=$(grep -c 'Slowest unit' "logs/$t.log" || true)
        echo "$t: $runs runs, peak RSS $peak MB, $slow reports of an input slower than 100 ms"
    else
        echo "$t: FAILED (see fuzz/logs/$t.log and fuzz/artifacts/$t/)" >&2
        status=1
    fi
done
exit $status
