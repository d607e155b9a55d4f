package chunkers_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// benchDoc builds a document of about size bytes: sections of three levels holding prose
// paragraphs, a table and a code block each.
func benchDoc(size int) *sdk.Document {
	sentences := []string{
		"The keeper checks the lamp at sunset and again at two in the morning.",
		"A log entry records the time, the check and the measured value.",
		"When the generator fails to start twice, the district engineer is called before dusk.",
		"Rotation is timed over ten turns and divided by ten, e.g. 10.1 s.",
	}
	doc := &sdk.Document{ID: "bench"}
	n := 0
	for i := 0; n < size; i++ {
		add := func(b sdk.Block) {
			doc.Blocks = append(doc.Blocks, b)
			n += len(b.Text) + 2
		}
		add(sdk.Block{Kind: sdk.KindHeading, Level: 1 + i%3, Text: fmt.Sprintf("Section %d", i)})
		for p := range 4 {
			var sb strings.Builder
			for s := range 3 + (i+p)%20 {
				sb.WriteString(sentences[(i+s)%len(sentences)])
				sb.WriteByte(' ')
			}
			add(sdk.Block{Kind: sdk.KindParagraph, Text: strings.TrimSpace(sb.String())})
		}
		if i%4 == 0 {
			var sb strings.Builder
			sb.WriteString("| time | check | value |\n|---|---|---|")
			for r := range 20 {
				fmt.Fprintf(&sb, "\n| %02d:00 | rotation | %d.%d |", r, 9+r%2, r%10)
			}
			add(sdk.Block{Kind: sdk.KindTable, Text: sb.String()})
			add(sdk.Block{Kind: sdk.KindCode, Text: "```sh\nstationlog add --time 02:00 --check rotation --value 10.1\nstationlog show --since 18:00\n```"})
		}
	}
	return doc
}

func BenchmarkChunk(b *testing.B) {
	doc := benchDoc(1 << 20)
	size := int64(len(doc.Canonical().Text))
	for _, tc := range []struct {
		name string
		new  func(sdk.TokenCounter) sdk.Chunker
	}{
		{"strategy=heading", func(c sdk.TokenCounter) sdk.Chunker {
			return &chunkers.HeadingAware{Config: chunkers.Config{Counter: c}}
		}},
		{"strategy=fixed", func(c sdk.TokenCounter) sdk.Chunker {
			return &chunkers.FixedTokens{Config: chunkers.Config{Counter: c}}
		}},
		{"strategy=noop", func(c sdk.TokenCounter) sdk.Chunker { return &chunkers.Noop{Counter: c} }},
	} {
		b.Run(tc.name+"/tokenizer=words", func(b *testing.B) {
			rec := &sdk.Recorder{Counter: sdk.Words{}}
			c := tc.new(rec)
			b.SetBytes(size)
			b.ReportAllocs()
			chunks := 0
			for b.Loop() {
				out, err := c.Chunk(context.Background(), sdk.Request{}, doc)
				if err != nil {
					b.Fatal(err)
				}
				chunks = len(out)
			}
			st := rec.Stats()
			b.ReportMetric(float64(st.Calls())/float64(b.N), "calls/doc")
			b.ReportMetric(float64(chunks), "chunks/op")
		})
	}
}
