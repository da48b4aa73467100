package lifecycle

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/cairn-dev/cairn/internal/problem"
)

// FileProblem says where a definition file is malformed, and how.
type FileProblem struct {
	File    string
	Line    int // 0 when unknown
	Problem string
}

func (p FileProblem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Problem)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Problem)
}

// Malformed refuses definition file (at line, 0 when unknown) for
// what; the FileProblem is the Error's Detail.
func Malformed(file string, line int, what string) error {
	p := FileProblem{File: file, Line: line, Problem: what}
	return &problem.Error{Kind: problem.Malformed, Problem: "definition file " + p.String(), Hint: problem.FixDefinition, Detail: p}
}

// FileProblemOf returns where and how the file err refuses is malformed.
func FileProblemOf(err error) (FileProblem, bool) { return problem.DetailOf[FileProblem](err) }

// MaxFileSize bounds a definition file.
const MaxFileSize = 256 << 10

// nameRE is compiled on first use: its counted repetition makes it cost a
// tenth of a millisecond, which every process start would pay.
var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,39}$`) })

// The file format, decoded with the nodes kept for their line numbers.
type fileDef struct {
	Name        string      `yaml:"name"`
	Description string      `yaml:"description"`
	Phases      []yaml.Node `yaml:"phases"`
}

type filePhase struct {
	Name  string      `yaml:"name"`
	Goal  string      `yaml:"goal"`
	Entry []string    `yaml:"entry"`
	Exit  []yaml.Node `yaml:"exit"`
}

type fileCriterion struct {
	ID   string `yaml:"id"`
	Text string `yaml:"text"`
	Gate bool   `yaml:"gate"`
}

// Parse reads one definition from YAML. file names it in errors, which are
// Malformed (see Malformed) with the line of the problem.
//
//	name: review
//	description: optional
//	phases:
//	  - name: DRAFT
//	    goal: optional
//	    exit:
//	      - id: draft_written
//	        text: The draft is written.
//	      - id: tests_pass
//	        text: The suite passes.
//	        gate: true
func Parse(file string, data []byte) (Definition, error) {
	fail := func(line int, format string, args ...any) (Definition, error) {
		return Definition{}, Malformed(file, line, fmt.Sprintf(format, args...))
	}
	if len(data) > MaxFileSize {
		return fail(0, "is %d bytes, over the limit of %d", len(data), MaxFileSize)
	}
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return fail(0, "is empty")
		}
		return Definition{}, yamlError(file, err)
	}
	var fd fileDef
	if err := decodeStrict(&root, &fd); err != nil {
		return Definition{}, yamlError(file, err)
	}
	line := 1
	if len(root.Content) > 0 {
		line = root.Content[0].Line
	}
	if !nameRE().MatchString(fd.Name) {
		return fail(line, "name is %q: give a name of letters, digits, - and _ (at most 40), starting with a letter", problem.Clip(fd.Name, 40))
	}
	if len(fd.Phases) == 0 {
		return fail(line, "has no phases: list them under phases:")
	}
	d := Definition{Name: fd.Name, Description: strings.TrimSpace(fd.Description), Source: file}
	seen := map[string]bool{}
	for i := range fd.Phases {
		n := &fd.Phases[i]
		var fp filePhase
		if err := decodeStrict(n, &fp); err != nil {
			return Definition{}, yamlError(file, err)
		}
		if !nameRE().MatchString(fp.Name) {
			return fail(n.Line, "phase %d: name is %q: use letters, digits, - and _, starting with a letter", i+1, problem.Clip(fp.Name, 40))
		}
		if seen[fp.Name] {
			return fail(n.Line, "phase %s appears twice", fp.Name)
		}
		seen[fp.Name] = true
		if len(fp.Exit) == 0 {
			return fail(n.Line, "phase %s has no exit criteria: list at least one under exit:", fp.Name)
		}
		p := Phase{Name: fp.Name, Goal: strings.TrimSpace(fp.Goal), Entry: fp.Entry}
		ids := map[string]bool{}
		for j := range fp.Exit {
			cn := &fp.Exit[j]
			var fc fileCriterion
			if err := decodeStrict(cn, &fc); err != nil {
				return Definition{}, yamlError(file, err)
			}
			switch {
			case !nameRE().MatchString(fc.ID):
				return fail(cn.Line, "phase %s, criterion %d: id is %q: use letters, digits, - and _, starting with a letter", fp.Name, j+1, problem.Clip(fc.ID, 40))
			case ids[fc.ID]:
				return fail(cn.Line, "phase %s: criterion %s appears twice", fp.Name, fc.ID)
			case strings.TrimSpace(fc.Text) == "":
				return fail(cn.Line, "phase %s, criterion %s: text is empty: say what must be true", fp.Name, fc.ID)
			}
			ids[fc.ID] = true
			p.Exit = append(p.Exit, Criterion{ID: fc.ID, Text: strings.TrimSpace(fc.Text), Gate: fc.Gate})
		}
		d.Phases = append(d.Phases, p)
	}
	return d, nil
}

// decodeStrict decodes n into v, refusing keys v does not have.
func decodeStrict(n *yaml.Node, v any) error {
	// yaml.Node.Decode has no KnownFields; re-encoding the node and decoding
	// it strictly would lose line numbers, so unknown keys are checked here.
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: expected a mapping (key: value lines), found %s", n.Line, kindName(n))}}
	}
	allowed := map[string]bool{}
	switch v.(type) {
	case *fileDef:
		allowed = map[string]bool{"name": true, "description": true, "phases": true}
	case *filePhase:
		allowed = map[string]bool{"name": true, "goal": true, "entry": true, "exit": true}
	case *fileCriterion:
		allowed = map[string]bool{"id": true, "text": true, "gate": true}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !allowed[k.Value] {
			return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: unknown key %q (known: %s)", k.Line, problem.Clip(k.Value, 40), strings.Join(sortedKeys(allowed), ", "))}}
		}
	}
	return n.Decode(v)
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("%q", problem.Clip(n.Value, 40))
	}
	return "something else"
}

// lineRE is compiled on first use, not at every process start.
var lineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`) })

// yamlError turns the YAML library's error into a Malformed one with its line.
func yamlError(file string, err error) error {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: unmarshal errors:\n  ")
	if m := lineRE().FindStringSubmatch(strings.TrimSpace(msg)); m != nil {
		var line int
		fmt.Sscan(m[1], &line)
		return Malformed(file, line, m[2])
	}
	return Malformed(file, 0, strings.TrimPrefix(msg, "yaml: "))
}

// Where says where and how the file err refuses is malformed (its
// FileProblem), or, for any other error, what err says.
func Where(err error) string {
	if p, ok := FileProblemOf(err); ok {
		return p.String()
	}
	return err.Error()
}
