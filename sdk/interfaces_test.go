package sdk_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chunkkit/chunkkit/sdk"
)

// interfaceTypes maps every exported interface of package sdk to its reflect type. The
// reflection test below checks these; the parser test finds the interfaces in the source on
// its own and fails when one is missing here, so a new interface cannot slip past both.
func interfaceTypes() map[string]reflect.Type {
	return map[string]reflect.Type{
		"TokenCounter":     reflect.TypeFor[sdk.TokenCounter](),
		"SentenceSplitter": reflect.TypeFor[sdk.SentenceSplitter](),
		"Chunker":          reflect.TypeFor[sdk.Chunker](),
		"StreamChunker":    reflect.TypeFor[sdk.StreamChunker](),
		"PartChunker":      reflect.TypeFor[sdk.PartChunker](),
		"Budgeted":         reflect.TypeFor[sdk.Budgeted](),
		"Namer":            reflect.TypeFor[sdk.Namer](),
		"Retainer":         reflect.TypeFor[sdk.Retainer](),
		"Retained":         reflect.TypeFor[sdk.Retained](),
		"RangeCounter":     reflect.TypeFor[sdk.RangeCounter](),
	}
}

func TestInterfaceMethodsTakeContextFirst(t *testing.T) {
	t.Parallel()
	ctxType := reflect.TypeFor[context.Context]()
	for name, typ := range interfaceTypes() {
		t.Run(name+" methods with parameters take a context.Context first", func(t *testing.T) {
			t.Parallel()
			if typ.Kind() != reflect.Interface {
				t.Fatalf("%s is a %s, not an interface", name, typ.Kind())
			}
			for i := range typ.NumMethod() {
				m := typ.Method(i)
				if m.Type.NumIn() == 0 {
					continue // a capability such as Budget() or Name()
				}
				if got := m.Type.In(0); got != ctxType {
					t.Errorf("%s.%s takes %s first, want context.Context", name, m.Name, got)
				}
			}
		})
	}
}

func TestSourceInterfacesTakeContextFirst(t *testing.T) {
	t.Parallel()
	found := parseExportedInterfaces(t, ".")
	if len(found) < 3 {
		t.Fatalf("found %d exported interfaces in package sdk, want at least TokenCounter, SentenceSplitter and Chunker", len(found))
	}
	for _, want := range []string{"TokenCounter", "SentenceSplitter", "Chunker"} {
		if _, ok := found[want]; !ok {
			t.Errorf("the parser did not find interface %s", want)
		}
	}
	known := interfaceTypes()
	for name, problems := range found {
		t.Run(name+" is checked and takes a context.Context first", func(t *testing.T) {
			t.Parallel()
			if _, ok := known[name]; !ok {
				t.Errorf("interface %s is missing from interfaceTypes: add it so the reflection test checks it too", name)
			}
			for _, p := range problems {
				t.Error(p)
			}
		})
	}
}

// parseExportedInterfaces parses the non-test Go files in dir and returns each exported
// interface type with the problems of its methods: a method with parameters whose first is
// not context.Context (as the file imports it), or an embedded interface, which the check
// cannot see through.
func parseExportedInterfaces(t *testing.T, dir string) map[string][]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	found := map[string][]string{}
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parse %s: %v", path, err)
		}
		ctxName := contextImportName(f)
		for _, decl := range f.Decls {
			gen, ok := decl.(*ast.GenDecl)
			if !ok || gen.Tok != token.TYPE {
				continue
			}
			for _, spec := range gen.Specs {
				ts := spec.(*ast.TypeSpec)
				it, ok := ts.Type.(*ast.InterfaceType)
				if !ok || !ts.Name.IsExported() {
					continue
				}
				problems := []string{}
				for _, m := range it.Methods.List {
					ft, ok := m.Type.(*ast.FuncType)
					if !ok {
						problems = append(problems, fset.Position(m.Pos()).String()+": "+ts.Name.Name+" embeds "+exprString(m.Type)+"; list its methods instead so this test can check them")
						continue
					}
					params := ft.Params.List
					if len(params) == 0 {
						continue
					}
					if first := params[0].Type; !isSelector(first, ctxName, "Context") {
						problems = append(problems, fset.Position(m.Pos()).String()+": "+ts.Name.Name+"."+m.Names[0].Name+" takes "+exprString(first)+" first, want context.Context")
					}
				}
				found[ts.Name.Name] = problems
			}
		}
	}
	return found
}

// contextImportName returns the name under which f imports package context, or "" when it
// does not.
func contextImportName(f *ast.File) string {
	for _, imp := range f.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path == "context" {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return "context"
		}
	}
	return ""
}

func isSelector(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok || pkg == "" {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg && sel.Sel.Name == name
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	case *ast.StarExpr:
		return "*" + exprString(e.X)
	case *ast.ArrayType:
		return "[]" + exprString(e.Elt)
	}
	return reflect.TypeOf(e).String()
}

func TestParserCheckCatchesAMethodWithoutContext(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := `package bad

import stdctx "context"

type Good interface {
	Do(ctx stdctx.Context, n int) error
	Name() string
}

type Bad interface {
	Do(n int, ctx stdctx.Context) error
}

type Embeds interface {
	Good
}

type unexported interface{ Do(n int) }
`
	if err := os.WriteFile(filepath.Join(dir, "bad.go"), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	found := parseExportedInterfaces(t, dir)
	got := slices.Sorted(maps.Keys(found))
	if want := []string{"Bad", "Embeds", "Good"}; !slices.Equal(got, want) {
		t.Errorf("interfaces = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		name         string
		iface        string
		wantProblems int
	}{
		{"context first under another import name passes", "Good", 0},
		{"context second fails", "Bad", 1},
		{"an embedded interface fails", "Embeds", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := len(found[tc.iface]); got != tc.wantProblems {
				t.Errorf("%s: %d problems %q, want %d", tc.iface, got, found[tc.iface], tc.wantProblems)
			}
		})
	}
}
