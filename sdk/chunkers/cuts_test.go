package chunkers_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/chunkkit/chunkkit/adapters/markdown"
	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// cl100k returns the in-process cl100k_base counter, loaded once for all tests.
var cl100k = sync.OnceValues(func() (sdk.TokenCounter, error) { return tiktoken.New("cl100k_base", "") })

func cl100kCounter(t testing.TB) sdk.TokenCounter {
	t.Helper()
	c, err := cl100k()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// parseFile parses a Markdown (.md) or plain text (any other extension) file.
func parseFile(t testing.TB, path, id string) *sdk.Document {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	parse := markdown.ParseText
	if strings.HasSuffix(path, ".md") {
		parse = markdown.Parse
	}
	doc, err := parse(src, markdown.Options{ID: id})
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

var delimiterRowRE = regexp.MustCompile(`^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$`)

// blockHeader returns the header a part of block b must repeat: a fenced code block's opening
// fence line, a table's header row (and delimiter row), both with their newline; "" for
// other blocks.
func blockHeader(b sdk.Block) string {
	lines := strings.SplitAfter(strings.TrimSpace(b.Text), "\n")
	switch {
	case b.Kind == sdk.KindCode && (strings.HasPrefix(strings.TrimSpace(lines[0]), "```") || strings.HasPrefix(strings.TrimSpace(lines[0]), "~~~")):
		return lines[0]
	case b.Kind == sdk.KindTable && len(lines) > 1 && delimiterRowRE.MatchString(lines[1]):
		return lines[0] + lines[1]
	case b.Kind == sdk.KindTable:
		return lines[0]
	}
	return ""
}

// checkCuts checks chunks against the conformance kit with WholeWords (no range starts or ends
// inside a word that fits the budget), and that every body chunk whose range starts inside a
// fenced code block or a table, after its first line, repeats its header as its prefix unless
// the header is more than half the budget.
func checkCuts(t *testing.T, doc *sdk.Document, chunks []sdk.Chunk, c sdk.Chunker, counter sdk.TokenCounter) {
	t.Helper()
	opts := conformance.OptionsFor(c, counter)
	if !opts.WholeWords {
		t.Fatalf("%T does not say it keeps words", c)
	}
	if err := conformance.CheckChunks(context.Background(), doc, sdk.Request{}, chunks, opts); err != nil {
		t.Error(err)
	}
	canon := doc.Canonical()
	for _, ch := range chunks {
		i := sort.Search(len(canon.Starts), func(i int) bool { return canon.Starts[i] > ch.Start }) - 1
		if i < 0 || ch.Kind != sdk.ChunkBody {
			continue
		}
		b := doc.Blocks[i]
		header := blockHeader(b)
		start := canon.Starts[i] + len(b.Text) - len(strings.TrimLeft(b.Text, " \t\r\n"))
		if header == "" || ch.Start <= start || ch.Start >= canon.Starts[i]+len(b.Text) {
			continue
		}
		n, err := counter.Count(context.Background(), []string{header})
		if err != nil {
			t.Fatal(err)
		}
		if p, _ := ch.Metadata[sdk.MetaPrefix].(string); p != header && n[0] <= opts.MaxTokens/2 {
			t.Errorf("chunk %d starts inside a %s block at byte %d with the prefix %q, want its header %q", ch.Position, b.Kind, ch.Start, p, header)
		}
	}
}

// wordKeepers returns the chunkers whose cuts keep words, at the budget and overlap.
func wordKeepers(counter sdk.TokenCounter, maxTokens, overlap int) map[string]sdk.Chunker {
	cfg := chunkers.Config{Counter: counter, MaxTokens: maxTokens, OverlapTokens: overlap}
	return map[string]sdk.Chunker{
		"heading":                 &chunkers.HeadingAware{Config: cfg},
		"heading, heading chunks": &chunkers.HeadingAware{Config: cfg, HeadingChunks: true},
		"sections":                &chunkers.Sections{Config: cfg},
	}
}

// TestCutsKeepWordsWhole chunks texts written for these tests — German and Japanese prose, and
// Markdown with badges, a comment, an anchor, a table, nested lists, code and a run of link
// definitions — at 128 and 256 tokens with the default overlap and with 64 tokens, and holds
// every chunk to the conformance kit with WholeWords and to carrying a code fence or table
// header into a part that starts inside one.
func TestCutsKeepWordsWhole(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/cuts/*")
	if err != nil || len(files) < 3 {
		t.Fatalf("testdata/cuts holds %d files (%v), want the samples", len(files), err)
	}
	counters := []sdk.TokenCounter{cl100kCounter(t), sdk.Words{}, sdk.Runes{}}
	for _, path := range files {
		doc := parseFile(t, path, filepath.Base(path))
		for _, counter := range counters {
			for _, maxTokens := range []int{128, 256} {
				for _, overlap := range []int{0, 64} {
					for name, c := range wordKeepers(counter, maxTokens, overlap) {
						t.Run(fmt.Sprintf("%s by %s at %d tokens, overlap %d, %s", filepath.Base(path), counter.(sdk.Namer).Name(), maxTokens, overlap, name), func(t *testing.T) {
							chunks, err := c.Chunk(context.Background(), sdk.Request{}, doc)
							if err != nil {
								t.Fatal(err)
							}
							checkCuts(t, doc, chunks, c, counter)
						})
					}
				}
			}
		}
	}
}

// TestCutsKeepWordsWholeOnTheCorpus is TestCutsKeepWordsWhole on the Node.js API documents and
// the German and Japanese Debian Reference of the corpus that ../shared/tools/build-corpus.sh
// writes, named by CHUNKKIT_CORPUS, with cl100k_base:
//
//	CHUNKKIT_CORPUS=/tmp/corpus go test -run CutsKeepWordsWholeOnTheCorpus ./sdk/chunkers
func TestCutsKeepWordsWholeOnTheCorpus(t *testing.T) {
	dir := os.Getenv("CHUNKKIT_CORPUS")
	if dir == "" {
		t.Skip("CHUNKKIT_CORPUS is not set: build a corpus with ../shared/tools/build-corpus.sh /tmp/corpus and set CHUNKKIT_CORPUS=/tmp/corpus")
	}
	files, err := filepath.Glob(filepath.Join(dir, "en-md", "nodejs-api", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("CHUNKKIT_CORPUS=%s holds no en-md/nodejs-api/*.md (%v)", dir, err)
	}
	files = append(files, filepath.Join(dir, "multi", "debian-reference.de.txt"), filepath.Join(dir, "multi", "debian-reference.ja.txt"))
	counter := cl100kCounter(t)
	var mu sync.Mutex
	total := 0
	t.Cleanup(func() { t.Logf("%d chunks of %d files checked", total, len(files)) })
	for _, path := range files {
		doc := parseFile(t, path, filepath.Base(path))
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			for _, maxTokens := range []int{128, 256} {
				for _, overlap := range []int{0, 64} {
					c := &chunkers.HeadingAware{Config: chunkers.Config{Counter: counter, MaxTokens: maxTokens, OverlapTokens: overlap}}
					chunks, err := c.Chunk(context.Background(), sdk.Request{}, doc)
					if err != nil {
						t.Fatal(err)
					}
					checkCuts(t, doc, chunks, c, counter)
					mu.Lock()
					total += len(chunks)
					mu.Unlock()
				}
			}
		})
	}
}
