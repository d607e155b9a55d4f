// Package sentence is chunkkit's default in-process sentence splitter: a rule-based segmenter
// that implements sdk.SentenceSplitter with the standard library only.
//
// For each text it returns the end byte offset of every sentence. Sentences tile the text: the
// white space after a sentence belongs to it, white space before the first sentence belongs to
// the first, and the last offset is len(text). A text with no non-space rune (empty or white
// space only) has no sentences. Ends splits one text; a Splitter splits a batch and can be
// given extra abbreviations.
//
// # Rules
//
// A sentence ends at a terminator (. ! ? … and their relatives), after any closing quotes or
// brackets that follow it ('He said "Stop." Then' ends after the quote) and after the white
// space that follows those. Terminators in a row (?!, !!, ...) count as one, and the combining
// marks, variation selectors, joiners and other format characters after a terminator are part
// of it (UAX #29's rule SB5): no sentence ends between a rune and the marks on it.
//
//   - A Latin terminator ends a sentence only when white space or the end of the text follows
//     it, so decimals, version numbers, IP addresses, URLs and e-mail addresses (3.14, v1.2.3,
//     192.168.0.1, example.com/a.b, jo.doe@example.com) are never split.
//   - It does not end a sentence when the next word starts with a lowercase letter (opening
//     quotes and brackets skipped): '"Stop!" he said' is one sentence.
//   - An ellipsis (… or two or more periods) ends a sentence only when the next word starts
//     with an uppercase letter.
//   - A period after a title (Mr., Mrs., Dr., Prof., ...), after e.g., i.e., cf., vs. and the
//     like, or after a word in Splitter.Abbreviations never ends a sentence.
//   - A period after No., Nos., Art., pp. and the like does not end a sentence before a number
//     (No. 5), but does elsewhere ("No. That is wrong.").
//   - A period after an abbreviation that may also close a sentence (etc., Inc., Jr., St., Fig.,
//     Jan., ...), after a single letter (the initials in J. R. R. Tolkien), or after a dotted
//     abbreviation such as U.S., a.m. or Ph.D. ends a sentence only when the next word is a
//     common English sentence starter such as "The", "He" or "In": "the U.S. Army" is one
//     sentence, "in the U.S. The" is two.
//   - A number such as "1." or "2.3." (or a small Roman numeral) at the start of a line is a
//     list marker, not a sentence.
//   - The ideographic full stop and full-width terminators (。｡！？．) end a sentence even when
//     the next sentence follows with no space, after any closing brackets (」』）...). A closing
//     bracket followed directly by the quotative particle と continues the sentence, and a
//     full-width period between digits is a decimal point.
//   - A blank line (two line breaks with nothing but white space between them, a form feed or
//     a paragraph separator) always ends a sentence; a single line break does not by itself.
//
// Invalid UTF-8 is not an error: each invalid byte is an ordinary non-space character. No
// sentence boundary is placed in front of a stray continuation byte, so every answer passes
// sdk.CheckBoundaries.
//
// The rules are English-first and case-based: text written without capital letters is split
// only at ?, !, CJK terminators and blank lines. Splitting runs in time linear in the length
// of the text (the look-ahead at each candidate boundary is bounded), and with the built-in
// rules it allocates nothing but the result.
package sentence
