package chunkers_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/conformance"
	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/chunkers"
)

// everyNth is a sentence splitter as careless as a plugin's may be: it ends a sentence at
// every n-th rune, inside words or not.
type everyNth int

func (n everyNth) Split(_ context.Context, texts []string) ([][]int, error) {
	out := make([][]int, len(texts))
	for i, s := range texts {
		k := 0
		for off := range s {
			if off > 0 && k%int(n) == 0 {
				out[i] = append(out[i], off)
			}
			k++
		}
		if len(s) > 0 {
			out[i] = append(out[i], len(s))
		}
	}
	return out, nil
}

// TestSentenceEndsInsideWordsAreNoCuts checks that a splitter's sentence ends inside words
// (before a combining mark, inside an abbreviation, anywhere) do not make the chunkers cut a
// word that fits the budget: the conformance kit's word check fails without wholeWordEnds.
func TestSentenceEndsInsideWordsAreNoCuts(t *testing.T) {
	t.Parallel()
	texts := []string{
		"中文句子。第二句！\u0301 Next sentence here. And one more after it, to split.",
		"See the U.S.A. docs at fs.readFile() and crypto.subtle, then café\u0301s e\u0301te\u0301.",
		"Wörter über Wörter: Straße, Größe, naïve, coöperate; done. " + words(20, "word"),
	}
	counter := sdk.Runes{}
	for n := 1; n <= 9; n++ {
		for _, text := range texts {
			doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{{Kind: sdk.KindHeading, Text: "Title", Level: 1}, para(text)}}
			for _, c := range []sdk.Chunker{
				&chunkers.HeadingAware{Config: chunkers.Config{Counter: counter, Sentences: everyNth(n), MaxTokens: 24, OverlapTokens: 8}},
				&chunkers.HeadingAware{Config: chunkers.Config{Counter: counter, Sentences: everyNth(n), MaxTokens: 24, OverlapTokens: chunkers.NoOverlap}},
				&chunkers.Sections{Config: chunkers.Config{Counter: counter, Sentences: everyNth(n), MaxTokens: 24, OverlapTokens: 8}},
			} {
				name := fmt.Sprintf("%T every %d runes on %q", c, n, text[:min(len(text), 20)])
				r := conformance.Request()
				chunks, err := c.Chunk(context.Background(), r, doc)
				if err := conformance.CheckResult(context.Background(), doc, r, chunks, err, conformance.OptionsFor(c, counter)); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		}
	}
}

// everyNthByte is a splitter that breaks its contract: it ends a sentence every n bytes,
// inside characters too.
type everyNthByte int

func (n everyNthByte) Split(_ context.Context, texts []string) ([][]int, error) {
	out := make([][]int, len(texts))
	for i, s := range texts {
		for e := int(n); e < len(s); e += int(n) {
			out[i] = append(out[i], e)
		}
		if len(s) > 0 {
			out[i] = append(out[i], len(s))
		}
	}
	return out, nil
}

// TestSentenceEndsInsideCharactersAreAnError checks that a splitter in process whose sentence
// end falls inside a character (a plugin's is refused by the host) fails the document with
// sdk.ErrBadResponse naming the end, instead of giving chunks that split the character.
func TestSentenceEndsInsideCharactersAreAnError(t *testing.T) {
	t.Parallel()
	doc := &sdk.Document{ID: "d", Blocks: []sdk.Block{para(strings.Repeat("日本語の文章です。", 40))}}
	for _, c := range []sdk.Chunker{
		&chunkers.HeadingAware{Config: chunkers.Config{Counter: sdk.Runes{}, Sentences: everyNthByte(7), MaxTokens: 50}},
		&chunkers.Sections{Config: chunkers.Config{Counter: sdk.Runes{}, Sentences: everyNthByte(7), MaxTokens: 50}},
	} {
		_, err := c.Chunk(context.Background(), sdk.Request{}, doc)
		if !errors.Is(err, sdk.ErrBadResponse) || !strings.Contains(err.Error(), "sentence end 7 is inside a character") {
			t.Errorf("%T: err = %v; want sdk.ErrBadResponse naming sentence end 7", c, err)
		}
	}
}
