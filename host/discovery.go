package host

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// EnvPluginDir names the environment variable that tells Discover where to look first: a
// list of directories or manifest files separated by the OS path-list separator (':' on
// Unix), searched in order.
const EnvPluginDir = "CHUNKKIT_PLUGIN_DIR"

// Plugin is a manifest entry resolved against its manifest: what a Host starts.
type Plugin struct {
	// Name is the plugin's name from the manifest.
	Name string
	// Path is the absolute path of the binary.
	Path string
	// SHA256 is the binary's expected checksum, lowercase hex.
	SHA256 string
	// Args are the binary's command-line arguments.
	Args []string
	// Kinds lists the services the plugin offers.
	Kinds []plugin.Kind
	// Env names the host's environment variables the plugin gets besides the documented
	// minimum (Entry.Env).
	Env []string
	// Manifest is the path of the manifest that lists the plugin.
	Manifest string
}

// Serves reports whether the manifest lists kind among the plugin's services.
func (p Plugin) Serves(kind plugin.Kind) bool { return slices.Contains(p.Kinds, kind) }

// Verify checks the binary as the host does before every start: it exists, is a regular
// file that resolves (symlinks followed) inside its manifest's folder, neither it nor the
// folders holding it can be written by users other than you and root (the error says which
// chmod fixes it), and it matches its manifest's checksum. A mismatch is an error matching
// plugin.ErrChecksumsDoNotMatch (from hashicorp/go-plugin) that names the plugin, the binary
// and the manifest.
func (p Plugin) Verify() error {
	bin, err := p.openChecked()
	if err != nil {
		return err
	}
	return bin.f.Close()
}

// Catalog is the plugins found by Discover or Load: the first plugin of each name, in the
// order the search found them.
type Catalog struct {
	// Searched lists the directories and files searched, in order.
	Searched []string
	// Manifests lists the manifest files read, in order.
	Manifests []string
	// Plugins lists the plugins found. A name listed again in a later search path is
	// shadowed by the earlier one and left out, as with $PATH.
	Plugins []Plugin
}

// Lookup returns the plugin called name.
func (c *Catalog) Lookup(name string) (Plugin, bool) {
	if c == nil {
		return Plugin{}, false
	}
	for _, p := range c.Plugins {
		if p.Name == name {
			return p, true
		}
	}
	return Plugin{}, false
}

// ConfigDirName is the directory under the user's configuration directory (os.UserConfigDir)
// where Discover looks for plugins installed for one user: ~/.config/chunkkit/plugins on Linux
// ($XDG_CONFIG_HOME/chunkkit/plugins when that is set), ~/Library/Application
// Support/chunkkit/plugins on macOS, %AppData%\chunkkit\plugins on Windows.
const ConfigDirName = "chunkkit/plugins"

// CommandName is the chunkkit command, whose directory on $PATH Discover searches last: a
// library program finds the plugins installed beside the command line.
const CommandName = "chunkkit"

// SearchPath returns where Discover looks for manifests, in order:
//
//  1. dirs, the caller's own (Options.PluginDirs for Open);
//  2. each element of $CHUNKKIT_PLUGIN_DIR (a list like $PATH; empty elements skipped);
//  3. the directory of the running executable (os.Executable): the layout make build makes;
//  4. the user's plugin directory, ConfigDirName under os.UserConfigDir;
//  5. the directory of the chunkkit command found on $PATH, if any.
//
// Paths from 1 and 2 must exist; Discover skips the others when they do not.
func SearchPath(dirs ...string) []string {
	paths, _ := searchPath(dirs)
	return paths
}

// searchPath returns SearchPath and how many of its first paths are required to exist.
func searchPath(dirs []string) (paths []string, required int) {
	for _, p := range dirs {
		if p != "" {
			paths = append(paths, p)
		}
	}
	for _, p := range filepath.SplitList(os.Getenv(EnvPluginDir)) {
		if p != "" {
			paths = append(paths, p)
		}
	}
	required = len(paths)
	if exe, err := os.Executable(); err == nil {
		paths = append(paths, filepath.Dir(exe))
	}
	if cfg, err := os.UserConfigDir(); err == nil {
		paths = append(paths, filepath.Join(cfg, filepath.FromSlash(ConfigDirName)))
	}
	if cmd, err := exec.LookPath(CommandName); err == nil {
		if abs, err := filepath.Abs(cmd); err == nil {
			paths = append(paths, filepath.Dir(abs))
		}
	}
	return paths, required
}

// Discover loads the manifests on SearchPath(dirs...). A path from dirs or $CHUNKKIT_PLUGIN_DIR
// that does not exist is an error; the other places may hold no manifest or not exist. A plugin
// name found in two places is the first place's. Finding no plugin at all is not an error:
// asking a Host for one is, and its error lists the places searched.
func Discover(dirs ...string) (*Catalog, error) {
	paths, required := searchPath(dirs)
	kept := paths[:required:required]
	for _, p := range paths[required:] {
		if slices.Contains(kept, p) {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			kept = append(kept, p)
		}
	}
	cat, err := Load(kept...)
	if err != nil && required > 0 {
		return nil, fmt.Errorf("%w (the places given to Discover or in $%s must exist; the search path is %s)",
			err, EnvPluginDir, strings.Join(paths, string(os.PathListSeparator)))
	}
	return cat, err
}

// Load reads the manifests at paths, in order. A path is a manifest file, or a directory
// whose files matching ManifestPattern ("*.plugins.json", chunkkit.plugins.json among them)
// are read in lexical order. A plugin name listed by two manifests of the same directory is an
// error (which one was meant?); a name found again under a later path is shadowed by the
// first. A path that does not exist or a malformed manifest is an error (a *ManifestError for
// the latter).
func Load(paths ...string) (*Catalog, error) {
	cat := &Catalog{}
	where := make(map[string]string) // plugin name → manifest that listed it
	for _, path := range paths {
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, fmt.Errorf("host: plugin path %s: %w", path, err)
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("host: plugin path %s: %w", path, err)
		}
		cat.Searched = append(cat.Searched, abs)
		files := []string{abs}
		if fi.IsDir() {
			if files, err = filepath.Glob(filepath.Join(abs, ManifestPattern)); err != nil {
				return nil, fmt.Errorf("host: plugin path %s: %w", path, err)
			}
			slices.Sort(files)
		}
		local := make(map[string]string) // names seen under this path
		for _, f := range files {
			if st, err := os.Stat(f); err == nil && st.IsDir() {
				continue
			}
			m, err := LoadManifest(f)
			if err != nil {
				return nil, err
			}
			cat.Manifests = append(cat.Manifests, m.Path)
			for i, p := range m.Plugins() {
				if other, dup := local[p.Name]; dup {
					return nil, &ManifestError{File: m.Path, Field: fmt.Sprintf("plugins[%d].name", i),
						Problem: fmt.Sprintf("plugin %q is also listed by %s in the same directory", p.Name, other)}
				}
				local[p.Name] = m.Path
				if _, shadowed := where[p.Name]; shadowed {
					continue
				}
				where[p.Name] = m.Path
				cat.Plugins = append(cat.Plugins, p)
			}
		}
	}
	return cat, nil
}

// notFound explains where a plugin was looked for.
func (c *Catalog) notFound(name string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "no plugin named %q", name)
	switch {
	case c == nil || len(c.Searched) == 0:
		b.WriteString(" (no manifest was loaded)")
	case len(c.Manifests) == 0:
		fmt.Fprintf(&b, " (no %s found in %s)", ManifestPattern, strings.Join(c.Searched, ", "))
	default:
		names := make([]string, len(c.Plugins))
		for i, p := range c.Plugins {
			names[i] = p.Name
		}
		fmt.Fprintf(&b, " in %s (they list: %s)", strings.Join(c.Manifests, ", "), strings.Join(names, ", "))
	}
	fmt.Fprintf(&b, "; put %s (chunkkit plugins add BINARY writes it) in one of those places, or set $%s to its directory", ManifestName, EnvPluginDir)
	return fmt.Errorf("host: %s: %w", b.String(), ErrNotFound)
}
