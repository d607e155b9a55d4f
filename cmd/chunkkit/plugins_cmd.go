package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/chunkkit/chunkkit/host"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

const pluginsUsage = `Usage:
  chunkkit plugins list                  the plugins the manifests name, where they were found
  chunkkit plugins verify                check every plugin binary against its manifest's SHA-256
  chunkkit plugins add [--dir DIR] PATH... | PATH -- ARG...
                                         start each executable, ask its Info (name, kinds) and
                                         add it to DIR/chunkkit.plugins.json (default: the
                                         directory of the first PATH), with its SHA-256; the
                                         ARGs after -- are the one PATH's arguments
  chunkkit plugins manifest DIR          write DIR/chunkkit.plugins.json for every executable in
                                         DIR that answers as a chunkkit plugin (what make build
                                         does); the others are skipped with the reason

add and manifest work for plugins in any language: they only speak the wire protocol.
Manifests are read from $CHUNKKIT_PLUGIN_DIR, the directory of the chunkkit binary, the user's
plugin directory (chunkkit/plugins under the user configuration directory, such as
~/.config/chunkkit/plugins) and the directory of chunkkit on $PATH, in that order.
`

func pluginsCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, pluginsUsage)
		return errUsage
	}
	switch args[0] {
	case "list":
		return pluginsList(stdout)
	case "verify":
		return pluginsVerify(stdout)
	case "add":
		return pluginsAdd(ctx, args[1:], stdout, stderr)
	case "manifest":
		if len(args) != 2 {
			fmt.Fprint(stderr, pluginsUsage)
			return errUsage
		}
		return pluginsManifest(ctx, args[1], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, pluginsUsage)
		return flag.ErrHelp
	}
	fmt.Fprintf(stderr, "chunkkit plugins: unknown subcommand %q\n\n%s", args[0], pluginsUsage)
	return errUsage
}

func pluginsList(stdout io.Writer) error {
	cat, err := host.Discover()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "searched: %s\n", strings.Join(cat.Searched, ", "))
	if len(cat.Plugins) == 0 {
		fmt.Fprintln(stdout, "no plugins found; run make build, or set $CHUNKKIT_PLUGIN_DIR")
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tKINDS\tBINARY\tMANIFEST")
	for _, p := range cat.Plugins {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Name, joinKinds(p.Kinds), p.Path, p.Manifest)
	}
	return tw.Flush()
}

func pluginsVerify(stdout io.Writer) error {
	cat, err := host.Discover()
	if err != nil {
		return err
	}
	failed := 0
	for _, p := range cat.Plugins {
		if err := p.Verify(); err != nil {
			failed++
			fmt.Fprintf(stdout, "FAIL  %s: %v\n", p.Name, err)
			continue
		}
		fmt.Fprintf(stdout, "ok    %s  %s  sha256 %s\n", p.Name, p.Path, p.SHA256[:16]+"…")
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d plugins failed verification", failed, len(cat.Plugins))
	}
	if len(cat.Plugins) == 0 {
		fmt.Fprintln(stdout, "no plugins found; run make build, or set $CHUNKKIT_PLUGIN_DIR")
	}
	return nil
}

func pluginsAdd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("chunkkit plugins add", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "the directory of the manifest; every PATH must be inside it (default: the first PATH's directory)")
	var pluginArgs []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, pluginArgs = args[:i], slices.Clone(args[i+1:])
	}
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	paths := fs.Args()
	if len(paths) == 0 {
		fmt.Fprint(stderr, "chunkkit plugins add: no executable named\n\n"+pluginsUsage)
		return errUsage
	}
	if pluginArgs != nil && len(paths) != 1 {
		fmt.Fprintf(stderr, "chunkkit plugins add: the arguments after -- are for one executable, and %d are named\n\n%s", len(paths), pluginsUsage)
		return errUsage
	}
	if *dir == "" {
		*dir = filepath.Dir(paths[0])
	}
	var entries []host.Entry
	var err error
	if pluginArgs != nil {
		entries, err = host.RegisterWithArgs(ctx, *dir, paths[0], pluginArgs, host.Options{})
	} else {
		entries, err = host.Register(ctx, *dir, paths, host.Options{})
	}
	if err != nil {
		return err
	}
	printEntries(stdout, filepath.Join(*dir, host.ManifestName), entries)
	return nil
}

func pluginsManifest(ctx context.Context, dir string, stdout, stderr io.Writer) error {
	files, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	self, _ := os.Executable()
	var args map[string][]string // binary → args of the manifest being replaced
	if m, err := host.LoadManifest(filepath.Join(dir, host.ManifestName)); err == nil {
		args = make(map[string][]string)
		for _, e := range m.Entries {
			args[e.Binary] = e.Args
		}
	}
	var entries []host.Entry
	for _, f := range files {
		path := filepath.Join(dir, f.Name())
		if !isExecutable(f) || sameFile(path, self) {
			continue
		}
		info, err := host.Inspect(ctx, path, args[f.Name()], host.Options{})
		if err != nil {
			first, _, _ := strings.Cut(err.Error(), "\n")
			fmt.Fprintf(stderr, "skipped %s: not a chunkkit plugin: %s\n", path, first)
			continue
		}
		entries = append(entries, host.Entry{Name: info.Name, Binary: f.Name(), Args: args[f.Name()], Kinds: info.Kinds})
	}
	if len(entries) == 0 {
		return fmt.Errorf("%s holds no executable that answers as a chunkkit plugin", dir)
	}
	if err := host.BuildManifest(dir, entries); err != nil {
		return err
	}
	printEntries(stdout, filepath.Join(dir, host.ManifestName), entries)
	return nil
}

// isExecutable reports whether f is a regular file someone may execute (on Windows, an .exe).
func isExecutable(f os.DirEntry) bool {
	info, err := f.Info()
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	if runtime.GOOS == "windows" {
		return strings.EqualFold(filepath.Ext(f.Name()), ".exe")
	}
	return info.Mode().Perm()&0o111 != 0
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

func printEntries(stdout io.Writer, manifest string, entries []host.Entry) {
	for _, e := range entries {
		fmt.Fprintf(stdout, "%s: %s (%s, %s)\n", manifest, e.Name, e.Binary, joinKinds(e.Kinds))
	}
}

func joinKinds(kinds []plugin.Kind) string {
	s := make([]string, len(kinds))
	for i, k := range kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ",")
}
