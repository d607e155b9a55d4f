package markdown

import (
	"strings"
	"testing"
)

// benchDoc returns about size bytes of Markdown shaped like technical documentation: nested
// headings, prose, lists, code, tables and quotes.
func benchDoc(size int) []byte {
	section := `## Configuring the service

The service reads its settings from ` + "`config.yaml`" + ` at start-up. Every key has a
default, so an empty file is valid; see [the reference](https://example.com/ref) for the
full list. Changes take effect on the *next* restart.

### Options

- ` + "`listen`" + `: the address to bind, such as ` + "`:8080`" + `.
- ` + "`workers`" + `: how many requests run at once.
  - Values above the core count rarely help.
- ` + "`log_level`" + `: one of debug, info, warn or error.

1. Stop the service.
2. Edit the file.
3. Start it again.

` + "```yaml\nlisten: \":8080\"\nworkers: 4\nlog_level: info\n```" + `

| Key       | Type   | Default |
|-----------|:------:|--------:|
| listen    | string | :8080   |
| workers   | int    | 4       |
| log_level | string | info    |

> **Note:** settings are read once. A running service never sees
> a change to the file.

`
	var sb strings.Builder
	sb.WriteString("# Operations manual\n\n")
	for sb.Len() < size {
		sb.WriteString(section)
	}
	return []byte(sb.String())
}

func BenchmarkParse(b *testing.B) {
	src := benchDoc(1 << 20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(src, Options{ID: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseText(b *testing.B) {
	src := benchDoc(1 << 20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseText(src, Options{ID: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
}
