package bpe

import (
	"testing"

	loader "github.com/pkoukk/tiktoken-go-loader/assets"

	"github.com/chunkkit/chunkkit/plugins/tiktoken/internal/bpe/data"
)

func BenchmarkLoad(b *testing.B) {
	for _, enc := range []string{"cl100k_base", "o200k_base"} {
		file, _ := loader.Assets.Open(enc + ".tiktoken")
		data, starts, _ := ParseTiktoken(file)
		d, _ := Derive(data, starts)
		split := d.SplitTable()
		b.Run(enc, func(b *testing.B) {
			for b.Loop() {
				v, err := Load(data, starts, string(split))
				if err != nil {
					b.Fatal(err)
				}
				v.waitBacktrack() // the whole load, background tables included
			}
		})
	}
}

func BenchmarkReadTokens(b *testing.B) {
	for _, enc := range []string{"cl100k_base", "o200k_base"} {
		file, _ := data.Tokens(enc)
		b.Run(enc, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := ReadTokens(file); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParseTiktoken(b *testing.B) {
	for _, enc := range []string{"cl100k_base", "o200k_base"} {
		b.Run(enc, func(b *testing.B) {
			for b.Loop() {
				f, err := loader.Assets.Open(enc + ".tiktoken")
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := ParseTiktoken(f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
