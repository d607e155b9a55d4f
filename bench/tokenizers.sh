#!/usr/bin/env bash
# Tokenizer and plugin benchmarks, -count 10, compared with benchstat:
#   - counting MB/s of the backtrack (default) and fast tiktoken backends, cl100k_base and
#     o200k_base, in-process and through the plugin, on ~4 MB of real English, beside OpenAI's
#     tiktoken (npm, Rust core as WASM) and gpt-tokenizer (npm, JavaScript) on the same text;
#     the reference backend only with REFERENCE=1 (it runs at a few MB/s);
#   - pathological inputs per backend (80,000 × "a"; 1 MB of one CJK character; 1 MB holding
#     2,000 <|endoftext|>);
#   - HeadingAware at 512/64 through the plugin vs in-process, with calls per document;
#   - cold start (spawn + handshake + vocabulary load).
# Usage: bench/tokenizers.sh [OUTDIR]   (default bench/out/tokenizers; COUNT=10 by default)
# The corpus is built outside the repository with ../shared/tools/build-corpus.sh, once.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-bench/out/tokenizers}
COUNT=${COUNT:-10}
CORPUS=${CHUNKKIT_CORPUS:-${TMPDIR:-/tmp}/chunkkit-corpus}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

if [ ! -f "$CORPUS/MANIFEST.tsv" ]; then
	[ -x ../shared/tools/build-corpus.sh ] || { echo "no corpus at $CORPUS and no ../shared/tools/build-corpus.sh to build one" >&2; exit 1; }
	../shared/tools/build-corpus.sh "$CORPUS"
fi
export CHUNKKIT_CORPUS=$CORPUS

(cd tools/tiktoken-golden && npm ci --silent)
SKIP='^BenchmarkHF$|^BenchmarkCount$/backend=reference'
[ "${REFERENCE:-}" = 1 ] && SKIP='^BenchmarkHF$'
go test -c -o "$OUT/bench.test" ./bench
go test -c -o "$OUT/tiktoken.test" ./plugins/tiktoken
# Counting is measured in COUNT interleaved rounds, each running every implementation once, so
# that a change in what else the machine runs reaches all of them alike and the ratios hold.
: > "$OUT/npm.txt"; : > "$OUT/count.txt"; : > "$OUT/cpu.txt"
for round in $(seq "$COUNT"); do
	echo "== counting, round $round of $COUNT: npm tiktoken and gpt-tokenizer, Go in-process and through the plugin" >&2
	node tools/tiktoken-golden/bench.mjs "$CORPUS" -count 1 -enc cl100k_base,o200k_base >> "$OUT/npm.txt"
	(cd bench && "$OUT/bench.test" -test.run '^$' -test.bench '^BenchmarkCount$' -test.skip "$SKIP" -test.benchmem -test.count 1) >> "$OUT/count.txt"
	(cd plugins/tiktoken && "$OUT/tiktoken.test" -test.run '^$' -test.bench '^BenchmarkCount$/backend=(backtrack|fast)' -test.count 1) >> "$OUT/cpu.txt"
done
echo "== Go: chunking and cold start through the plugin and in-process" >&2
(cd bench && "$OUT/bench.test" -test.run '^$' -test.bench 'Chunk|ColdStart' -test.benchmem -test.count "$COUNT") > "$OUT/plugins.txt"
echo "== Go: pathological inputs per backend" >&2
(cd plugins/tiktoken && "$OUT/tiktoken.test" -test.run '^$' -test.bench 'Pathological/backend=(backtrack|fast)/input=(a×80000|語|endoftext)' -test.count "$COUNT") > "$OUT/pathological.txt"

BENCHSTAT="go tool benchstat"
{
	echo "## Counting ~4 MB of English (Go in-process and plugin, npm tiktoken, gpt-tokenizer), interleaved rounds"
	cat "$OUT/count.txt" "$OUT/npm.txt" | $BENCHSTAT -row /enc -col /backend,/path -
	echo
	echo "## Counting in-process: wall time and the counting thread's CPU time (cpu-MB/s)"
	$BENCHSTAT -row /enc -col /backend "$OUT/cpu.txt"
	echo
	echo "## Chunking, HeadingAware 512/64, plugin vs in-process"
	$BENCHSTAT -filter '.name:/^Chunk/' -col /path "$OUT/plugins.txt"
	echo
	echo "## Cold start"
	$BENCHSTAT -filter '.name:ColdStart' "$OUT/plugins.txt"
	echo
	echo "## Pathological inputs, cl100k_base"
	$BENCHSTAT -row /input -col /backend "$OUT/pathological.txt"
} | tee "$OUT/benchstat.txt"
