// Command chunkkit chunks documents from the command line.
//
//	chunkkit chunk FILE [--from md|txt] [--tokenizer SPEC] [--strategy heading|noop|fixed]
//	                    [--max-tokens 512] [--overlap-tokens 64] [--tenant T] [--corpus C]
//	                    [--acl a,b] [-n 10] [--format text|jsonl]
//
// Text output gives the block and chunk counts, a tally per kind and the first N chunks with
// their parent links; --format jsonl writes every chunk as one JSON object per line. Bad input
// gives a message naming the file, the position and the problem, and exit code 1.
// See docs/reference/cli.md.
package main
