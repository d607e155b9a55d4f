#!/usr/bin/env bash
# generate.sh regenerates the Go code of chunkkit's wire protocol (internal/protocol/*v1) from
# its .proto files with pinned code generators. `make generate` runs it.
#
# Usage: tools/generate.sh [OUTDIR]
#
# OUTDIR defaults to internal/protocol; tools/generate-check.sh passes a temporary directory.
# The generators are installed into .tools/bin (git-ignored) at the versions below when missing
# or different. protoc itself comes from Debian's protobuf-compiler package, which is what CI
# installs too; its version is recorded in each generated file's header.
set -euo pipefail

PROTOC_GEN_GO_VERSION=v1.36.12
PROTOC_GEN_GO_GRPC_VERSION=v1.6.1
# PROTOC_VERSION is Debian bookworm's protobuf-compiler; another version still works, but the
# "protoc" line of the generated headers then changes.
PROTOC_VERSION=3.21.12

root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/internal/protocol
out=${1:-$src}
bin=$root/.tools/bin

if ! command -v protoc >/dev/null 2>&1; then
	echo "generate: protoc not found; install it with: apt-get update && apt-get install -y protobuf-compiler" >&2
	exit 1
fi
have=$(protoc --version | awk '{print $2}')
if [ "$have" != "$PROTOC_VERSION" ]; then
	echo "generate: warning: protoc $have, expected $PROTOC_VERSION (Debian protobuf-compiler); only the generated headers' protoc line should differ" >&2
fi

mkdir -p "$bin"
if [ "$("$bin/protoc-gen-go" --version 2>/dev/null || true)" != "protoc-gen-go $PROTOC_GEN_GO_VERSION" ]; then
	echo "generate: installing protoc-gen-go $PROTOC_GEN_GO_VERSION into $bin" >&2
	GOBIN=$bin go install "google.golang.org/protobuf/cmd/protoc-gen-go@$PROTOC_GEN_GO_VERSION"
fi
if [ "$("$bin/protoc-gen-go-grpc" --version 2>/dev/null || true)" != "protoc-gen-go-grpc ${PROTOC_GEN_GO_GRPC_VERSION#v}" ]; then
	echo "generate: installing protoc-gen-go-grpc $PROTOC_GEN_GO_GRPC_VERSION into $bin" >&2
	GOBIN=$bin go install "google.golang.org/grpc/cmd/protoc-gen-go-grpc@$PROTOC_GEN_GO_GRPC_VERSION"
fi

cd "$src"
protos=$(find . -name '*.proto' | sed 's|^\./||' | LC_ALL=C sort)
for p in $protos; do
	mkdir -p "$out/$(dirname "$p")"
done
# shellcheck disable=SC2086 # $protos is a list of paths without spaces
protoc -I . \
	--plugin=protoc-gen-go="$bin/protoc-gen-go" \
	--plugin=protoc-gen-go-grpc="$bin/protoc-gen-go-grpc" \
	--go_out="$out" --go_opt=paths=source_relative \
	--go-grpc_out="$out" --go-grpc_opt=paths=source_relative \
	$protos
