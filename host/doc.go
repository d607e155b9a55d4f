// Package host finds, verifies, starts, supervises and talks to chunkkit plugins: tokenizers
// and sentence splitters that run in their own processes (hashicorp/go-plugin over gRPC).
//
// A plugin is listed in a manifest, a JSON file named chunkkit.plugins.json (or any
// NAME.plugins.json) that gives its name, its binary (a path relative to the manifest), the
// binary's SHA-256, its arguments and the kinds of service it offers. Discover reads the
// manifests in $CHUNKKIT_PLUGIN_DIR and next to the running program; LoadManifest,
// WriteManifest and BuildManifest read and write one.
//
// A Host turns a spec such as "tiktoken:cl100k_base", "hf:/models/tokenizer.json",
// "plugin:NAME:ARG" or the in-process "words" into an sdk.TokenCounter (TokenCounter) or an
// sdk.SentenceSplitter (SentenceSplitter):
//
//	cat, err := host.Discover()
//	h := host.New(cat, host.Options{})
//	defer h.Close()
//	tc, err := h.TokenCounter(ctx, "tiktoken:cl100k_base")
//	counts, err := tc.Count(ctx, texts)
//
// The host starts one process per plugin name, shared by every counter and splitter that
// names it, the first time one is asked for. It refuses a binary whose checksum differs from
// its manifest's, talks gRPC over mutual TLS, and supervises the process: a call in flight
// when the plugin crashes fails with an error naming the plugin (matching
// sdk.ErrUnavailable); the next call starts a new process, after a backoff, up to a bounded
// number of restarts per window (ErrCrashLoop after that). A call that hangs ends at its
// context's deadline. Close stops every plugin the host started; on Linux the plugins are also
// killed by the kernel if the host dies without closing (even by SIGKILL). CloseOnSignal
// closes a host on SIGINT or SIGTERM.
//
// A Host and the counters and splitters it returns are safe for concurrent use.
package host
