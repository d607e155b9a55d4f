package tokenizerv1

import (
	"os"
	"regexp"
	"testing"
)

func TestProtocolVersionMatchesProtoHeader(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("tokenizer.proto")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^// chunkkit tokenizer protocol version: (\d+\.\d+)$`).FindSubmatch(src)
	if m == nil {
		t.Fatal(`tokenizer.proto lacks the header line "// chunkkit tokenizer protocol version: MAJOR.MINOR"`)
	}
	if got, want := Version(), string(m[1]); got != want {
		t.Errorf("ProtocolVersion.ProtocolMinor is %s but tokenizer.proto says %s: update version.go or the .proto header", got, want)
	}
}
