#!/usr/bin/env bash
# Times the mcpgen command on synthetic component packages of 50, 200 and
# 1000 tools (written by gen's TestSyntheticPackage under gen/testdata/ and
# removed afterwards). For each size it prints the wall time and the peak
# RSS of a cold run (the first after writing the package: go list compiles
# it, the schema program is built) and of a warm one (everything in the
# build cache), then the per-stage split measured by BenchmarkGenerate.
#
# Peak RSS comes from /usr/bin/time -v when present; it covers mcpgen and
# its children (the `go run` of the schema program). Without GNU time the
# figures come from the benchmark's own rusage metrics.
#
#   scripts/bench-gen.sh              sizes 50 200 1000
#   scripts/bench-gen.sh 20 500       other sizes
#   STAGES=0 scripts/bench-gen.sh     skip the per-stage benchmark
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(50 200 1000)

tmp=$(mktemp -d)
pkgs=()
cleanup() {
  for p in "${pkgs[@]}"; do rm -rf "${root:?}/${p#./}"; done
  rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/mcpgen" ./cmd/mcpgen
go test -c -o "$tmp/gen.test" ./gen

gnu_time=0
if [ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1; then gnu_time=1; fi

# measure CMD...: runs CMD under GNU time, prints "<wall seconds> <peak RSS MB>".
measure() {
  if ! /usr/bin/time -v -o "$tmp/time.txt" "$@" >"$tmp/out.txt" 2>&1; then
    cat "$tmp/out.txt" >&2
    return 1
  fi
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; wall = s }
    /Maximum resident set size/ { rss = $2 / 1024 }
    END { printf "%.2f %.1f\n", wall, rss }' "$tmp/time.txt"
}

# bench N: the benchmark line of BenchmarkGenerate/tools=N.
bench() {
  (cd gen && MCPGEN_BENCH_SIZES=$1 "$tmp/gen.test" -test.run '^$' -test.bench "BenchmarkGenerate/tools=$1\$" -test.benchtime 1x) |
    grep '^BenchmarkGenerate' | tr '\t' ' ' | tr -s ' '
}

# metric LINE UNIT: the value reported with UNIT in a benchmark line.
metric() { awk -v u="$2" '{ for (i = 2; i <= NF; i++) if ($i == u) print $(i-1) }' <<<"$1"; }

printf '%-6s %-28s %-28s\n' tools "cold: wall s / peak RSS MB" "warm: wall s / peak RSS MB"
for n in "${sizes[@]}"; do
  if [ "$gnu_time" = 1 ]; then
    pattern=$(cd gen && MCPGEN_SYNTH_TOOLS=$n "$tmp/gen.test" -test.run '^TestSyntheticPackage$' | sed -n 's/^pattern: //p')
    pkgs+=("$pattern")
    read -r cw cr < <(measure "$tmp/mcpgen" -out "$tmp/out-$n" "$pattern")
    read -r ww wr < <(measure "$tmp/mcpgen" -out "$tmp/out-$n" "$pattern")
    printf '%-6s %-28s %-28s\n' "$n" "$cw / $cr" "$ww / $wr"
    rm -rf "${root:?}/${pattern#./}"
  else
    line=$(bench "$n")
    cold=0
    for s in load check schema emit; do cold=$(awk -v a="$cold" -v b="$(metric "$line" "cold-$s-ms")" 'BEGIN { print a + b }'); done
    warm=$(awk -v ns="$(metric "$line" ns/op)" 'BEGIN { printf "%.2f", ns / 1e9 }')
    rss=$(awk -v a="$(metric "$line" peak-rss-MB)" -v b="$(metric "$line" child-peak-rss-MB)" 'BEGIN { print (a > b ? a : b) }')
    printf '%-6s %-28s %-28s\n' "$n" "$(awk -v ms="$cold" 'BEGIN { printf "%.2f", ms / 1000 }') / $rss (rusage)" "$warm / $rss (rusage)"
  fi
done

if [ "${STAGES:-1}" != 0 ]; then
  echo
  printf '%-6s %-44s %-44s\n' tools "cold stages ms: load check schema emit" "warm stages ms: load check schema emit"
  for n in "${sizes[@]}"; do
    line=$(bench "$n")
    c="" w=""
    for s in load check schema emit; do
      c="$c $(metric "$line" "cold-$s-ms")"
      w="$w $(metric "$line" "warm-$s-ms")"
    done
    printf '%-6s %-44s %-44s\n' "$n" "${c# }" "${w# }"
  done
fi
