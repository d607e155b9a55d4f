package tiktoken_test

import (
	"context"
	"fmt"

	"github.com/chunkkit/chunkkit/plugins/tiktoken"
)

func Example() {
	c, err := tiktoken.New("cl100k_base", tiktoken.Backtrack)
	if err != nil {
		panic(err)
	}
	texts := []string{"Hello, world!", "<|endoftext|> is text here"}
	counts, err := c.Count(context.Background(), texts)
	if err != nil {
		panic(err)
	}
	bounds, err := c.Boundaries(context.Background(), texts)
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Name(), counts)
	fmt.Println(bounds[0])
	// Output:
	// tiktoken:cl100k_base [4 10]
	// [5 6 12 13]
}

func ExampleParseModel() {
	enc, backend, err := tiktoken.ParseModel("o200k_base@reference")
	fmt.Println(enc, backend, err)
	_, _, err = tiktoken.ParseModel("gpt2")
	fmt.Println(err)
	// Output:
	// o200k_base reference <nil>
	// tiktoken: model "gpt2": chunkkit: unsupported: encoding "gpt2" (available: cl100k_base, o200k_base, p50k_base, r50k_base)
}
