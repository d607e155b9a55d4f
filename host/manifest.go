package host

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/chunkkit/chunkkit/sdk"
	"github.com/chunkkit/chunkkit/sdk/plugin"
)

// ManifestName is the name of the manifest WriteManifest and BuildManifest write. Discovery
// reads every file matching ManifestPattern, which includes it.
const ManifestName = "chunkkit.plugins.json"

// ManifestPattern matches the manifest files discovery reads in a directory, so that a vendor
// can drop acme.plugins.json beside chunkkit.plugins.json.
const ManifestPattern = "*.plugins.json"

// ManifestVersion is the version of the manifest format this package reads and writes. A
// manifest without a "version" field is version 1.
const ManifestVersion = 1

// Entry is one plugin as a manifest lists it.
type Entry struct {
	// Name is what specs call the plugin ("plugin:NAME:ARG"): a letter or digit followed by
	// letters, digits, '.', '_' or '-'. Names are unique within a manifest.
	Name string `json:"name"`
	// Binary is the plugin's executable, a slash-separated path relative to the manifest's
	// directory and inside it (no ".." element), so that a folder of plugins can be copied
	// whole. The host also refuses a binary that resolves outside the folder through a
	// symlink.
	Binary string `json:"binary"`
	// SHA256 is the lowercase hex SHA-256 of the binary; the host refuses to start a binary
	// whose checksum differs. BuildManifest fills it.
	SHA256 string `json:"sha256"`
	// Args are the command-line arguments the plugin is started with.
	Args []string `json:"args,omitempty"`
	// Kinds lists the services the plugin offers: plugin.KindTokenizer ("tokenizer", for
	// Host.TokenCounter), plugin.KindSentence ("sentence", for Host.SentenceSplitter).
	Kinds []plugin.Kind `json:"kinds"`
	// Env names the host's environment variables the plugin gets besides the few every
	// plugin gets (PATH, HOME, the locale; see docs/reference/host.md): names such as
	// "HF_HOME", each a letter or '_' followed by letters, digits or '_', listed once. Names
	// the host sets itself (TMPDIR, CHUNKKIT_PLUGIN, PLUGIN_*) are refused.
	Env []string `json:"env,omitempty"`
}

// Manifest is a manifest file as read by LoadManifest.
type Manifest struct {
	// Path is the absolute path of the file.
	Path string
	// Version is the format version, ManifestVersion.
	Version int
	// Entries are the plugins it lists, in file order.
	Entries []Entry
}

// Plugins returns the manifest's entries with their binaries resolved against the manifest's
// directory.
func (m *Manifest) Plugins() []Plugin {
	dir := filepath.Dir(m.Path)
	out := make([]Plugin, len(m.Entries))
	for i, e := range m.Entries {
		out[i] = Plugin{
			Name:     e.Name,
			Path:     filepath.Join(dir, filepath.FromSlash(e.Binary)),
			SHA256:   e.SHA256,
			Args:     slices.Clone(e.Args),
			Kinds:    slices.Clone(e.Kinds),
			Env:      slices.Clone(e.Env),
			Manifest: m.Path,
		}
	}
	return out
}

// ManifestError says which manifest is wrong, where, and how. It matches
// sdk.ErrInvalidConfig, and unwraps to the cause, if any (a *json.SyntaxError, an
// *fs.PathError, ...).
type ManifestError struct {
	// File is the manifest's path.
	File string
	// Field locates the problem, such as "plugins[2].sha256"; empty for the file as a whole.
	Field string
	// Problem says what is wrong.
	Problem string
	// Err is the underlying error, or nil.
	Err error
}

func (e *ManifestError) Error() string {
	s := "host: manifest " + e.File
	if e.Field != "" {
		s += ": " + e.Field
	}
	return s + ": " + e.Problem
}

// Unwrap returns the underlying error and sdk.ErrInvalidConfig.
func (e *ManifestError) Unwrap() []error {
	if e.Err == nil {
		return []error{sdk.ErrInvalidConfig}
	}
	return []error{sdk.ErrInvalidConfig, e.Err}
}

// LoadManifest reads and validates the manifest at path. Any problem is a *ManifestError
// that names the file and the field: invalid JSON (with line and column), an unknown field, a
// field of the wrong type, a missing or malformed name, binary, sha256 or kinds, a duplicate
// name, or an unsupported version; a manifest, or a folder holding it, that users other
// than you and root can write to. LoadManifest does not look at the binaries; Plugin.Verify
// does.
func LoadManifest(path string) (*Manifest, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, &ManifestError{File: path, Problem: err.Error(), Err: err}
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, &ManifestError{File: abs, Problem: "cannot read: " + err.Error(), Err: err}
	}
	defer f.Close()
	if err := manifestWriters(abs, f); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, &ManifestError{File: abs, Problem: "cannot read: " + err.Error(), Err: err}
	}
	return parseManifest(abs, data)
}

// manifestWriters refuses a manifest, or a folder holding it, that others can write to (see
// othersCannotWrite): anyone of them could make it run any binary.
func manifestWriters(file string, f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return &ManifestError{File: file, Problem: "cannot read: " + err.Error(), Err: err}
	}
	check := func(path string, fi os.FileInfo, owned bool) error {
		if problem := othersCanWrite(path, fi, owned); problem != "" {
			return &ManifestError{File: file, Problem: problem, Err: fs.ErrPermission}
		}
		return nil
	}
	if err := check(file, fi, true); err != nil {
		return err
	}
	for d := filepath.Dir(file); ; d = filepath.Dir(d) {
		di, err := os.Stat(d)
		if err != nil {
			return &ManifestError{File: file, Problem: "cannot read its folder: " + err.Error(), Err: err}
		}
		if err := check(d, di, d == filepath.Dir(file)); err != nil {
			return err
		}
		if d == filepath.Dir(d) {
			return nil
		}
	}
}

// parseManifest decodes data field by field, so that every error can say where it is.
func parseManifest(file string, data []byte) (*Manifest, error) {
	p := parser{file: file}
	var top map[string]json.RawMessage
	if err := p.decode("", data, &top, "an object"); err != nil {
		return nil, err
	}
	if top == nil {
		return nil, p.errorf("", "want an object, got null")
	}
	for _, k := range sortedKeys(top) {
		if k != "version" && k != "plugins" {
			return nil, p.errorf(k, "unknown field (known: version, plugins)")
		}
	}
	m := &Manifest{Path: file, Version: ManifestVersion}
	if raw, ok := top["version"]; ok {
		if err := p.decode("version", raw, &m.Version, "an integer"); err != nil {
			return nil, err
		}
		if m.Version != ManifestVersion {
			return nil, p.errorf("version", "unsupported version %d (this host reads version %d)", m.Version, ManifestVersion)
		}
	}
	raw, ok := top["plugins"]
	if !ok {
		return nil, p.errorf("plugins", "missing (want a list of plugins, possibly empty)")
	}
	var list []json.RawMessage
	if err := p.decode("plugins", raw, &list, "a list"); err != nil {
		return nil, err
	}
	seen := make(map[string]int)
	for i, raw := range list {
		at := "plugins[" + strconv.Itoa(i) + "]"
		e, err := p.entry(at, raw)
		if err != nil {
			return nil, err
		}
		if j, dup := seen[e.Name]; dup {
			return nil, p.errorf(at+".name", "%q is also the name of plugins[%d]", e.Name, j)
		}
		seen[e.Name] = i
		m.Entries = append(m.Entries, e)
	}
	return m, nil
}

// parser reports errors against one manifest file.
type parser struct{ file string }

func (p parser) errorf(field, format string, args ...any) error {
	return &ManifestError{File: p.file, Field: field, Problem: fmt.Sprintf(format, args...)}
}

// decode unmarshals raw into dst; want describes dst's JSON type for the error message.
func (p parser) decode(field string, raw json.RawMessage, dst any, want string) error {
	err := json.Unmarshal(raw, dst)
	if err == nil {
		return nil
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		line, col := position(raw, syn.Offset)
		return &ManifestError{File: p.file, Field: field, Err: err,
			Problem: fmt.Sprintf("invalid JSON at line %d, column %d: %v", line, col, err)}
	}
	return &ManifestError{File: p.file, Field: field, Err: err,
		Problem: fmt.Sprintf("want %s, got %s", want, jsonType(raw))}
}

// entry decodes and validates one element of "plugins".
func (p parser) entry(at string, raw json.RawMessage) (Entry, error) {
	var fields map[string]json.RawMessage
	if err := p.decode(at, raw, &fields, "an object"); err != nil {
		return Entry{}, err
	}
	if fields == nil {
		return Entry{}, p.errorf(at, "want an object, got null")
	}
	var e Entry
	targets := map[string]struct {
		dst  any
		want string
	}{
		"name":   {&e.Name, "a string"},
		"binary": {&e.Binary, "a string"},
		"sha256": {&e.SHA256, "a string"},
		"args":   {&e.Args, "a list of strings"},
		"kinds":  {&e.Kinds, "a list of strings"},
		"env":    {&e.Env, "a list of strings"},
	}
	for _, k := range sortedKeys(fields) {
		t, ok := targets[k]
		if !ok {
			return Entry{}, p.errorf(at+"."+k, "unknown field (known: name, binary, sha256, args, kinds, env)")
		}
		if err := p.decode(at+"."+k, fields[k], t.dst, t.want); err != nil {
			return Entry{}, err
		}
	}
	if err := validateEntry(p, at, &e, true); err != nil {
		return Entry{}, err
	}
	return e, nil
}

// validateEntry checks e and normalises its checksum to lowercase. needSum is false for
// BuildManifest's input, whose checksums are not computed yet.
func validateEntry(p parser, at string, e *Entry, needSum bool) error {
	if e.Name == "" {
		return p.errorf(at+".name", "missing")
	}
	if !validName(e.Name) {
		return p.errorf(at+".name", "%q: want a letter or digit followed by letters, digits, '.', '_' or '-'", e.Name)
	}
	if err := validBinary(p, at+".binary", e.Binary); err != nil {
		return err
	}
	for i, a := range e.Args {
		if strings.IndexByte(a, 0) >= 0 {
			return p.errorf(fmt.Sprintf("%s.args[%d]", at, i), "%q holds a NUL byte, which no argument can", a)
		}
	}
	for i, k := range e.Env {
		field := fmt.Sprintf("%s.env[%d]", at, i)
		switch {
		case !validEnvName(k):
			return p.errorf(field, "%q: want a letter or '_' followed by letters, digits or '_'", k)
		case reservedEnv(k) || k == plugin.MagicCookieKey:
			return p.errorf(field, "%q is set by the host itself", k)
		case slices.Index(e.Env, k) != i:
			return p.errorf(field, "%q listed twice", k)
		}
	}
	if needSum || e.SHA256 != "" {
		sum := strings.ToLower(e.SHA256)
		if sum == "" {
			return p.errorf(at+".sha256", "missing")
		}
		if b, err := hex.DecodeString(sum); err != nil || len(b) != sha256.Size {
			return p.errorf(at+".sha256", "%q: want 64 hex digits", e.SHA256)
		}
		e.SHA256 = sum
	}
	if len(e.Kinds) == 0 {
		return p.errorf(at+".kinds", "missing; want %q, %q or both", plugin.KindTokenizer, plugin.KindSentence)
	}
	for i, k := range e.Kinds {
		if _, err := plugin.ParseKind(string(k)); err != nil {
			return p.errorf(fmt.Sprintf("%s.kinds[%d]", at, i), "unknown kind %q; want %q or %q", k, plugin.KindTokenizer, plugin.KindSentence)
		}
		if slices.Index(e.Kinds, k) != i {
			return p.errorf(fmt.Sprintf("%s.kinds[%d]", at, i), "%q listed twice", k)
		}
	}
	return nil
}

// validBinary checks a manifest's binary: a relative, slash-separated path that stays inside
// the manifest's folder.
func validBinary(p parser, field, b string) error {
	switch {
	case b == "":
		return p.errorf(field, "missing")
	case filepath.IsAbs(b) || strings.HasPrefix(b, "/") || strings.HasPrefix(b, `\`) || filepath.VolumeName(b) != "":
		return p.errorf(field, "%q is absolute; want a path relative to the manifest's directory, inside it", b)
	case strings.IndexByte(b, 0) >= 0:
		return p.errorf(field, "%q holds a NUL byte", b)
	case strings.HasSuffix(b, "/"):
		return p.errorf(field, "%q names a folder; want the binary's path", b)
	}
	for elem := range strings.SplitSeq(filepath.ToSlash(b), "/") {
		if elem == ".." {
			return p.errorf(field, "%q leaves the manifest's folder; want a path inside it (no \"..\"), so that the folder can be copied whole", b)
		}
	}
	if path.Clean(filepath.ToSlash(b)) == "." {
		return p.errorf(field, "%q names the manifest's folder itself; want the binary's path inside it", b)
	}
	return nil
}

// validEnvName reports whether k is a portable environment variable name.
func validEnvName(k string) bool {
	for i, r := range k {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return k != ""
}

// validName reports whether name can appear in a spec: no colon, no white space.
func validName(name string) bool {
	for i, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case i > 0 && (r == '.' || r == '_' || r == '-'):
		default:
			return false
		}
	}
	return name != ""
}

// WriteManifest validates entries and writes them to dir/chunkkit.plugins.json, replacing the
// file atomically. Every entry needs its SHA256; BuildManifest computes them. Invalid entries
// give a *ManifestError naming the file and the field.
func WriteManifest(dir string, entries []Entry) error {
	file := filepath.Join(dir, ManifestName)
	p := parser{file: file}
	out := make([]Entry, len(entries))
	seen := make(map[string]int)
	for i, e := range entries {
		at := "plugins[" + strconv.Itoa(i) + "]"
		e.Args = slices.Clone(e.Args)
		e.Kinds = slices.Clone(e.Kinds)
		e.Env = slices.Clone(e.Env)
		if err := validateEntry(p, at, &e, true); err != nil {
			return err
		}
		if j, dup := seen[e.Name]; dup {
			return p.errorf(at+".name", "%q is also the name of plugins[%d]", e.Name, j)
		}
		seen[e.Name] = i
		out[i] = e
	}
	data, err := json.MarshalIndent(struct {
		Version int     `json:"version"`
		Plugins []Entry `json:"plugins"`
	}{ManifestVersion, out}, "", "  ")
	if err != nil {
		return fmt.Errorf("host: manifest %s: %w", file, err)
	}
	return writeFileAtomic(file, append(data, '\n'))
}

// BuildManifest computes the SHA-256 of every entry's binary (relative to dir) and writes the
// manifest with WriteManifest. A release build calls it after placing the plugin binaries in
// dir; entries' own SHA256 values are ignored.
func BuildManifest(dir string, entries []Entry) error {
	filled := make([]Entry, len(entries))
	for i, e := range entries {
		if validBinary(parser{}, "", e.Binary) != nil {
			// Let WriteManifest report the field.
			filled[i] = e
			continue
		}
		sum, err := FileSHA256(filepath.Join(dir, filepath.FromSlash(e.Binary)))
		if err != nil {
			return &ManifestError{File: filepath.Join(dir, ManifestName), Field: "plugins[" + strconv.Itoa(i) + "].binary",
				Problem: fmt.Sprintf("plugin %q: %v", e.Name, err), Err: err}
		}
		e.SHA256 = sum
		filled[i] = e
	}
	return WriteManifest(dir, filled)
}

// FileSHA256 returns the lowercase hex SHA-256 of the file at path.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// writeFileAtomic writes data to a temporary file beside file and renames it into place, so a
// reader never sees half a manifest.
func writeFileAtomic(file string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), ".chunkkit-manifest-*")
	if err != nil {
		return fmt.Errorf("host: writing manifest %s: %w", file, err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o644)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("host: writing manifest %s: %w", file, err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("host: writing manifest %s: %w", file, err)
	}
	return nil
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1)
	if col == 0 {
		col = 1
	}
	return line, col
}

// jsonType names the JSON type of raw, for error messages.
func jsonType(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	if bytes.ContainsAny(raw, ".eE") {
		return "the number " + string(raw)
	}
	return "the integer " + string(raw)
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
