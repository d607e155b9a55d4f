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

if [ ! -f "$CORPUS/MANIFEST.tsv" ]; then
	[ -x ../shared/tools/build-corpus.sh ] || { echo "no corpus at $CORPUS and no ../shared/tools/build-corpus.sh to build one" >&2; exit 1; }
	../shared/tools/build-corpus.sh "$CORPUS"
fi
export CHUNKKIT_CORPUS=$CORPUS

(cd tools/tiktoken-golden && npm ci --silent)
echo "== npm tiktoken and gpt-tokenizer" >&2
node tools/tiktoken-golden/bench.mjs "$CORPUS" -count "$COUNT" -enc cl100k_base,o200k_base > "$OUT/npm.txt"
echo "== Go: counting, chunking and cold start through the plugin and in-process" >&2
SKIP='^BenchmarkHF$|^BenchmarkCount$/backend=reference'
[ "${REFERENCE:-}" = 1 ] && SKIP='^BenchmarkHF$'
go test -run '^$' -bench 'Count|Chunk|ColdStart' -skip "$SKIP" -benchmem -count "$COUNT" ./bench > "$OUT/plugins.txt"
echo "== Go: pathological inputs per backend" >&2
go test -run '^$' -bench 'Pathological/backend=(backtrack|fast)/input=(a×80000|語|endoftext)' -count "$COUNT" ./plugins/tiktoken > "$OUT/pathological.txt"

BENCHSTAT="go tool benchstat"
{
	echo "## Counting ~4 MB of English (Go in-process and plugin, npm tiktoken, gpt-tokenizer)"
	cat "$OUT/plugins.txt" "$OUT/npm.txt" | $BENCHSTAT -filter '.name:Count' -row /enc -col /backend,/path -
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
