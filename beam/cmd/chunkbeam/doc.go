// Command chunkbeam is an example Beam pipeline around chunkbeam.Chunk: it reads documents
// (the files of a directory or a glob, or a JSONL stream of documents as `chunkkit chunk
// --from jsonl` reads), chunks them with the options of `chunkkit chunk`, and writes the chunks
// as JSONL (one chunk a line, the fields chunk --format jsonl writes) and the documents that
// failed as JSONL dead letters.
//
//	make -C .. build   # the plugins and their manifest in ../bin
//	go run ./cmd/chunkbeam --plugin-dir ../bin --input ../testdata --output /tmp/chunks.jsonl
//
// It runs on Prism, in-process, unless --runner says otherwise; the same binary submits to
// Flink, Spark or Dataflow (see docs/scale-out.md):
//
//	chunkbeam --runner flink --endpoint localhost:8099 --environment_type DOCKER \
//		--environment_config registry.example.com/chunkbeam-worker:2.77.0 \
//		--input /data/docs --output /data/chunks.jsonl
//
// A directory is walked as chunk DIR walks it (hidden and VCS folders skipped, known extensions
// only, --include/--exclude), on the launching machine, and document IDs are paths relative to
// it; a glob (or a path of a Beam file system such as gs://) is matched by the runner, and IDs
// are paths relative to --root (default: the glob's folder before its first wildcard). The
// workers read the files, so the paths must be readable where the workers run. The order of
// the output lines is not defined; each chunk carries its document_id and position.
package main
