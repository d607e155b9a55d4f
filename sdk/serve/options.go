package serve

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/go-hclog"
)

// LogLevelEnv is the environment variable that sets the level of the default logger: trace,
// debug, info (the default), warn, error or off. A host may set it for the plugins it starts.
const LogLevelEnv = "CHUNKKIT_PLUGIN_LOG_LEVEL"

// Option configures a served plugin.
type Option func(*config)

type config struct {
	name    string
	version string
	logger  hclog.Logger
}

// WithName sets the plugin's name that Info reports, such as "tiktoken". The default is the
// executable's base name.
func WithName(name string) Option { return func(c *config) { c.name = name } }

// WithVersion sets the plugin's own version that Info reports, such as "1.2.0". The default
// is "devel".
func WithVersion(version string) Option { return func(c *config) { c.version = version } }

// WithLogger sets the logger for the plugin and go-plugin. It must write to stderr or a file,
// never to stdout, which carries the handshake; go-plugin relays a plugin's stderr to the
// host's logger, best as hclog JSON lines. The default is hclog in JSON on stderr at the level
// of LogLevelEnv.
func WithLogger(l hclog.Logger) Option { return func(c *config) { c.logger = l } }

func newConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		o(&c)
	}
	if c.name == "" {
		c.name = executableName()
	}
	if c.version == "" {
		c.version = "devel"
	}
	if c.logger == nil {
		level := hclog.LevelFromString(os.Getenv(LogLevelEnv))
		if level == hclog.NoLevel {
			level = hclog.Info
		}
		c.logger = hclog.New(&hclog.LoggerOptions{
			Name:       c.name,
			Level:      level,
			Output:     os.Stderr,
			JSONFormat: true,
		})
	}
	return c
}

func executableName() string {
	exe, err := os.Executable()
	if err != nil {
		return "plugin"
	}
	return strings.TrimSuffix(filepath.Base(exe), ".exe")
}
