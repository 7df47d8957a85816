// Package docscheck holds tests of the module's documentation.
package docscheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeSnippetsAreCompiled: every Go snippet in the README is a run
// of lines of some test file (an Example, mostly), so that it compiles and
// runs in CI. Lines are compared with their indentation trimmed, and blank
// lines are ignored.
func TestReadmeSnippetsAreCompiled(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	snippets := goSnippets(string(readme))
	if len(snippets) == 0 {
		t.Fatal("no Go snippets found in README.md")
	}
	var sources [][]string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, "_test.go") {
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sources = append(sources, normalise(string(b)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, sn := range snippets {
		lines := normalise(sn)
		found := false
		for _, src := range sources {
			if contains(src, lines) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("README snippet is in no test file:\n%s", sn)
		}
	}
}

// goSnippets returns the bodies of the ```go blocks of a Markdown text.
func goSnippets(md string) []string {
	var out []string
	var cur []string
	in := false
	for _, l := range strings.Split(md, "\n") {
		switch {
		case !in && strings.TrimSpace(l) == "```go":
			in, cur = true, nil
		case in && strings.TrimSpace(l) == "```":
			in = false
			out = append(out, strings.Join(cur, "\n"))
		case in:
			cur = append(cur, l)
		}
	}
	return out
}

func normalise(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// contains reports whether want is a contiguous run of lines of src.
func contains(src, want []string) bool {
	for i := 0; i+len(want) <= len(src); i++ {
		j := 0
		for j < len(want) && src[i+j] == want[j] {
			j++
		}
		if j == len(want) {
			return true
		}
	}
	return false
}

func TestContains(t *testing.T) {
	src := []string{"a", "b", "c"}
	if !contains(src, []string{"b", "c"}) || contains(src, []string{"a", "c"}) || contains(src, []string{"c", "d"}) {
		t.Error("contains")
	}
	if got := goSnippets("x\n```go\nfoo\n```\n```sh\nbar\n```\n"); len(got) != 1 || got[0] != "foo" {
		t.Errorf("goSnippets = %q", got)
	}
}
