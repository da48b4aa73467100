package mcpserver

import (
	"bytes"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	corePath = "github.com/cairn-dev/cairn/internal/mcpserver"
	toolPath = corePath + "/tool"
	// maxPackageLines bounds a package's product code (tests left out), so
	// that a change reads one toolset, not the whole surface.
	maxPackageLines = 4000
)

// TestLayout: the core serves the toolsets, the toolsets declare their
// tools with the toolkit, and the toolkit knows neither. A toolset that
// needs another's code finds it in the toolkit, so each can change alone.
func TestLayout(t *testing.T) {
	var dirs []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), "__")) {
			return filepath.SkipDir
		}
		if d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	toolsets := 0
	for _, dir := range dirs {
		pkg, err := build.ImportDir(dir, 0)
		if err != nil {
			continue // no Go files
		}
		self := corePath
		if dir != "." {
			self += "/" + filepath.ToSlash(dir)
		}
		if strings.HasPrefix(self, corePath+"/toolsets/") {
			toolsets++
		}
		for _, imp := range pkg.Imports {
			if imp != corePath && !strings.HasPrefix(imp, corePath+"/") {
				continue
			}
			switch {
			case self == corePath: // the core assembles everything
			case self == toolPath:
				t.Errorf("%s imports %s: the toolkit knows no server and no toolset", self, imp)
			case imp != toolPath:
				t.Errorf("%s imports %s: a toolset uses the toolkit only", self, imp)
			}
		}
		lines := 0
		for _, f := range pkg.GoFiles {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			lines += bytes.Count(b, []byte("\n"))
		}
		if lines > maxPackageLines {
			t.Errorf("%s has %d lines of product code, over %d: split it", self, lines, maxPackageLines)
		}
	}
	if toolsets == 0 {
		t.Error("found no toolset packages under toolsets/")
	}
}
