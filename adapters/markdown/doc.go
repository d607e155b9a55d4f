// Package markdown turns Markdown and plain text into an sdk.Document, the block model every
// chunkkit chunker reads.
//
// Parse reads CommonMark with GitHub-flavoured tables, using goldmark for block structure only:
// the text of every block is cut from the source as written, so inline markup, escapes and
// link URLs survive, and the document's canonical text reads like the source without its
// heading markers, thematic breaks and front matter. ParseText reads plain text, one paragraph
// per run of non-blank lines. ParseParts and ParseTextParts are the two for large inputs: they
// give the same blocks in parts, a piece of the source at a time (ending before a heading or
// paragraph after a blank line, or after a blank line), for a chunker that reads parts
// (sdk.PartChunker) to chunk without holding the whole document. With Options.InPlace (a
// source that is the parser's to keep) the blocks' texts are cut from the source itself rather
// than from a copy: a large document, or one huge paragraph or table, is held once, not twice.
//
// Both normalize line endings to "\n" (block texts, and so canonical offsets, never hold
// "\r"), report invalid UTF-8 as an *sdk.InputError with the line and column, record each
// block's 1-based source line in Block.Attrs[AttrLine], and never drop text: every word of the
// source outside pure markup (heading "#" markers, setext underlines, thematic breaks) and
// front matter lands in some block.
package markdown
