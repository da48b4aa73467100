package mcpserver_test

import (
	"context"
	"errors"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/service"
)

// notTools are words shaped like a tool's name (a tool's first word, an
// underscore, more) that the product's sentences use for something else.
var notTools = map[string]string{
	"list_changed":     "MCP's notification capability (tools/list_changed)",
	"draft_confidence": "a key of the [evolution] settings",
}

// toolWord is a word shaped like a tool's name, whose first word is one
// of the tools' (filled in by the test).
var toolWord = regexp.MustCompile(`(?:^|[^\w-])([a-z]+_[a-z][a-z0-9_]*[a-z0-9])(?:$|[^\w-])`)

// TestSentencesNameRealTools: every sentence in the product's source that
// names what looks like a tool (a word such as memory_add_mistake: one of
// the tools' first words, an underscore, more) names a tool the server
// has, one of its arguments, a prompt, or a word notTools explains. An
// agent told to call a tool that does not exist loses a turn finding out:
// the rules the evolution engine drafted said memory_record. A string
// without a space (a key, a tag, an identifier) is not a sentence.
func TestSentencesNameRealTools(t *testing.T) {
	known, verbs := serverNames(t)
	for w := range notTools {
		known[w] = true
	}
	var checked int
	for _, dir := range []string{".", "../service", "../render", "../cli", "../board", "../memory", "../task",
		"../loop", "../lifecycle", "../problem", "../setup", "../serve", "../httpserver", "../app"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "_gen.go") {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			fset := token.NewFileSet()
			var s scanner.Scanner
			s.Init(fset.AddFile(path, -1, len(src)), src, nil, 0)
			for {
				pos, tok, lit := s.Scan()
				if tok == token.EOF {
					break
				}
				if tok != token.STRING {
					continue
				}
				text, err := strconv.Unquote(lit)
				if err != nil || !strings.Contains(text, " ") {
					continue
				}
				checked++
				for _, m := range toolWord.FindAllStringSubmatch(text, -1) {
					w := m[1]
					if verbs[w[:strings.IndexByte(w, '_')]] && !known[w] {
						t.Errorf("%s: %q names %s, which is no tool, argument or prompt of the server (a word that is not a tool goes in notTools, with what it is)", fset.Position(pos), clip(text), w)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 1000 {
		t.Fatalf("read only %d sentences: the walk missed the product's source", checked)
	}
}

// serverNames lists every toolset's tools, their arguments (at any depth)
// and the prompts, over the wire, and the tools' first words.
func serverNames(t *testing.T) (known, verbs map[string]bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv, err := mcpserver.New(mcpserver.Options{Version: "names", Toolsets: []string{"all"},
		Services: func(context.Context) (*service.Set, error) { return nil, errors.New("listing needs no services") }})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, ctx, srv, "names", nil)
	known, verbs = map[string]bool{}, map[string]bool{}
	var props func(v any)
	props = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if p, ok := v["properties"].(map[string]any); ok {
				for k := range p {
					known[k] = true
				}
			}
			for _, x := range v {
				props(x)
			}
		case []any:
			for _, x := range v {
				props(x)
			}
		}
	}
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		known[tool.Name] = true
		if i := strings.IndexByte(tool.Name, '_'); i > 0 {
			verbs[tool.Name[:i]] = true
		}
		props(tool.InputSchema)
		props(tool.OutputSchema)
	}
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		known[p.Name] = true
		for _, a := range p.Arguments {
			known[a.Name] = true
		}
	}
	if len(known) < 100 || len(verbs) < 10 {
		t.Fatalf("the server listed %d names with %d first words", len(known), len(verbs))
	}
	return known, verbs
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
