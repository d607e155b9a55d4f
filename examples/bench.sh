#!/usr/bin/env bash
# The example plugins' figures, -count 10, compared with benchstat:
#   - round trip of one Count call of a short text: node-gpt, py-sentencepiece and the Go
#     tiktoken plugin, p50 and p99 (examples/polyglot BenchmarkRoundTrip);
#   - counting ~4 MB of real English, cl100k_base: node-gpt through the host, the Go tiktoken
#     plugin, and gpt-tokenizer called in-process from Node.js (examples/node-gpt/bench.mjs).
# Usage: examples/bench.sh [OUTDIR]   (default bench/out/examples; COUNT=10 by default)
# The corpus is built outside the repository with ../shared/tools/build-corpus.sh, once.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-bench/out/examples}
COUNT=${COUNT:-10}
CORPUS=${CHUNKKIT_CORPUS:-${TMPDIR:-/tmp}/chunkkit-corpus}
mkdir -p "$OUT"

if [ ! -f "$CORPUS/MANIFEST.tsv" ]; then
	[ -x ../shared/tools/build-corpus.sh ] || { echo "no corpus at $CORPUS and no ../shared/tools/build-corpus.sh to build one" >&2; exit 1; }
	../shared/tools/build-corpus.sh "$CORPUS"
fi
export CHUNKKIT_CORPUS=$CORPUS

make -s examples-deps
echo "== Go: round trips and counting through the host" >&2
go test -run '^$' -bench . -count "$COUNT" ./examples/polyglot > "$OUT/plugins.txt"
echo "== Node.js: gpt-tokenizer in-process" >&2
(cd examples/node-gpt && node bench.mjs "$CORPUS" -count "$COUNT") > "$OUT/inprocess.txt"

BENCHSTAT="go tool benchstat"
{
	echo "## Round trip, one Count of a 20-byte text"
	$BENCHSTAT -filter '.name:RoundTrip' -col /plugin "$OUT/plugins.txt"
	echo
	echo "## Counting ~4 MB of English, cl100k_base"
	cat "$OUT/plugins.txt" "$OUT/inprocess.txt" | $BENCHSTAT -filter '.name:Count' -col /backend -
} | tee "$OUT/benchstat.txt"
