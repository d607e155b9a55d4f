// Command chunkkit-sentence is the chunkkit sentence plugin "sentence": it serves the
// splitters of package github.com/chunkkit/chunkkit/plugins/sentence (Punkt with its English
// model, offline, and Unicode UAX #29) over go-plugin gRPC. The host starts it from a
// manifest; the spec "plugin:sentence:punkt:en" or "plugin:sentence:uax29" selects a model,
// and "plugin:sentence" selects punkt:en. Run by hand, it says so and exits with status 1.
package main
