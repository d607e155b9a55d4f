package chunkbeam

import "github.com/chunkkit/chunkkit/pipeline"

// SetTestResolver sets the hook that wraps the host of every DoFn set up after it.
func SetTestResolver(f func(pipeline.Resolver) pipeline.Resolver) { testResolver = f }

// AcquireHost and ReleaseHost are the worker process's host sharing.
var (
	AcquireHost = acquireHost
	ReleaseHost = releaseHost
)
