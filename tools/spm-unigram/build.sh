#!/usr/bin/env bash
# build.sh trains the two SentencePiece Unigram models of plugins/hftokenizer's reference files
# with Debian's sentencepiece and converts them to tokenizer.json as HuggingFace's converter
# does (README.md beside this file says what and why):
#
#   tools/spm-unigram/build.sh CORPUS    # CORPUS: made by ../shared/tools/build-corpus.sh CORPUS
#
# writes plugins/hftokenizer/testdata/spm/unigram-xlmr.json and unigram-bytefallback.json.
# Needs: apt-get install sentencepiece python3-sentencepiece; `make hf-files` (HF's npm binding
# re-saves the files in its own serialization).
set -euo pipefail
cd "$(dirname "$0")/../.."
CORPUS=${1:?usage: tools/spm-unigram/build.sh CORPUS (a corpus made by ../shared/tools/build-corpus.sh)}
OUT=plugins/hftokenizer/testdata/spm
PY=/usr/bin/python3 # Debian's, which python3-sentencepiece installs into

command -v spm_train >/dev/null || { echo "build.sh: spm_train is missing: apt-get install sentencepiece" >&2; exit 1; }
"$PY" -c 'from sentencepiece import sentencepiece_model_pb2' 2>/dev/null ||
	{ echo "build.sh: $PY cannot import sentencepiece: apt-get install python3-sentencepiece" >&2; exit 1; }
[ -f tools/hf-golden/node_modules/.package-lock.json ] || { echo "build.sh: run \`make hf-files\` first" >&2; exit 1; }

# The training text: the Debian Reference in English, German, Japanese and Chinese (3.7 MB),
# each file checked against the SHA-256 it had when the committed models were trained.
TRAIN=(
	"en-text/debian-reference.en.txt fc8dce7f9d076f78432b74cc91555017c855d19d5bbc5b8e7e3ad472f00ec6cf"
	"multi/debian-reference.de.txt 63eca6ba79772e38916cf357b2e44f9fc48c56ee8916c1e8fcf47ca499457f88"
	"multi/debian-reference.ja.txt b9939fcf774115addea2e1753135fdb6357ccbcd6b810dfbc7860574754fa71a"
	"multi/debian-reference.zh-cn.txt d40e8b1077b6bbc1ecba746d5f87e7bee17cd0b806f7f9363433e9bdd557e203"
)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for entry in "${TRAIN[@]}"; do
	set -- $entry
	file=$CORPUS/$1
	[ -f "$file" ] || { echo "build.sh: $file is missing: is $CORPUS a corpus from build-corpus.sh?" >&2; exit 1; }
	got=$(sha256sum "$file" | cut -d' ' -f1)
	if [ "$got" != "$2" ]; then
		echo "build.sh: $file has sha256 $got, the models were trained on $2" >&2
		exit 1
	fi
	cat "$file" >>"$TMP/train.txt"
done

# One thread and a fixed seed: the vocabulary comes out the same run after run.
common=(--input="$TMP/train.txt" --model_type=unigram --vocab_size=8000 --character_coverage=0.9995
	--num_threads=1 --random_seed=14 --minloglevel=1)
spm_train "${common[@]}" --model_prefix="$TMP/xlmr" --normalization_rule_name=nmt_nfkc
spm_train "${common[@]}" --model_prefix="$TMP/bytefallback" --normalization_rule_name=nmt_nfkc_cf --byte_fallback=true

mkdir -p "$OUT"
"$PY" tools/spm-unigram/convert.py --style xlmr "$TMP/xlmr.model" "$TMP/xlmr.json"
"$PY" tools/spm-unigram/convert.py --style generic "$TMP/bytefallback.model" "$TMP/bytefallback.json"
node tools/spm-unigram/resave.mjs "$TMP/xlmr.json" "$OUT/unigram-xlmr.json"
node tools/spm-unigram/resave.mjs "$TMP/bytefallback.json" "$OUT/unigram-bytefallback.json"
sha256sum "$OUT/unigram-xlmr.json" "$OUT/unigram-bytefallback.json"
