package docscheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUserModuleDeps: a module that uses the library lists no more
// modules in go list -m all than one that uses gonum alone, but for the
// library itself and what it imports (golang.org/x/sync, and purego and
// golang.org/x/sys, which load OpenCL at run time): the tools' dependencies (the
// progress bar and its terminal packages) stay out, because cmd/ is a
// module of its own. (gonum's go.mod brings gonum/plot and its fonts into
// every gonum user's list.)
func TestUserModuleDeps(t *testing.T) {
	libraryNeeds := map[string]bool{
		"github.com/gocompute/opencl":  true,
		"golang.org/x/sync":            true,
		"github.com/ebitengine/purego": true,
		"golang.org/x/sys":             true,
	}
	if testing.Short() {
		t.Skip("runs the go command on scratch modules")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	withLib := listModules(t, "require github.com/gocompute/opencl v0.0.0\n\nreplace github.com/gocompute/opencl => "+root+"\n", `package main

import (
	"gonum.org/v1/gonum/blas/blas64"

	clblas "github.com/gocompute/opencl/blas"
)

func main() {
	impl, err := clblas.New()
	if err != nil {
		panic(err)
	}
	blas64.Use(impl)
}
`)
	gonumOnly := listModules(t, "", `package main

import (
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
)

func main() { blas64.Use(gonum.Implementation{}) }
`)
	for path := range withLib {
		if gonumOnly[path] || path == "example.com/user" {
			continue
		}
		if !libraryNeeds[path] {
			t.Errorf("a user of the library lists %s, which a user of gonum alone does not", path)
		}
	}
	if !withLib["github.com/gocompute/opencl"] {
		t.Errorf("the library itself is not listed: %v", withLib)
	}
}

// listModules makes a module with the given go.mod requirements and
// main.go, tidies it, and returns the module paths go list -m all gives.
func listModules(t *testing.T, requires, main string) map[string]bool {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":  "module example.com/user\n\ngo 1.24\n\n" + requires,
		"main.go": main,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gocmd := func(args ...string) string {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	gocmd("mod", "tidy")
	mods := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(gocmd("list", "-m", "all")), "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			mods[f[0]] = true
		}
	}
	return mods
}
