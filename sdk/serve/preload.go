package serve

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/go-hclog"

	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// preload starts loading, each in a goroutine of its own, the models the host named in
// plugin.PreloadEnv (value) for the registries this plugin serves, so that loading overlaps
// the handshake: a Map's later request for the same model waits for that load instead of
// starting another. A load that fails is not kept by a Map, so the request reports it. A
// value that is not the documented JSON is logged and ignored.
func preload(value string, counters plugin.Counters, splitters plugin.Splitters, logger hclog.Logger) {
	if value == "" {
		return
	}
	var models map[plugin.Kind][]string
	if err := json.Unmarshal([]byte(value), &models); err != nil {
		logger.Warn("ignoring the host's preload hint", "env", plugin.PreloadEnv, "error", err)
		return
	}
	if counters != nil {
		for _, m := range models[plugin.KindTokenizer] {
			go preloadModel(counters, m, logger)
		}
	}
	if splitters != nil {
		for _, m := range models[plugin.KindSentence] {
			go preloadModel(splitters, m, logger)
		}
	}
}

// preloadModel asks r for model and drops the answer. A registry that panics (a Map does not:
// it turns a panicking Load into an error) is logged, not a crash: the request for the model
// will meet the panic again and report it.
func preloadModel[T any](r plugin.Registry[T], model string, logger hclog.Logger) {
	defer func() {
		if v := recover(); v != nil {
			logger.Warn("preloading a model panicked", "model", model, "panic", v)
		}
	}()
	_, _ = r.Model(context.Background(), model)
}
