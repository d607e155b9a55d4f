package hftokenizer_test

// BenchmarkHF is the Go side of tools/hf-golden/bench.mjs, which measures HuggingFace
// tokenizers' Rust core on the same files and text: the names line up
// (BenchmarkHF/file=NAME/impl=go-inprocess here, impl=hf-rust-napi there, impl=go-plugin in
// bench/plugins_test.go), so `go tool benchstat -col /impl` puts them side by side. bench/hf.sh
// runs all three; by hand:
//
//	make hf-files
//	CHUNKKIT_CORPUS=/tmp/corpus go test -run '^$' -bench '^BenchmarkHF$' -count 10 ./plugins/hftokenizer
//
// The text, cut exactly as bench.mjs cuts it (tools/hf-golden/README.md, "What bench.mjs
// measures"): CHUNKKIT_CORPUS names a corpus built by ../shared/tools/build-corpus.sh (its
// English files, MANIFEST.tsv paths starting "en-", in manifest order until they hold
// 4,000,000 bytes) or a single text file. Unset, the benchmark takes Chroma's evaluation
// corpora, ../shared/eval/chroma/corpora/*.md (208 KB), and skips when ../shared is not
// there. Each text is split at "\n\n" and the parts joined back into pieces of at most 65,536
// bytes; one op counts every piece with its own Count call, as bench.mjs makes one encode call
// per piece. The counter is the MatchSpecial view, because HF's encode matches added tokens in
// the text; on the build corpus both views count the same (testdata/corpus.json). Without
// `make hf-files` it skips.

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/chunkkit/chunkkit/plugins/hftokenizer"
	"github.com/chunkkit/chunkkit/plugins/hftokenizer/reffiles"
)

func BenchmarkHF(b *testing.B) {
	pieces, size, source, err := reffiles.BenchPieces(os.Getenv("CHUNKKIT_CORPUS"), filepath.Join("..", "..", "..", "shared"))
	if errors.Is(err, reffiles.ErrNoBenchText) {
		b.Skip(err)
	} else if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d pieces, %d bytes from %s", len(pieces), size, source)
	root := filepath.Join("..", "..")
	if _, err := os.Stat(reffiles.NPMPath(root, reffiles.NPM[0])); err != nil {
		b.Skipf("the npm reference files are not installed, run `make hf-files`: %v", err)
	}
	files, err := reffiles.All(root, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range files {
		b.Run("file="+f.Name+"/impl=go-inprocess", func(b *testing.B) {
			tok, err := hftokenizer.Load(f.Path)
			if err != nil {
				b.Fatal(err)
			}
			c := tok.MatchSpecial()
			reffiles.BenchCount(b, c, pieces, size)
		})
	}
}
