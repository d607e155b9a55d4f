package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/chunkkit/chunkkit/host"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// firstParty lists the plugin binaries this repository builds, for `plugins manifest`.
var firstParty = []host.Entry{
	{Name: "tiktoken", Binary: "chunkkit-tiktoken", Kinds: []plugin.Kind{plugin.KindTokenizer}},
	{Name: "hftokenizer", Binary: "chunkkit-hftokenizer", Kinds: []plugin.Kind{plugin.KindTokenizer}},
	{Name: "sentence", Binary: "chunkkit-sentence", Kinds: []plugin.Kind{plugin.KindSentence}},
}

const pluginsUsage = `Usage:
  chunkkit plugins list             the plugins the manifests name, where they were found
  chunkkit plugins verify           check every plugin binary against its manifest's SHA-256
  chunkkit plugins manifest DIR     write DIR/chunkkit.plugins.json for the chunkkit plugin
                                    binaries in DIR (what make build does)

Manifests are read from $CHUNKKIT_PLUGIN_DIR, then from the directory of the chunkkit binary.
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
	case "manifest":
		if len(args) != 2 {
			fmt.Fprint(stderr, pluginsUsage)
			return errUsage
		}
		return pluginsManifest(args[1], stdout)
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

func pluginsManifest(dir string, stdout io.Writer) error {
	var entries []host.Entry
	for _, e := range firstParty {
		if _, err := os.Stat(filepath.Join(dir, e.Binary)); errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			return err
		}
		entries = append(entries, e)
	}
	if len(entries) == 0 {
		return fmt.Errorf("%s holds no chunkkit plugin binary (looked for chunkkit-tiktoken, chunkkit-hftokenizer, chunkkit-sentence)", dir)
	}
	if err := host.BuildManifest(dir, entries); err != nil {
		return err
	}
	for _, e := range entries {
		fmt.Fprintf(stdout, "%s: %s (%s)\n", filepath.Join(dir, "chunkkit.plugins.json"), e.Name, e.Binary)
	}
	return nil
}

func joinKinds(kinds []plugin.Kind) string {
	s := make([]string, len(kinds))
	for i, k := range kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ",")
}
