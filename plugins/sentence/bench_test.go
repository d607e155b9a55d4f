package sentence_test

import (
	"context"
	"strings"
	"testing"
)

// benchTexts are the inputs of BenchmarkSplit: English prose and inputs built to be hard on
// a segmenter (long runs without white space, runs of periods, one huge sentence, 20 kB of
// white space or of closing punctuation after a period, which Punkt or UAX #29 alone would
// take quadratic time over).
var benchTexts = map[string]string{
	"prose":   strings.Repeat("Mr. Smith went to Washington on Jan. 5. He said \"Stop.\" Then he left at 5 p.m. Prices rose 2.5% in 2020. ", 400),
	"periods": strings.Repeat(".", 20000),
	"nospace": strings.Repeat("a.B", 7000),
	"onelong": strings.Repeat("word ", 4000) + ".",
	"lines":   strings.Repeat("line\n", 4000),
	"spaces":  "One." + strings.Repeat(" ", 10000) + strings.Repeat("\n", 10000) + "Two.",
	"closers": "One." + strings.Repeat(")\"", 10000) + " Two.",
}

func BenchmarkSplit(b *testing.B) {
	ctx := context.Background()
	for name, s := range engines(b) {
		for input, text := range benchTexts {
			b.Run(name+"/"+input, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					if _, err := s.Split(ctx, []string{text}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
