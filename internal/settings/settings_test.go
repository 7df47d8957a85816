package settings

import (
	"errors"
	"flag"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the README's settings table from the Go table")

// TestTable: every setting is complete, named once, accepts the empty
// value and refuses its Bad value with an error naming the variable and
// its accepted values (except where refusing needs more than the grammar).
func TestTable(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range All() {
		if !strings.HasPrefix(s.Name, "GOCL_") || seen[s.Name] {
			t.Errorf("%q: not a GOCL_ name, or named twice", s.Name)
		}
		seen[s.Name] = true
		if s.Values == "" || s.Default == "" || s.Option == "" || s.Meaning == "" || s.Bad == "" || s.check == nil {
			t.Errorf("%s: incomplete entry %+v", s.Name, s)
		}
		if err := s.Check(""); err != nil {
			t.Errorf("%s: the empty value: %v", s.Name, err)
		}
		if got, ok := Lookup(s.Name); !ok || got.Name != s.Name {
			t.Errorf("Lookup(%s) = %v, %v", s.Name, got.Name, ok)
		}
		err := s.Check(s.Bad)
		if s.Name == Device || s.Name == GemmTuning {
			continue // the device list, the file: see clblas.TestNewRejectsBadSettings
		}
		var se *Error
		if !errors.As(err, &se) || !strings.Contains(err.Error(), s.Name) || !strings.Contains(err.Error(), s.Values) {
			t.Errorf("%s=%q: error %v, want one naming the variable and %q", s.Name, s.Bad, err, s.Values)
		}
	}
	if _, ok := Lookup("GOCL_NOTHING"); ok {
		t.Error("Lookup found GOCL_NOTHING")
	}
}

// TestWords: the grammar's words, their synonyms, case and space.
func TestWords(t *testing.T) {
	for _, tc := range []struct {
		parse   func(string) (string, error)
		in, out string
		bad     bool
	}{
		{ParseOffload, "", "auto", false},
		{ParseOffload, " Always ", "always", false},
		{ParseOffload, "NEVER", "never", false},
		{ParseOffload, "yes", "", true},
		{ParseTensor, "", "auto", false},
		{ParseTensor, "OFF", "off", false},
		{ParseTensor, "on", "tf32x3", false},
		{ParseTensor, "tf32x3", "tf32x3", false},
		{ParseTensor, "bogus", "", true},
		{ParseSwitch, "", "auto", false},
		{ParseSwitch, " OFF ", "off", false},
		{ParseSwitch, "1", "on", false},
		{ParseSwitch, "false", "off", false},
		{ParseSwitch, "sometimes", "", true},
	} {
		got, err := tc.parse(tc.in)
		if (err != nil) != tc.bad || got != tc.out {
			t.Errorf("%q: %q, %v; want %q (error %v)", tc.in, got, err, tc.out, tc.bad)
		}
	}
	for in, want := range map[string]bool{"": false, "1": true, "TRUE": true, "on": true, "0": false, "off": false} {
		if got, err := ParseBool(in); err != nil || got != want {
			t.Errorf("ParseBool(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseBool("maybe"); err == nil {
		t.Error("ParseBool(maybe): no error")
	}
}

// TestParsePipeline: GOCL_GEMM_PIPELINE's items, alone and combined, and
// the values it refuses.
func TestParsePipeline(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Pipeline
	}{
		{"", Pipeline{}},
		{"auto", Pipeline{}},
		{"off", Pipeline{Off: true}},
		{" ON ", Pipeline{Force: true}},
		{"tile=1024", Pipeline{Tile: 1024}},
		{"on, tile=512", Pipeline{Force: true, Tile: 512}},
		{"never,tile=256", Pipeline{Off: true, Tile: 256}},
		{"slab=off", Pipeline{Slab: -1}},
		{"on,Slab=4", Pipeline{Force: true, Slab: 4}},
		{"on,", Pipeline{Force: true}},
		{"timeline=/tmp/Run 1.log,tile=64", Pipeline{Timeline: "/tmp/Run 1.log", Tile: 64}},
	} {
		got, err := ParsePipeline(c.in)
		if err != nil || got != c.want {
			t.Errorf("%q: %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"tile=0", "tile=x", "slab=-2", "bogus", "on,off", "timeline=", "width=3"} {
		if p, err := ParsePipeline(in); err == nil {
			t.Errorf("%q: %+v, want an error", in, p)
		}
	}
}

// TestRead: Read collects the set values, skips the overridden ones and
// names every invalid value.
func TestRead(t *testing.T) {
	vars := map[string]string{Offload: "never", Tensor: "bogus", ZeroCopy: "sometimes", CacheDir: "/tmp/c"}
	lookup := func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	_, err := Read(lookup)
	if err == nil || !strings.Contains(err.Error(), Tensor) || !strings.Contains(err.Error(), ZeroCopy) {
		t.Errorf("error %v, want one naming %s and %s", err, Tensor, ZeroCopy)
	}
	env, err := Read(lookup, Tensor, ZeroCopy)
	if err != nil {
		t.Fatal(err)
	}
	if env.Get(Offload) != "never" || env.Get(CacheDir) != "/tmp/c" || env.Get(Tensor) != "" || len(env) != 2 {
		t.Errorf("env %v", env)
	}
}

// TestREADME: the README's settings table is Markdown() (go test
// ./internal/settings -update rewrites it).
func TestREADME(t *testing.T) {
	path := filepath.Join("..", "..", "README.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- settings table: generated from internal/settings (go test ./internal/settings -update) -->\n", "<!-- end of settings table -->\n"
	readme := string(b)
	i, j := strings.Index(readme, begin), strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no settings table between %q and %q", begin, end)
	}
	want := Markdown()
	if got := readme[i+len(begin) : j]; got != want {
		if *update {
			if err := os.WriteFile(path, []byte(readme[:i+len(begin)]+want+readme[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("README.md's settings table differs from the Go table; run go test ./internal/settings -update. Want:\n%s", want)
	}
}

// TestLeaf: the package imports nothing of the module, so that every layer
// (cl, platform, the BLAS front end) may use it.
func TestLeaf(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			if strings.Contains(imp.Path.Value, "github.com/gocompute/opencl") {
				t.Errorf("%s imports %s", f, imp.Path.Value)
			}
		}
	}
}
