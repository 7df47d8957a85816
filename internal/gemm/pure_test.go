package gemm

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPure: package gemm imports no OpenCL package (nor anything above
// it), so the choice can be tested and used without a device.
func TestPure(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{
		"github.com/gocompute/opencl/internal/settings": true,
		"github.com/gocompute/opencl/kernels":           true,
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/gocompute/opencl/") && !allowed[path] {
				t.Errorf("%s imports %s", f, path)
			}
			if path == "C" {
				t.Errorf("%s uses cgo", f)
			}
		}
	}
}
