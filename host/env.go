package host

import (
	"os"
	"strings"

	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// passedEnv lists the host's environment variables every plugin gets, when the host has them
// set: where to find programs, the user's home, the locale, and the log level sdk/serve reads
// (sdk/serve.LogLevelEnv) and the CPU profile it writes when asked (sdk/serve.CPUProfileEnv).
var passedEnv = []string{"PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "CHUNKKIT_PLUGIN_LOG_LEVEL", "CHUNKKIT_PLUGIN_CPUPROFILE"}

// defaultPath is the PATH of a plugin whose host has none.
const defaultPath = "/usr/local/bin:/usr/bin:/bin"

// pluginEnv returns the environment a plugin starts with: passedEnv, the host's values of the
// names the manifest's env lists, TMPDIR set to tmpdir (a private folder the host removes),
// and goPlugin (go-plugin's magic cookie and PLUGIN_* variables), which win. Nothing else of
// the host's environment reaches the plugin.
func pluginEnv(allow []string, tmpdir string, goPlugin []string) []string {
	env := make([]string, 0, len(passedEnv)+len(allow)+len(goPlugin)+2)
	seen := make(map[string]bool)
	add := func(kv string) {
		k, _, _ := strings.Cut(kv, "=")
		if !seen[k] {
			seen[k] = true
			env = append(env, kv)
		}
	}
	for _, kv := range goPlugin {
		add(kv)
	}
	add("TMPDIR=" + tmpdir)
	for _, k := range append(passedEnv, allow...) {
		if v, ok := os.LookupEnv(k); ok {
			add(k + "=" + v)
		}
	}
	add("PATH=" + defaultPath)
	return env
}

// reservedEnv reports whether the host sets the variable k itself, so that a manifest may not
// pass the host's value of it.
func reservedEnv(k string) bool {
	return k == "TMPDIR" || k == "CHUNKKIT_PLUGIN" || k == plugin.PreloadEnv || strings.HasPrefix(k, "PLUGIN_")
}
