package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// anyExternal in a rule's allowOnly list allows any import from outside the module and the
// standard library, such as an adapter's parsing library.
const anyExternal = "<any module outside chunkkit>"

// rule is one row of the dependency rules. Paths inside the module are written relative to
// the module ("sdk/serve"), paths outside it in full ("google.golang.org/grpc"). A prefix
// matches itself and everything below it ("sdk" matches "sdk" and "sdk/chunkers"); a prefix
// that starts with "*/" matches that path segment anywhere ("*/cmd" matches "cmd/chunkkit"
// and "plugins/tiktoken/cmd/chunkkit-tiktoken"); "" matches every package of the module.
type rule struct {
	// name reads as a sentence in test output.
	name string
	// packages and except choose the module packages the rule applies to.
	packages, except []string
	// allowOnly, when not nil, lists the only prefixes a package may import directly
	// besides the standard library.
	allowOnly []string
	// forbid lists prefixes that may not appear anywhere among a package's dependencies,
	// direct or not.
	forbid []string
}

const (
	grpc     = "google.golang.org/grpc"
	goPlugin = "github.com/hashicorp/go-plugin"
	// uax29Words is the word segmenter behind sdk/wordbreak.
	uax29Words = "github.com/clipperhouse/uax29/v2/words"
	// beamSDK is Apache Beam's Go SDK, which only the nested module beam/ requires.
	beamSDK = "github.com/apache/beam"
)

// rules returns DESIGN.md's import rules. Test files are exempt: a test may run a plugin's
// counter in-process beside its out-of-process twin.
func rules() []rule {
	return []rule{
		{
			name:      "sdk packages import only the standard library and sdk, and pull in no RPC stack",
			packages:  []string{"sdk"},
			except:    []string{"sdk/serve", "sdk/wordbreak"},
			allowOnly: []string{"sdk"},
			forbid:    []string{"sdk/serve", grpc, goPlugin},
		},
		// Cutting between words needs UAX #29 word boundaries; a segmenter with no
		// dependencies of its own is no RPC stack, and it stays behind this one package.
		{
			name:      "sdk/wordbreak imports only the UAX #29 word segmenter",
			packages:  []string{"sdk/wordbreak"},
			allowOnly: []string{uax29Words},
			forbid:    []string{"sdk/serve", grpc, goPlugin},
		},
		{
			name:      "the plugin contract imports only the standard library and sdk",
			packages:  []string{"sdk/plugin"},
			allowOnly: []string{"sdk"},
			forbid:    []string{"internal", grpc, goPlugin},
		},
		{
			name:     "the plugin side of the glue never depends on the host side",
			packages: []string{"internal/pluginserver", "sdk/serve"},
			except:   []string{"sdk/serve/servetest"},
			forbid:   []string{"internal/pluginclient", "host"},
		},
		{
			name:     "the host side of the glue never depends on the plugin side",
			packages: []string{"internal/pluginclient", "host"},
			except:   []string{"host/hosttest"},
			forbid:   []string{"internal/pluginserver", "sdk/serve"},
		},
		{
			name:     "host never depends on plugins, bench or commands",
			packages: []string{"host"},
			forbid:   []string{"plugins", "bench", "*/cmd"},
		},
		{
			name:      "adapters import only sdk and their own parsing libraries",
			packages:  []string{"adapters"},
			allowOnly: []string{"sdk", "adapters", anyExternal},
			forbid:    []string{"sdk/serve", "host", "plugins", "internal", "bench", "*/cmd", grpc, goPlugin},
		},
		{
			name:      "the conformance kit imports only the standard library, sdk and go-cmp",
			packages:  []string{"conformance"},
			allowOnly: []string{"sdk", "conformance", "github.com/google/go-cmp"},
			forbid:    []string{"sdk/serve", grpc, goPlugin},
		},
		{
			name:     "the pipeline package takes a chunker: it never depends on host, plugins, bench, commands or an RPC stack",
			packages: []string{"pipeline"},
			forbid:   []string{"host", "plugins", "bench", "*/cmd", "sdk/serve", grpc, goPlugin},
		},
		{
			name:     "plugins never depend on host or bench",
			packages: []string{"plugins"},
			forbid:   []string{"host", "bench"},
		},
		{
			name:     "internal packages never depend on host, plugins, adapters, bench or commands",
			packages: []string{"internal"},
			forbid:   []string{"host", "plugins", "adapters", "bench", "*/cmd"},
		},
		// DESIGN.md says nothing imports bench, and also that cmd/chunkkit may import
		// anything and runs `chunkkit bench`: the command line is the one exception, and so
		// are the developer programs under tools/ that drive the bench (tools/heading-eval
		// builds the heading-rich evaluation set with its scorer); nothing imports them either.
		{
			name:     "nothing but bench itself, the chunkkit command and tools depends on bench",
			packages: []string{""},
			except:   []string{"bench", "cmd", "tools"},
			forbid:   []string{"bench"},
		},
		// The Beam transform is a nested module (beam/) so that users who chunk in-process
		// never pull in Beam's dependencies; TestRootModuleRequiresNoBeam checks the module graph.
		{
			name:     "no package of the root module depends on Apache Beam",
			packages: []string{""},
			forbid:   []string{beamSDK},
		},
		{
			name:     "nothing depends on a command package",
			packages: []string{""},
			except:   []string{"*/cmd"},
			forbid:   []string{"*/cmd"},
		},
	}
}

// pkg is the part of `go list -json` output the rules read.
type pkg struct {
	ImportPath string
	Standard   bool
	Module     *struct {
		Path string
		Main bool
	}
	Imports []string
	Deps    []string
	Error   *struct{ Err string }
}

func TestImportRules(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is not on PATH, so the import rules cannot be checked: %v", err)
	}
	const root = "../.."
	watchSources(t, root)
	cmd := exec.Command(goCmd, "list", "-e", "-deps", "-json", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps -json ./...: %v\n%s", err, stderr.Bytes())
	}
	module, pkgs, err := decodePackages(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := pkgs[module+"/sdk"]; !ok {
		t.Fatalf("go list did not report %s/sdk: the listing is not of this repository", module)
	}
	for _, p := range pkgs {
		if p.Error != nil && !p.Standard {
			// Another package may be half-written right now: its imports still count.
			t.Logf("go list: %s: %s", p.ImportPath, p.Error.Err)
		}
	}
	for _, r := range rules() {
		t.Run(r.name, func(t *testing.T) {
			for _, v := range r.violations(module, pkgs) {
				t.Error(v)
			}
		})
	}
}

// watchSources looks at every directory, Go file and go.mod under root. The go command caches
// a test's result keyed on the files the test itself opens; go list reads the sources in
// another process, so without this a cached pass would hide a new forbidden import.
func watchSources(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") || d.Name() == "go.mod" {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatalf("walking the sources: %v", err)
	}
}

// decodePackages reads a stream of `go list -json` objects and returns the main module's path
// and every package by import path.
func decodePackages(data []byte) (string, map[string]*pkg, error) {
	pkgs := map[string]*pkg{}
	module := ""
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		p := new(pkg)
		if err := dec.Decode(p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return "", nil, fmt.Errorf("decoding go list output: %w", err)
		}
		pkgs[p.ImportPath] = p
		if p.Module != nil && p.Module.Main {
			module = p.Module.Path
		}
	}
	if module == "" {
		return "", nil, errors.New("go list reported no package of the main module")
	}
	return module, pkgs, nil
}

// violations returns what breaks r in the module's packages, sorted.
func (r rule) violations(module string, pkgs map[string]*pkg) []string {
	var out []string
	for _, p := range pkgs {
		if p.Module == nil || p.Module.Path != module {
			continue
		}
		name := relative(module, p.ImportPath)
		if !matchesAny(name, r.packages) || matchesAny(name, r.except) {
			continue
		}
		if r.allowOnly != nil {
			for _, imp := range p.Imports {
				if !r.allows(module, imp, pkgs) {
					out = append(out, fmt.Sprintf("%s imports %s, which the rule does not allow", name, relative(module, imp)))
				}
			}
		}
		for _, dep := range p.Deps {
			if d, ok := pkgs[dep]; ok && d.Standard {
				continue
			}
			if matchesPath(module, dep, r.forbid) {
				out = append(out, fmt.Sprintf("%s depends on %s: %s", name, relative(module, dep), strings.Join(importChain(module, p.ImportPath, dep, pkgs), " → ")))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func (r rule) allows(module, imp string, pkgs map[string]*pkg) bool {
	if p, ok := pkgs[imp]; ok && p.Standard || imp == "C" {
		return true
	}
	if !inModule(module, imp) && slices.Contains(r.allowOnly, anyExternal) {
		return true
	}
	return matchesPath(module, imp, r.allowOnly)
}

func inModule(module, path string) bool {
	return path == module || strings.HasPrefix(path, module+"/")
}

// matchesPath reports whether an import path matches one of prefixes, comparing a path in the
// module with the module-relative prefixes and any other path with the full ones, so that
// "internal" never matches the standard library's internal packages.
func matchesPath(module, path string, prefixes []string) bool {
	in := inModule(module, path)
	rel := relative(module, path)
	return slices.ContainsFunc(prefixes, func(prefix string) bool {
		return prefix != anyExternal && isExternal(prefix) != in && matches(rel, prefix)
	})
}

// isExternal reports whether a rule prefix names a path outside the module: its first
// element, like a module path's, holds a dot.
func isExternal(prefix string) bool {
	first, _, _ := strings.Cut(prefix, "/")
	return strings.Contains(first, ".")
}

// relative returns path relative to the module, or path itself when it is outside.
func relative(module, path string) string {
	if path == module {
		return ""
	}
	if rest, ok := strings.CutPrefix(path, module+"/"); ok {
		return rest
	}
	return path
}

func matchesAny(path string, prefixes []string) bool {
	return slices.ContainsFunc(prefixes, func(prefix string) bool { return matches(path, prefix) })
}

func matches(path, prefix string) bool {
	if segment, ok := strings.CutPrefix(prefix, "*/"); ok {
		return slices.Contains(strings.Split(path, "/"), segment)
	}
	return prefix == "" || path == prefix || strings.HasPrefix(path, prefix+"/")
}

// importChain returns the shortest chain of imports from one package to another, with
// module paths shortened, so a violation says how the dependency comes in.
func importChain(module, from, to string, pkgs map[string]*pkg) []string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur == to {
			var chain []string
			for p := to; p != ""; p = prev[p] {
				chain = append(chain, relative(module, p))
			}
			slices.Reverse(chain)
			return chain
		}
		if p, ok := pkgs[cur]; ok {
			for _, imp := range p.Imports {
				if _, seen := prev[imp]; !seen {
					prev[imp] = cur
					queue = append(queue, imp)
				}
			}
		}
	}
	return []string{relative(module, from), "...", relative(module, to)}
}

func TestRulesCatchForbiddenImports(t *testing.T) {
	t.Parallel()
	const m = "example.com/kit"
	type spec struct {
		path    string
		std     bool
		imports []string
	}
	specs := []spec{
		{"context", true, nil},
		{"testing", true, nil},
		{"google.golang.org/grpc", false, []string{"context"}},
		{"github.com/yuin/goldmark", false, nil},
		{"github.com/google/go-cmp/cmp", false, nil},
		{m + "/sdk", false, []string{"context"}},
		{m + "/sdk/chunkers", false, []string{m + "/sdk", m + "/internal/rpc"}},
		{m + "/sdk/serve", false, []string{m + "/sdk", m + "/internal/rpc", "google.golang.org/grpc"}},
		{m + "/internal/rpc", false, []string{"google.golang.org/grpc"}},
		{m + "/host", false, []string{m + "/sdk", m + "/plugins/tiktoken"}},
		{m + "/plugins/tiktoken", false, []string{m + "/sdk/serve"}},
		{m + "/plugins/tiktoken/cmd/tiktoken", false, []string{m + "/plugins/tiktoken"}},
		{m + "/adapters/markdown", false, []string{m + "/sdk", "github.com/yuin/goldmark"}},
		{m + "/adapters/ocr", false, []string{m + "/sdk", m + "/host"}},
		{m + "/conformance", false, []string{m + "/sdk", "testing", "github.com/google/go-cmp/cmp"}},
		{m + "/bench", false, []string{m + "/plugins/tiktoken", m + "/host"}},
		{m + "/cmd/chunkkit", false, []string{m + "/bench"}},
		{m + "/cmd/chunkkit/flags", false, []string{"context"}},
		{m + "/cmd/other", false, []string{m + "/cmd/chunkkit/flags"}},
		{m + "/internal/report", false, []string{m + "/bench"}},
		{m + "/plugins/sentence", false, []string{m + "/host"}},
		{"github.com/apache/beam/sdks/v2/go/pkg/beam", false, []string{"context"}},
		{m + "/adapters/beamio", false, []string{m + "/sdk", "github.com/apache/beam/sdks/v2/go/pkg/beam"}},
		{m + "/tools/gen", false, []string{m + "/plugins/tiktoken/cmd/tiktoken"}},
	}
	pkgs := map[string]*pkg{}
	for _, s := range specs {
		p := &pkg{ImportPath: s.path, Standard: s.std, Imports: s.imports}
		if strings.HasPrefix(s.path, m) {
			p.Module = &struct {
				Path string
				Main bool
			}{m, true}
		}
		pkgs[s.path] = p
	}
	// Deps is the transitive closure of Imports, as go list reports it.
	var closure func(path string, seen map[string]bool)
	closure = func(path string, seen map[string]bool) {
		for _, imp := range pkgs[path].Imports {
			if !seen[imp] {
				seen[imp] = true
				closure(imp, seen)
			}
		}
	}
	for path, p := range pkgs {
		seen := map[string]bool{}
		closure(path, seen)
		for dep := range seen {
			p.Deps = append(p.Deps, dep)
		}
		slices.Sort(p.Deps)
	}
	want := map[string][]string{
		"sdk packages import only the standard library and sdk, and pull in no RPC stack": {
			"sdk/chunkers depends on google.golang.org/grpc: sdk/chunkers → internal/rpc → google.golang.org/grpc",
			"sdk/chunkers imports internal/rpc, which the rule does not allow",
		},
		"host never depends on plugins, bench or commands": {
			"host depends on plugins/tiktoken: host → plugins/tiktoken",
		},
		"adapters import only sdk and their own parsing libraries": {
			"adapters/ocr depends on google.golang.org/grpc: adapters/ocr → host → plugins/tiktoken → sdk/serve → google.golang.org/grpc",
			"adapters/ocr depends on host: adapters/ocr → host",
			"adapters/ocr depends on internal/rpc: adapters/ocr → host → plugins/tiktoken → sdk/serve → internal/rpc",
			"adapters/ocr depends on plugins/tiktoken: adapters/ocr → host → plugins/tiktoken",
			"adapters/ocr depends on sdk/serve: adapters/ocr → host → plugins/tiktoken → sdk/serve",
			"adapters/ocr imports host, which the rule does not allow",
		},
		"the conformance kit imports only the standard library, sdk and go-cmp": nil,
		"the host side of the glue never depends on the plugin side": {
			"host depends on sdk/serve: host → plugins/tiktoken → sdk/serve",
		},
		"plugins never depend on host or bench": {
			"plugins/sentence depends on host: plugins/sentence → host",
		},
		"internal packages never depend on host, plugins, adapters, bench or commands": {
			"internal/report depends on bench: internal/report → bench",
			"internal/report depends on host: internal/report → bench → host",
			"internal/report depends on plugins/tiktoken: internal/report → bench → plugins/tiktoken",
		},
		"nothing but bench itself, the chunkkit command and tools depends on bench": {
			"internal/report depends on bench: internal/report → bench",
		},
		"nothing depends on a command package": {
			"tools/gen depends on plugins/tiktoken/cmd/tiktoken: tools/gen → plugins/tiktoken/cmd/tiktoken",
		},
		// An adapter may import any parsing library, but not Beam: only this rule says so.
		"no package of the root module depends on Apache Beam": {
			"adapters/beamio depends on github.com/apache/beam/sdks/v2/go/pkg/beam: adapters/beamio → github.com/apache/beam/sdks/v2/go/pkg/beam",
		},
	}
	for _, r := range rules() {
		t.Run(r.name, func(t *testing.T) {
			if diff := cmp.Diff(want[r.name], r.violations(m, pkgs)); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMatches(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		path, prefix string
		want         bool
	}{
		{"sdk", "sdk", true},
		{"sdk/chunkers", "sdk", true},
		{"sdkx", "sdk", false},
		{"sdk/serve", "sdk/serve", true},
		{"anything", "", true},
		{"cmd/chunkkit", "*/cmd", true},
		{"plugins/tiktoken/cmd/tiktoken", "*/cmd", true},
		{"plugins/tiktoken/cmdline", "*/cmd", false},
		{"google.golang.org/grpc/codes", "google.golang.org/grpc", true},
	} {
		t.Run(fmt.Sprintf("%q under %q is %v", tc.path, tc.prefix, tc.want), func(t *testing.T) {
			if got := matches(tc.path, tc.prefix); got != tc.want {
				t.Errorf("matches(%q, %q) = %v, want %v", tc.path, tc.prefix, got, tc.want)
			}
		})
	}
}
