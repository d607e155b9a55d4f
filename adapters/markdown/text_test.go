package markdown

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/chunkkit/chunkkit/sdk"
)

// textCases are plain-text inputs with the blocks ParseText must produce. FuzzParse is seeded
// from them too.
var textCases = []struct {
	name string
	src  string
	want []sdk.Block
}{
	{name: "empty input gives no blocks", src: "", want: nil},
	{name: "blank lines only give no blocks", src: "\n \n\t\n", want: nil},
	{
		name: "runs of non-blank lines are paragraphs",
		src:  "one\ntwo\n\n\nthree\n",
		want: []sdk.Block{para(1, "one\ntwo"), para(5, "three")},
	},
	{
		name: "a line of spaces separates paragraphs",
		src:  "a\n   \nb",
		want: []sdk.Block{para(1, "a"), para(3, "b")},
	},
	{
		name: "Markdown is not interpreted",
		src:  "# not a heading\n- nor a list\n\n---\n",
		want: []sdk.Block{para(1, "# not a heading\n- nor a list"), para(4, "---")},
	},
	{
		name: "indentation of the first line is removed from the run",
		src:  "    indented\n      more\n  less\n",
		want: []sdk.Block{para(1, "indented\n  more\nless")},
	},
	{
		name: "CRLF line endings become LF",
		src:  "a\r\nb\r\n\r\nc\r\n",
		want: []sdk.Block{para(1, "a\nb"), para(4, "c")},
	},
	{
		name: "CJK and emoji text is kept",
		src:  "日本語の文。\n\n😀 emoji 👍🏽",
		want: []sdk.Block{para(1, "日本語の文。"), para(3, "😀 emoji 👍🏽")},
	},
}

func TestParseText(t *testing.T) {
	t.Parallel()
	for _, tc := range textCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc, err := ParseText([]byte(tc.src), Options{ID: "t", Title: "Given"})
			if err != nil {
				t.Fatalf("ParseText: %v", err)
			}
			if diff := cmp.Diff(tc.want, doc.Blocks, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("blocks (-want +got):\n%s", diff)
			}
			if doc.ID != "t" || doc.Title != "Given" || doc.Metadata != nil {
				t.Errorf("document ID %q title %q metadata %v, want \"t\" \"Given\" nil", doc.ID, doc.Title, doc.Metadata)
			}
			checkDocument(t, tc.src, doc, false)
		})
	}
}
