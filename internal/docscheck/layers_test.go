package docscheck

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// module is the library's module path.
const module = "github.com/gocompute/opencl"

// layers ranks the module's packages (paths relative to the module root):
// a package may import only packages of a lower rank, so nothing imports
// upward and nothing in internal/ imports the front end. A new package
// needs a line here; examples and the tools (cmd/, a module of its own)
// sit above everything and are not checked.
var layers = map[string]int{
	"cl":                0, // the OpenCL binding
	"kernels":           0, // the embedded OpenCL C and its build rules
	"internal/settings": 0, // the GOCL_* table
	"internal/par":      0, // parallel loops for host copies
	"internal/hostlu":   0, // LU's panels on the host's CPU
	"internal/multi":    0, // the multi-device tile scheduler (pure)
	"internal/fuzzrand": 0, // the fuzz targets' byte source (tests)

	"platform":           1, // discovery, runtime, program cache
	"internal/gemm":      1, // the pure GEMM choice and tuning database
	"internal/clblast":   1, // the optional CLBlast comparison
	"internal/docscheck": 1, // tests of the repository itself

	"platform/platformtest": 2, // test devices
	"internal/gemm/profile": 2, // platform.Profile → gemm.Device
	"internal/l12tuning":    2, // the level 1/2 launch shapes' tuning database

	"internal/engine": 3, // the OpenCL half of the BLAS

	"blas":                4, // clblas: the user's API
	"blas/internal/gen32": 4, // the generator of blas's float32 front ends

	"lapack": 5, // the device LAPACK
}

// TestLayers checks the module's import statements against layers.
func TestLayers(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	imports, err := moduleImports(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(imports) < len(layers)/2 {
		t.Fatalf("found only %d packages under %s", len(imports), root)
	}
	for _, v := range layerViolations(imports) {
		t.Error(v)
	}
}

// TestLayerViolations shows the check finds what it must: an upward import,
// an import within a layer, and a package with no layer.
func TestLayerViolations(t *testing.T) {
	got := layerViolations(map[string][]string{
		"internal/engine": {"blas", "kernels"},
		"internal/gemm":   {"platform"},
		"internal/new":    {"cl"},
		"lapack":          {"blas"},
	})
	want := []string{
		"internal/engine (layer 3) imports blas (layer 4)",
		"internal/gemm (layer 1) imports platform (layer 1)",
		"internal/new has no layer",
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, w) }) {
			t.Errorf("no violation %q in %q", w, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %d violations %q, want %d", len(got), got, len(want))
	}
}

// layerViolations returns a sentence for each import in imports (package →
// the module's packages it imports) that layers does not allow.
func layerViolations(imports map[string][]string) []string {
	var out []string
	pkgs := make([]string, 0, len(imports))
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		rp, ok := layers[p]
		if !ok {
			out = append(out, fmt.Sprintf("%s has no layer: add it to layers in internal/docscheck/layers_test.go", p))
			continue
		}
		for _, q := range imports[p] {
			rq, ok := layers[q]
			if ok && rq < rp {
				continue
			}
			if !ok {
				rq = -1
			}
			out = append(out, fmt.Sprintf("%s (layer %d) imports %s (layer %d): a package imports only lower layers", p, rp, q, rq))
		}
	}
	return out
}

// moduleImports reads the import statements of the library's non-test Go
// files under root and returns, for each package (by path relative to
// root), the module's packages it imports. examples/, cmd/, testdata and
// hidden folders are skipped.
func moduleImports(root string) (map[string][]string, error) {
	fset := token.NewFileSet()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			rel, _ := filepath.Rel(root, path)
			if rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" || rel == "cmd" || rel == "examples") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if q, ok := strings.CutPrefix(p, module+"/"); ok && !slices.Contains(out[pkg], q) {
				out[pkg] = append(out[pkg], q)
			}
		}
		return nil
	})
	return out, err
}
