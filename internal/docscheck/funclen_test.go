package docscheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the longest a library function may be, in lines from
// its signature to its closing brace: past it a function does more than
// one thing, and a type with methods or a few helpers read better (the
// developers' guide).
const maxFuncLines = 120

// TestFuncLength checks every function and method in the library's
// non-test, non-generated Go files (examples/ and cmd/ are not library)
// against maxFuncLines.
func TestFuncLength(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	long, n, err := longFuncs(root, maxFuncLines)
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("found only %d functions under %s", n, root)
	}
	for _, l := range long {
		t.Error(l)
	}
}

// TestLongFuncsFound shows the check finds a long function.
func TestLongFuncsFound(t *testing.T) {
	dir := t.TempDir()
	body := strings.Repeat("\t_ = 1\n", 5)
	src := "package p\n\nfunc short() {\n" + body + "}\n\nfunc long() {\n" + body + body + "}\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	long, n, err := longFuncs(dir, 8)
	if err != nil || n != 2 || len(long) != 1 || !strings.Contains(long[0], "long is 12 lines") {
		t.Errorf("longFuncs = %q, %d, %v; want long alone, of 12 lines", long, n, err)
	}
}

// longFuncs returns a sentence for each function of more than max lines
// in the Go files under root, and the number of functions seen.
func longFuncs(root string, max int) ([]string, int, error) {
	fset := token.NewFileSet()
	var long []string
	n := 0
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
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			n++
			lines := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			if lines > max {
				rel, _ := filepath.Rel(root, path)
				long = append(long, fmt.Sprintf("%s: %s is %d lines, more than %d: split it", filepath.ToSlash(rel), fd.Name.Name, lines, max))
			}
		}
		return nil
	})
	return long, n, err
}
