package sentence_test

import (
	"context"
	"fmt"

	"github.com/chunkkit/chunkkit/sdk/sentence"
)

func ExampleEnds() {
	text := `Mr. Smith paid $3.50 at example.com. "Done!" he said. Then he left...` +
		"\n\n今日は晴れ。明日は雨。"
	start := 0
	for _, end := range sentence.Ends(text) {
		fmt.Printf("%q\n", text[start:end])
		start = end
	}
	// Output:
	// "Mr. Smith paid $3.50 at example.com. "
	// "\"Done!\" he said. "
	// "Then he left...\n\n"
	// "今日は晴れ。"
	// "明日は雨。"
}

func ExampleSplitter() {
	s := sentence.Splitter{Abbreviations: []string{"Abb."}}
	texts := []string{"Siehe Abb. 3 für Details. Danke.", "   "}
	ends, err := s.Split(context.Background(), texts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ends)
	// Output:
	// [[27 33] []]
}
