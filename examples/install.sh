#!/usr/bin/env bash
# install.sh DEST: installs the Node.js and Python example plugins into DEST (make examples
# uses bin/) and writes DEST/examples.plugins.json, which names them with their SHA-256.
#
#   DEST/node-gpt/          main.mjs, package.json, node_modules/, proto/
#   DEST/py-sentencepiece/  main.py, gen/ (stubs generated here), proto/, models/*.model
#
# Both read the repository's own .proto files (internal/protocol) and go-plugin's
# (grpc_controller.proto, grpc_stdio.proto from the Go module cache), copied into proto/; the
# Python stubs are generated from those copies with Debian's python3-grpc-tools. The
# SentencePiece models are trained here, with Debian's spm_train, on the repository's docs.
#
# Needs: node and npm; /usr/bin/python3 with python3-grpcio, python3-grpc-tools,
# python3-sentencepiece, python3-cryptography; sentencepiece (spm_train); grpc-proto
# (health.proto). .ci/run installs them.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: examples/install.sh DEST" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
dest=$(cd "$1" && pwd)
py=/usr/bin/python3
health=/usr/share/grpc-proto/grpc/health/v1/health.proto
goplugin=$(cd "$root" && go list -m -f '{{.Dir}}' github.com/hashicorp/go-plugin)

# protos DIR copies every .proto file of the protocol, keeping its path under internal/protocol
# (so imports such as "commonv1/common.proto" resolve), and go-plugin's under plugin/.
protos() {
	mkdir -p "$1/proto/plugin"
	(cd "$root/internal/protocol" && find . -name '*.proto' -exec cp --parents {} "$1/proto/" \;)
	cp "$goplugin/internal/plugin/grpc_controller.proto" "$goplugin/internal/plugin/grpc_stdio.proto" "$1/proto/plugin/"
	chmod -R u+w "$1/proto" # the module cache is read-only
}

# --- Node.js: node-gpt ---
src=$root/examples/node-gpt
if [ ! "$src/node_modules/.package-lock.json" -nt "$src/package-lock.json" ]; then
	(cd "$src" && npm ci --no-audit --no-fund --loglevel=error)
fi
out=$dest/node-gpt
rm -rf "$out"
mkdir -p "$out"
cp "$src/main.mjs" "$src/package.json" "$src/package-lock.json" "$out/"
cp -a "$src/node_modules" "$out/"
protos "$out"
chmod 755 "$out/main.mjs"

# --- Python: py-sentencepiece ---
src=$root/examples/py-sentencepiece
out=$dest/py-sentencepiece
rm -rf "$out"
mkdir -p "$out/gen" "$out/models" "$out/proto/grpc_health/v1"
cp "$src/main.py" "$out/"
protos "$out"
# grpc/health/... would shadow grpcio's own "grpc" package: generate it as grpc_health, the
# module path grpcio-health-checking uses. The file, and so the wire, are unchanged.
cp "$health" "$out/proto/grpc_health/v1/health.proto"
wkt=$("$py" -c 'import grpc_tools, os; print(os.path.join(os.path.dirname(grpc_tools.__file__), "_proto"))')
(cd "$out/proto" && "$py" -m grpc_tools.protoc -I . -I "$wkt" --python_out=../gen --grpc_python_out=../gen \
	$(find . -name '*.proto' -printf '%P\n' | sort))
# Two small models of the two SentencePiece families, trained on the repository's own docs:
# a Unigram model normalized as T5's is (NFKC, white space runs collapsed) and a BPE model
# as Llama 2's (no normalization, every space kept). Byte fallback lets both tokenize any text.
flags() {
	case $1 in
	bpe) echo --normalization_rule_name=identity --remove_extra_whitespaces=false --split_digits=true ;;
	*) echo --normalization_rule_name=nmt_nfkc ;;
	esac
}
corpus=$(mktemp)
trap 'rm -f "$corpus"' EXIT
cat "$root"/README.md "$root"/docs/*.md >"$corpus"
for type in unigram bpe; do
	spm_train --input="$corpus" --model_prefix="$out/models/docs-$type" --model_type="$type" $(flags "$type") \
		--vocab_size=1000 --character_coverage=1.0 --byte_fallback=true --num_threads=1 \
		--minloglevel=2 >/dev/null 2>&1 || {
		echo "install.sh: spm_train --model_type=$type failed" >&2
		exit 1
	}
done
rm -f "$out"/models/*.vocab
chmod 755 "$out/main.py"

# --- the manifest ---
sum() { sha256sum "$1" | cut -d' ' -f1; }
cat >"$dest/examples.plugins.json" <<EOF
{
  "version": 1,
  "plugins": [
    {
      "name": "node-gpt",
      "binary": "node-gpt/main.mjs",
      "sha256": "$(sum "$dest/node-gpt/main.mjs")",
      "kinds": ["tokenizer"]
    },
    {
      "name": "py-sentencepiece",
      "binary": "py-sentencepiece/main.py",
      "sha256": "$(sum "$dest/py-sentencepiece/main.py")",
      "args": ["docs-unigram=models/docs-unigram.model", "docs-bpe=models/docs-bpe.model"],
      "kinds": ["tokenizer"]
    }
  ]
}
EOF
echo "$dest/examples.plugins.json: node-gpt (node-gpt/main.mjs), py-sentencepiece (py-sentencepiece/main.py)"
