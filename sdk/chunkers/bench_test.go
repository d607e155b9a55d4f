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
		"The keeper checks the lamp at sunset and again at two in the morning. ",
		"A log entry records the time, the check and the measured value. ",
		"When the generator fails to start twice, the district engineer is called before dusk. ",
		"Rotation is timed over ten turns and divided by ten, e.g. 10.1 s. ",
	}
	return proseDoc("bench", size, sentences, "Section %d", func(i int, add func(sdk.Block)) {
		if i%4 != 0 {
			return
		}
		var sb strings.Builder
		sb.WriteString("| time | check | value |\n|---|---|---|")
		for r := range 20 {
			fmt.Fprintf(&sb, "\n| %02d:00 | rotation | %d.%d |", r, 9+r%2, r%10)
		}
		add(sdk.Block{Kind: sdk.KindTable, Text: sb.String()})
		add(sdk.Block{Kind: sdk.KindCode, Text: "```sh\nstationlog add --time 02:00 --check rotation --value 10.1\nstationlog show --since 18:00\n```"})
	})
}

// benchDocCJK builds a document of about size bytes of Japanese, Chinese and Korean prose, in
// sections: text whose sentence ends do not follow an ASCII space (Japanese and Chinese), or
// do but come before a non-ASCII letter (Korean), so that what sentence ends cost the chunkers
// (wholeWordEnds) is measured on the text where it costs most.
func benchDocCJK(size int) *sdk.Document {
	sentences := []string{
		"灯台守は日没時と午前二時にランプを点検する。",
		"記録には時刻、点検項目、測定値を書く。",
		"发电机两次无法启动时，应在黄昏前通知区域工程师。",
		"旋转时间按十圈计时，再除以十！",
		"관리인은 해질녘과 새벽 두 시에 등을 점검한다. ",
		"기록에는 시각과 측정값을 적는다? ",
	}
	return proseDoc("bench-cjk", size, sentences, "第%d節", nil)
}

// proseDoc builds a document of about size bytes: sections under headings of three levels
// (heading, a format of the section's number), each of four paragraphs of 3 to 22 of
// sentences in turn, and then what more adds, if anything.
func proseDoc(id string, size int, sentences []string, heading string, more func(section int, add func(sdk.Block))) *sdk.Document {
	doc := &sdk.Document{ID: id}
	n := 0
	add := func(b sdk.Block) {
		doc.Blocks = append(doc.Blocks, b)
		n += len(b.Text) + 2
	}
	for i := 0; n < size; i++ {
		add(sdk.Block{Kind: sdk.KindHeading, Level: 1 + i%3, Text: fmt.Sprintf(heading, i)})
		for p := range 4 {
			var sb strings.Builder
			for s := range 3 + (i+p)%20 {
				sb.WriteString(sentences[(i+s)%len(sentences)])
			}
			add(sdk.Block{Kind: sdk.KindParagraph, Text: strings.TrimSpace(sb.String())})
		}
		if more != nil {
			more(i, add)
		}
	}
	return doc
}

// BenchmarkChunk chunks benchDoc with each strategy, and benchDocCJK with HeadingAware
// (text=cjk), where sentence ends cost the most.
func BenchmarkChunk(b *testing.B) {
	doc, cjk := benchDoc(1<<20), benchDocCJK(1<<20)
	heading := func(c sdk.TokenCounter) sdk.Chunker {
		return &chunkers.HeadingAware{Config: chunkers.Config{Counter: c}}
	}
	for _, tc := range []struct {
		name string
		doc  *sdk.Document
		new  func(sdk.TokenCounter) sdk.Chunker
	}{
		{"strategy=heading", doc, heading},
		{"strategy=heading/text=cjk", cjk, heading},
		{"strategy=fixed", doc, func(c sdk.TokenCounter) sdk.Chunker {
			return &chunkers.FixedTokens{Config: chunkers.Config{Counter: c}}
		}},
		{"strategy=noop", doc, func(c sdk.TokenCounter) sdk.Chunker { return &chunkers.Noop{Counter: c} }},
	} {
		b.Run(tc.name+"/tokenizer=words", func(b *testing.B) {
			rec := &sdk.Recorder{Counter: sdk.Words{}}
			c := tc.new(rec)
			b.SetBytes(int64(len(tc.doc.Canonical().Text)))
			b.ReportAllocs()
			chunks := 0
			for b.Loop() {
				out, err := c.Chunk(context.Background(), sdk.Request{}, tc.doc)
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
