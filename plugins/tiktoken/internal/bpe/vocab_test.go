package bpe

import (
	"slices"
	"testing"
	"time"

	loader "github.com/pkoukk/tiktoken-go-loader/assets"
)

func TestDeriveAndLoadAgree(t *testing.T) {
	for _, enc := range Encodings {
		t.Run(enc, func(t *testing.T) {
			file, err := loader.Assets.ReadFile(enc + ".tiktoken")
			if err != nil {
				t.Fatal(err)
			}
			t0 := time.Now()
			data, starts, err := ParseTiktoken(file)
			if err != nil {
				t.Fatal(err)
			}
			t1 := time.Now()
			d, err := Derive(data, starts)
			if err != nil {
				t.Fatal(err)
			}
			t2 := time.Now()
			split := d.SplitTable()
			t3 := time.Now()
			l, err := Load(data, starts, split)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("parse %v derive %v load %v; %d ids", t1.Sub(t0), t2.Sub(t1), time.Since(t3), d.NumIDs())
			if !slices.Equal(d.splitL, l.splitL) || !slices.Equal(d.splitR, l.splitR) {
				t.Error("Load's tables differ from Derive's")
			}
		})
	}
}
