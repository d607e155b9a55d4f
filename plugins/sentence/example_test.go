package sentence_test

import (
	"context"
	"fmt"

	"github.com/chunkkit/chunkkit/plugins/sentence"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

func ExampleNew() {
	text := "Mr. Smith left. He ran."
	for _, model := range []string{"punkt:en", "uax29"} {
		s, err := sentence.New(model)
		if err != nil {
			panic(err)
		}
		ends, err := s.Split(context.Background(), []string{text})
		if err != nil {
			panic(err)
		}
		prev := 0
		for _, e := range ends[0] {
			fmt.Printf("%s: %q\n", model, text[prev:e])
			prev = e
		}
	}
	// Output:
	// punkt:en: "Mr. Smith left. "
	// punkt:en: "He ran."
	// uax29: "Mr. "
	// uax29: "Smith left. "
	// uax29: "He ran."
}

// A chunker takes a plugin splitter in place of the in-process default.
func ExampleNew_chunker() {
	s, err := sentence.New("punkt:en")
	if err != nil {
		panic(err)
	}
	h := &chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Words{}, Sentences: s, MaxTokens: 7, OverlapTokens: chunkers.NoOverlap}}
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{{Kind: sdk.KindParagraph, Text: "Pi is 3.14. That is well known. Yes."}}}
	chunks, err := h.Chunk(context.Background(), sdk.Request{TenantID: "t", CorpusID: "c", Principal: sdk.Principal{ID: "u"}}, doc)
	if err != nil {
		panic(err)
	}
	for _, c := range chunks {
		fmt.Println(c.Content)
	}
	// Output:
	// Pi is 3.14. That is well known.
	// Yes.
}
