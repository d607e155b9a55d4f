#!/usr/bin/env bash
# HuggingFace tokenizer.json counting speed, three ways on the same ~4 MB of English, with each
# of the eight reference files (plugins/hftokenizer/reffiles):
#   impl=go-inprocess  plugins/hftokenizer's BenchmarkHF, the Go counter in this process;
#   impl=go-plugin     bench's BenchmarkHF, the same through the chunkkit-hftokenizer plugin;
#   impl=hf-rust-napi  tools/hf-golden/bench.mjs, HF tokenizers' Rust core (npm binding).
# All three cut the text into the same pieces and count each piece with one call (see
# tools/hf-golden/README.md, "What bench.mjs measures"). The runs are interleaved: COUNT rounds,
# each one sample of every file by go-inprocess, then go-plugin, then hf-rust-napi, so that
# drift in the machine's load spreads over all three alike.
#
# Usage: bench/hf.sh [OUTDIR]   (default bench/out; COUNT=10 by default; FILES=a,b to measure
# only those reference files, e.g. FILES=unigram-xlmr,unigram-bytefallback)
# Writes OUTDIR/hf.txt (every sample, Go benchmark format) and OUTDIR/hf-benchstat.txt (the
# tokens/op check, median MB/s, and benchstat -col /impl). Needs `make hf-files` first; the
# corpus (CHUNKKIT_CORPUS, default $TMPDIR/chunkkit-corpus) is built with
# ../shared/tools/build-corpus.sh when missing, as bench/tokenizers.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-bench/out}
COUNT=${COUNT:-10}
FILES=${FILES:-}
GOBENCH='^BenchmarkHF$'
NODEFILES=()
if [ -n "$FILES" ]; then
	GOBENCH="^BenchmarkHF\$/^file=(${FILES//,/|})\$"
	NODEFILES=(-files "$FILES")
fi
CORPUS=${CHUNKKIT_CORPUS:-${TMPDIR:-/tmp}/chunkkit-corpus}
mkdir -p "$OUT"

if [ ! -f tools/hf-golden/node_modules/.package-lock.json ]; then
	echo "bench/hf.sh: the npm reference files and HF's binding are not installed: run \`make hf-files\` first" >&2
	exit 1
fi
if [ ! -f "$CORPUS/MANIFEST.tsv" ]; then
	[ -x ../shared/tools/build-corpus.sh ] || { echo "bench/hf.sh: no corpus at $CORPUS and no ../shared/tools/build-corpus.sh to build one" >&2; exit 1; }
	../shared/tools/build-corpus.sh "$CORPUS"
fi
CORPUS=$(cd "$CORPUS" && pwd) # the test binaries run in their package's folder
export CHUNKKIT_CORPUS=$CORPUS

BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT
go test -c -o "$BIN/hftokenizer.test" ./plugins/hftokenizer
go test -c -o "$BIN/bench.test" ./bench

: >"$OUT/hf.txt"
for round in $(seq "$COUNT"); do
	echo "== round $round of $COUNT: go-inprocess, go-plugin, hf-rust-napi" >&2
	(cd plugins/hftokenizer && "$BIN/hftokenizer.test" -test.run '^$' -test.bench "$GOBENCH" -test.count 1 -test.v) >>"$OUT/hf.txt"
	(cd bench && "$BIN/bench.test" -test.run '^$' -test.bench "$GOBENCH" -test.count 1) >>"$OUT/hf.txt"
	node tools/hf-golden/bench.mjs -count 1 "${NODEFILES[@]}" "$CORPUS" >>"$OUT/hf.txt"
done

# samples prints "file impl tokens MB/s" for every BenchmarkHF result line of hf.txt.
samples() {
	awk '/^BenchmarkHF\// && /ns\/op/ {
		split($1, k, "/"); sub(/^file=/, "", k[2]); sub(/^impl=/, "", k[3]); sub(/-[0-9]+$/, "", k[3])
		mbs = tok = ""
		for (i = 2; i < NF; i++) { if ($(i+1) == "MB/s") mbs = $i; if ($(i+1) == "tokens/op") tok = $i }
		print k[2], k[3], tok, mbs
	}' "$OUT/hf.txt"
}

# Every sample of a file must count the same tokens, whatever the impl.
mismatch=$(samples | awk '{ v[$1] = v[$1] " " $2 "=" $3; if (!($1 in t)) t[$1] = $3; else if (t[$1] != $3) bad[$1] = 1 }
	END { for (f in bad) print "MISMATCH " f ":" v[f] }')
{
	echo "## tokens/op: one value per file across every impl and sample"
	if [ -n "$mismatch" ]; then
		echo "$mismatch"
	else
		samples | awk '!seen[$1]++ { print $1, $3 }'
	fi
	echo
	echo "## median MB/s (10^6 bytes of pieces per second; benchstat below shows binary B/s)"
	samples | sort -k1,1 -k2,2 -k4,4g | awk '
		{ k = $1 SUBSEP $2; v[k, ++n[k]] = $4; if (!($1 in fs)) { fs[$1] = 1; files[++nf] = $1 } }
		END {
			ni = split("hf-rust-napi go-inprocess go-plugin", impls, " ")
			printf "%-20s", "file"; for (j = 1; j <= ni; j++) printf " %14s", impls[j]; print ""
			for (i = 1; i <= nf; i++) {
				printf "%-20s", files[i]
				for (j = 1; j <= ni; j++) {
					k = files[i] SUBSEP impls[j]; c = n[k]
					if (c == 0) { printf " %14s", "-"; continue }
					m = c % 2 ? v[k, (c + 1) / 2] : (v[k, c / 2] + v[k, c / 2 + 1]) / 2
					printf " %14.2f", m
				}
				print ""
			}
		}'
	echo
	echo "## benchstat, HF's Rust core as the base (two Go packages and node in one table: -table '' -ignore pkg)"
	go tool benchstat -table '' -ignore pkg -col '/impl@(hf-rust-napi go-inprocess go-plugin)' "$OUT/hf.txt"
} | tee "$OUT/hf-benchstat.txt"
[ -z "$mismatch" ] || { echo "bench/hf.sh: the impls count different tokens (above)" >&2; exit 1; }
