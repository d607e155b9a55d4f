package main

import (
	"fmt"
	"os"
	"time"

	loader "github.com/pkoukk/tiktoken-go-loader/assets"

	"github.com/chunkkit/chunkkit/plugins/tiktoken/internal/bpe"
	"github.com/chunkkit/chunkkit/plugins/tiktoken/internal/bpe/data"
)

func main() {
	enc := os.Args[1]
	t0 := time.Now()
	f, _ := loader.Assets.Open(enc + ".tiktoken")
	table, _ := data.Tables.ReadFile(enc + ".split")
	tokens, starts, _ := bpe.ParseTiktoken(f)
	t1 := time.Now()
	_, err := bpe.Load(tokens, starts, table)
	t2 := time.Now()
	fmt.Println(t1.Sub(t0).Microseconds(), t2.Sub(t1).Microseconds(), err)
}
