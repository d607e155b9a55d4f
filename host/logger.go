package host

import (
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/go-hclog"
)

// EnvLogLevel names the environment variable that sets the level of a Host's default logger
// (Options.Logger nil): trace, debug, info, warn (the default), error or off. At debug it
// shows what the host keeps out of the warning log, such as a panicking plugin's goroutine
// dump.
const EnvLogLevel = "CHUNKKIT_LOG_LEVEL"

// pluginLogger is the logger the host gives go-plugin for one plugin process. It keeps what
// the host reports itself, in the error a caller gets, out of the warning log (a command's
// standard error), at debug level instead:
//   - the lines of a goroutine dump on the plugin's stderr (go-plugin logs them as errors),
//     and log entries a plugin relays with a "stack" (sdk/serve's report of a recovered
//     panic): the error says in one line that it panicked, and where;
//   - go-plugin's "plugin process exited" error: the caller's error says how it ended;
//   - go-plugin's "plugin failed to exit gracefully" warning when the process is known to be
//     gone already (a failed start or a crash): there was nothing to exit gracefully.
type pluginLogger struct {
	hclog.Logger
	dead       *atomic.Bool
	stderrName string // the name go-plugin gives the logger of the plugin's stderr
	relay      bool   // this is that logger
}

// stderrLoggerName is the name go-plugin gives the logger of the stderr of the binary at path.
func stderrLoggerName(path string) string { return filepath.Base(path) }

func (l pluginLogger) wrap(inner hclog.Logger, relay bool) hclog.Logger {
	return pluginLogger{Logger: inner, dead: l.dead, stderrName: l.stderrName, relay: relay}
}

func (l pluginLogger) Named(name string) hclog.Logger {
	return l.wrap(l.Logger.Named(name), l.relay || name == l.stderrName)
}

func (l pluginLogger) ResetNamed(name string) hclog.Logger {
	return l.wrap(l.Logger.ResetNamed(name), name == l.stderrName)
}

func (l pluginLogger) With(args ...any) hclog.Logger {
	return l.wrap(l.Logger.With(args...), l.relay)
}

func (l pluginLogger) Warn(msg string, args ...any) {
	if l.dead.Load() && msg == "plugin failed to exit gracefully" {
		l.Logger.Debug(msg, args...)
		return
	}
	l.Logger.Warn(msg, args...)
}

func (l pluginLogger) Error(msg string, args ...any) {
	switch {
	case !l.relay && msg == "plugin process exited",
		l.relay && len(args) == 0 && !strings.HasPrefix(msg, "[ERROR]"), // a raw line: a panic's dump
		l.relay && hasKey(args, "stack"):
		l.Logger.Debug(msg, args...)
		return
	}
	l.Logger.Error(msg, args...)
}

// hasKey reports whether the key-value list args has key.
func hasKey(args []any, key string) bool {
	for i := 0; i < len(args); i += 2 {
		if k, ok := args[i].(string); ok && k == key {
			return true
		}
	}
	return false
}
