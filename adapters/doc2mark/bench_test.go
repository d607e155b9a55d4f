package doc2mark_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/adapters/doc2mark"
	"github.com/chunkkit/chunkkit/plugins/tiktoken"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// benchSize is the size of the json_content the benchmarks chunk.
const benchSize = 5 << 20

// BenchmarkChunkContent measures ChunkContent on about 5 MB of json_content, in MB/s of
// json_content: built from the real documents of the corpus that
// ../shared/tools/build-corpus.sh writes, found through CHUNKKIT_CORPUS (skipped when unset),
// and from generated text (always). Token mode counts with the in-process tiktoken counter
// (cl100k_base, fast backend) and reports the counter calls per document.
//
//	CHUNKKIT_CORPUS=/tmp/corpus go test -run '^$' -bench ChunkContent -count 6 ./adapters/doc2mark
func BenchmarkChunkContent(b *testing.B) {
	inputs := []struct {
		name  string
		build func(b *testing.B) []byte
	}{
		{"corpus", corpusContent},
		{"generated", func(*testing.B) []byte { return generatedContent() }},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			data := in.build(b)
			items, err := doc2mark.ParseItems(data)
			if err != nil {
				b.Fatal(err)
			}
			tk, err := tiktoken.New("cl100k_base", tiktoken.Fast)
			if err != nil {
				b.Fatal(err)
			}
			for _, unit := range []string{doc2mark.UnitChars, doc2mark.UnitTokens} {
				b.Run(unit, func(b *testing.B) {
					cfg := doc2mark.DefaultConfig()
					cfg.SizeUnit = unit
					if unit == doc2mark.UnitTokens {
						cfg.MaxChunkSize, cfg.Overlap = 512, 64
					}
					rec := &sdk.Recorder{Counter: tk}
					var chunks []doc2mark.Chunk
					b.SetBytes(int64(len(data)))
					b.ReportAllocs()
					for b.Loop() {
						if chunks, err = doc2mark.ChunkContent(context.Background(), items, &cfg, rec); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(len(chunks)), "chunks/op")
					if unit == doc2mark.UnitTokens {
						b.ReportMetric(float64(rec.Stats().Calls())/float64(b.N), "calls/op")
					}
				})
			}
		})
	}
}

// BenchmarkSections measures chunkers.Sections (MaxTokens 512, OverlapTokens 64, in-process
// tiktoken cl100k_base) on the document Parse makes of the same json_content as
// BenchmarkChunkContent, in MB/s of json_content, so that the two read side by side (parsing
// is outside the loop in both; BenchmarkParseItems measures it).
//
//	CHUNKKIT_CORPUS=/tmp/corpus go test -run '^$' -bench 'ChunkContent|Sections' -count 6 ./adapters/doc2mark
func BenchmarkSections(b *testing.B) {
	for _, in := range []struct {
		name  string
		build func(b *testing.B) []byte
	}{
		{"corpus", corpusContent},
		{"generated", func(*testing.B) []byte { return generatedContent() }},
	} {
		b.Run(in.name, func(b *testing.B) {
			data := in.build(b)
			doc, err := doc2mark.Parse(data, doc2mark.Options{ID: in.name})
			if err != nil {
				b.Fatal(err)
			}
			tk, err := tiktoken.New("cl100k_base", tiktoken.Fast)
			if err != nil {
				b.Fatal(err)
			}
			rec := &sdk.Recorder{Counter: tk}
			s := &chunkers.Sections{Config: chunkers.Config{Counter: rec, MaxTokens: 512, OverlapTokens: 64}}
			var chunks []sdk.Chunk
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if chunks, err = s.Chunk(context.Background(), sdk.Request{}, doc); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(chunks)), "chunks/op")
			b.ReportMetric(float64(rec.Stats().Calls())/float64(b.N), "calls/op")
		})
	}
}

// BenchmarkParseItems measures ParseItems on the generated json_content.
func BenchmarkParseItems(b *testing.B) {
	data := generatedContent()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := doc2mark.ParseItems(data); err != nil {
			b.Fatal(err)
		}
	}
}

// corpusContent turns the corpus files, in path order, into json_content of about benchSize
// bytes: Markdown "#" and "##" lines become titles and sections, deeper headings sections,
// paragraphs that start with "|" tables, with "- " or "* " lists, the rest text:normal; a
// page every 40 items.
func corpusContent(b *testing.B) []byte {
	dir := os.Getenv("CHUNKKIT_CORPUS")
	if dir == "" {
		b.Skip("CHUNKKIT_CORPUS is not set: build a corpus with ../shared/tools/build-corpus.sh DIR and set CHUNKKIT_CORPUS=DIR")
	}
	var paths []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".txt")) {
			paths = append(paths, path)
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	slices.Sort(paths)
	var items []doc2mark.Item
	size := 0
	for _, p := range paths {
		text, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		for para := range strings.SplitSeq(strings.ReplaceAll(string(text), "\r\n", "\n"), "\n\n") {
			para = strings.Trim(para, "\n")
			if strings.TrimSpace(para) == "" {
				continue
			}
			it := doc2mark.Item{Type: doc2mark.TypeNormal, Content: para}
			switch {
			case strings.HasPrefix(para, "# "):
				it = doc2mark.Item{Type: doc2mark.TypeTitle, Content: strings.TrimPrefix(para, "# ")}
			case strings.HasPrefix(para, "#"):
				it = doc2mark.Item{Type: doc2mark.TypeSection, Content: strings.TrimLeft(para, "# ")}
			case strings.HasPrefix(para, "|"):
				it.Type = doc2mark.TypeTable
			case strings.HasPrefix(para, "- "), strings.HasPrefix(para, "* "):
				it.Type = doc2mark.TypeList
			}
			page := len(items)/40 + 1
			it.Page = &page
			items = append(items, it)
			size += len(para) + 40
			if size >= benchSize {
				return mustJSON(items)
			}
		}
	}
	b.Logf("the corpus holds only about %d bytes of text", size)
	return mustJSON(items)
}

// generatedContent returns about benchSize bytes of json_content made of English-like
// sentences under titles and sections, with tables, lists, footnotes and their references,
// headers and footers on every page. It is the same on every call.
func generatedContent() []byte {
	words := strings.Fields(`the a of to and in is that for it as with was on by be this are from at or an
		which have not were has but all their can more its one other been also there when would
		chunk token table page section document retrieval budget overlap footnote heading result
		method data model text search index query answer source report value measure figure`)
	r := rand.New(rand.NewPCG(1, 2))
	sentence := func() string {
		n := 6 + r.IntN(18)
		w := make([]string, n)
		for i := range w {
			w[i] = words[r.IntN(len(words))]
		}
		s := strings.Join(w, " ")
		return strings.ToUpper(s[:1]) + s[1:] + "."
	}
	var items []doc2mark.Item
	size, page, note := 0, 1, 0
	add := func(it doc2mark.Item) {
		p := page
		it.Page = &p
		items = append(items, it)
		size += len(it.Content) + 40
	}
	for size < benchSize {
		add(doc2mark.Item{Type: doc2mark.TypeHeader, Content: "Generated report"})
		switch r.IntN(10) {
		case 0:
			add(doc2mark.Item{Type: doc2mark.TypeTitle, Content: sentence()})
		case 1, 2:
			add(doc2mark.Item{Type: doc2mark.TypeSection, Content: sentence()})
		}
		for range 5 + r.IntN(10) {
			var sb strings.Builder
			for range 1 + r.IntN(6) {
				sb.WriteString(sentence())
				sb.WriteByte(' ')
			}
			switch k := r.IntN(20); {
			case k == 0:
				rows := "| Metric | Value |\n| --- | --- |\n"
				for i := range 3 + r.IntN(30) {
					rows += fmt.Sprintf("| %s | %d |\n", words[r.IntN(len(words))], i*17)
				}
				add(doc2mark.Item{Type: doc2mark.TypeTable, Content: rows})
			case k == 1:
				add(doc2mark.Item{Type: doc2mark.TypeList, Content: "- " + sentence()})
			case k == 2:
				note++
				add(doc2mark.Item{Type: doc2mark.TypeNormal, Content: sb.String() + fmt.Sprintf("[^%d]", note)})
				add(doc2mark.Item{Type: doc2mark.TypeFootnote, Content: fmt.Sprintf("[^%d]: %s", note, sentence())})
			default:
				add(doc2mark.Item{Type: doc2mark.TypeNormal, Content: strings.TrimSpace(sb.String())})
			}
		}
		add(doc2mark.Item{Type: doc2mark.TypeFooter, Content: fmt.Sprintf("Page %d", page)})
		page++
	}
	data, err := json.Marshal(items)
	if err != nil {
		panic(err)
	}
	return data
}
