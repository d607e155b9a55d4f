package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// Inspect starts the executable at path, with args, as a chunkkit plugin, asks what it is and
// stops it: the plugin's Info with Kinds listing every service it answers Info on. It works for
// a plugin in any language, since it only speaks the wire protocol (docs/protocol.md). The
// binary's checksum is computed first and checked at start, as for a manifest entry, and
// opts bound the start (a nil Logger discards the plugin's logs; it is not restarted).
//
// An executable that is not a chunkkit plugin fails with an error matching sdk.ErrUnavailable
// that says why (the handshake went wrong, it exited); one that answers Info on no service, or
// reports a name a spec cannot use, fails with one matching sdk.ErrBadResponse; one that
// reports another protocol major version, with one matching sdk.ErrUnsupported.
func Inspect(ctx context.Context, path string, args []string, opts Options) (plugin.Info, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return plugin.Info{}, fmt.Errorf("host: inspect %s: %w", path, err)
	}
	sum, err := FileSHA256(abs)
	if err != nil {
		return plugin.Info{}, fmt.Errorf("host: inspect %s: %w", path, err)
	}
	if opts.Logger == nil {
		opts.Logger = hclog.NewNullLogger()
	}
	opts.MaxRestarts = -1
	name := strings.TrimSuffix(filepath.Base(abs), filepath.Ext(abs))
	if !validName(name) {
		name = "plugin"
	}
	// A one-plugin catalog, as if a manifest beside the binary listed it with every kind: the
	// host then starts and checks it exactly as it would a registered plugin.
	h := New(&Catalog{Plugins: []Plugin{{Name: name, Path: abs, SHA256: sum, Args: slices.Clone(args),
		Kinds: plugin.Kinds(), Manifest: filepath.Join(filepath.Dir(abs), ManifestName)}}}, opts)
	defer h.Close()
	var info plugin.Info
	var kinds []plugin.Kind
	var errs []error
	for _, k := range plugin.Kinds() {
		got, err := h.Info(ctx, name, k)
		if err != nil {
			if ctx.Err() != nil || !errors.Is(err, sdk.ErrUnsupported) {
				return plugin.Info{}, err
			}
			errs = append(errs, err)
			continue
		}
		if info.Name == "" {
			info = got
		}
		kinds = append(kinds, k)
	}
	if len(kinds) == 0 {
		return plugin.Info{}, fmt.Errorf("host: inspect %s: it completed the handshake but answers Info on no chunkkit service: %w",
			path, errors.Join(append([]error{sdk.ErrBadResponse}, errs...)...))
	}
	if major, _, _ := strings.Cut(info.ProtocolVersion, "."); major != strconv.Itoa(plugin.ProtocolVersion) {
		return plugin.Info{}, fmt.Errorf("host: inspect %s: it reports protocol version %q; this host speaks %d.x: %w",
			path, info.ProtocolVersion, plugin.ProtocolVersion, sdk.ErrUnsupported)
	}
	if !validName(info.Name) {
		return plugin.Info{}, fmt.Errorf("%w: host: inspect %s: Info reports the name %q, which a spec plugin:NAME cannot use (a letter or digit, then letters, digits, '.', '_' or '-')",
			sdk.ErrBadResponse, path, info.Name)
	}
	info.Kinds = kinds
	return info, nil
}

// Register starts each executable in paths (see Inspect), and adds it to the manifest in dir
// (dir/chunkkit.plugins.json, created if missing) under the name its Info reports, serving the
// kinds it answers on, with its current checksum. An entry of that name, or for that binary,
// is replaced, keeping its args; other entries are kept, with their checksums recomputed. Every
// path must lie inside dir, since a manifest names binaries relative to itself. It returns the
// manifest's entries as written.
func Register(ctx context.Context, dir string, paths []string, opts Options) ([]Entry, error) {
	return register(ctx, dir, paths, nil, opts)
}

// RegisterWithArgs is Register for one executable that is started with args, which replace
// the args of its entry, if it had one.
func RegisterWithArgs(ctx context.Context, dir, path string, args []string, opts Options) ([]Entry, error) {
	if args == nil {
		args = []string{}
	}
	return register(ctx, dir, []string{path}, args, opts)
}

// register is Register; args, when not nil, are the arguments of every path.
func register(ctx context.Context, dir string, paths, newArgs []string, opts Options) ([]Entry, error) {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("host: register in %s: %w", dir, err)
	}
	file := filepath.Join(absDir, ManifestName)
	var entries []Entry
	switch m, err := LoadManifest(file); {
	case err == nil:
		entries = m.Entries
	case errors.Is(err, os.ErrNotExist):
	default:
		return nil, err
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("host: register %s: %w", p, err)
		}
		rel, err := filepath.Rel(absDir, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("host: register %s: it is not inside %s, where the manifest goes (binaries are named relative to their manifest): %w",
				p, absDir, sdk.ErrInvalidConfig)
		}
		binary := filepath.ToSlash(rel)
		// The binary's old entry, if any, keeps what Info does not tell (its args, unless new
		// ones are given, and any other field).
		e := Entry{Binary: binary}
		if i := slices.IndexFunc(entries, func(e Entry) bool { return e.Binary == binary }); i >= 0 {
			e = entries[i]
		}
		if newArgs != nil {
			e.Args = newArgs
		}
		info, err := Inspect(ctx, abs, e.Args, opts)
		if err != nil {
			return nil, err
		}
		e.Name, e.Kinds = info.Name, info.Kinds
		// In place of the first entry of that binary or name, so the manifest keeps its order.
		same := func(old Entry) bool { return old.Name == info.Name || old.Binary == binary }
		if i := slices.IndexFunc(entries, same); i >= 0 {
			entries[i] = e
			entries = append(entries[:i+1], slices.DeleteFunc(entries[i+1:], same)...)
		} else {
			entries = append(entries, e)
		}
	}
	if err := BuildManifest(absDir, entries); err != nil {
		return nil, err
	}
	m, err := LoadManifest(file)
	if err != nil {
		return nil, err
	}
	return m.Entries, nil
}
