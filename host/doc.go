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
// names it, the first time one is asked for. It checks the binary on the open file (checksum,
// inside its manifest's folder, writable by nobody but you and root) and executes that file,
// gives the plugin a minimal environment (the manifest may name more) and no stdin, talks gRPC
// over mutual TLS in a private directory, and supervises the process in a process group of
// its own: a call in flight when the plugin crashes fails with an error naming the plugin
// (matching sdk.ErrUnavailable); the next call starts a new process, after a backoff, up to a
// bounded number of restarts per window (ErrCrashLoop after that). A call that misses its
// context's deadline ends then, and the process is replaced. Close stops every plugin the host
// started within Options.StopTimeout, then SIGKILLs their groups; if the host dies without
// closing (even by SIGKILL), the kernel (Linux) and the host's watchdog process kill them and
// what they started. CloseOnSignal closes a host on SIGINT or SIGTERM. docs/reference/host.md
// lists the guarantees and their limits.
//
// A Host and the counters and splitters it returns are safe for concurrent use.
package host
