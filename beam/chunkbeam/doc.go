// Package chunkbeam chunks documents as an Apache Beam transform: Chunk takes a PCollection of
// Document and returns the chunks (sdk.Chunk, exactly what `chunkkit chunk --format jsonl`
// writes) and the documents that failed (DeadLetter), on any runner the Beam Go SDK reaches —
// Prism in-process, Flink, Spark, Dataflow.
//
//	chunks, dead := chunkbeam.Chunk(s, chunkbeam.Config{
//		Chunker: pipeline.ChunkerConfig{Tokenizer: "tiktoken:cl100k_base", MaxTokens: 512},
//	}, docs)
//
// Each worker process supervises its own plugins. The DoFn's Setup acquires a plugin host
// shared by every instance of the DoFn in the process (reference counted; the last Teardown
// closes it), so a tokenizer plugin starts once per worker process, not once per bundle or per
// document. The host starts plugins in process groups of their own and keeps a watchdog, so
// the plugins die with the worker even when the runner kills it without a Teardown. Where the
// host looks for plugins: Config.PluginDirs, then $CHUNKKIT_PLUGIN_DIR, then the worker
// binary's directory (host.SearchPath).
//
// Each document is chunked by pipeline.Run, as the command line chunks it, so the output
// equals `chunkkit chunk` on the same documents with the same options. Chunk IDs come from the
// document ID and the chunk's position and ContentHash from the text to embed, so a retried
// bundle or another runner gives the same rows and a sink can upsert by ID.
//
// A document that cannot be parsed or chunked goes to the dead-letter output with its ID and
// the reason; the bundle goes on. A document whose plugin crashed during the call is retried
// (Config.Retries times) on the restarted plugin before it counts as failed: a killed plugin
// costs one retried document, not the bundle. Errors that no document caused — the host or
// the chunker cannot be set up (bad config, missing plugin), a plugin in a crash loop, the
// bundle cancelled — fail the bundle, for the runner to retry it.
//
// The Beam runtime needs its functions, types and coders registered before the pipeline
// starts, in init (Beam's convention): importing this package registers them.
package chunkbeam
