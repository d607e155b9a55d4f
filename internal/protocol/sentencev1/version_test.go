package sentencev1

import (
	"os"
	"regexp"
	"testing"
)

func TestProtocolVersionMatchesProtoHeader(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("sentence.proto")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^// chunkkit sentence protocol version: (\d+\.\d+)$`).FindSubmatch(src)
	if m == nil {
		t.Fatal(`sentence.proto lacks the header line "// chunkkit sentence protocol version: MAJOR.MINOR"`)
	}
	if got, want := Version(), string(m[1]); got != want {
		t.Errorf("ProtocolVersion.ProtocolMinor is %s but sentence.proto says %s: update version.go or the .proto header", got, want)
	}
}
