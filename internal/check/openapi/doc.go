package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi/datamodel"
	yaml3 "go.yaml.in/yaml/v3"
)

// doc is one parsed file: the spec itself or a file its $refs lead to.
type doc struct {
	path    string // slash path relative to the project root
	content []byte
	root    *yaml.Node // the document's content node; nil when it did not parse
	lines   []int      // byte offset of each line's start, built on first use
}

// pos is where a node is in its file, in 1-based lines and byte columns.
func (d *doc) pos(n *yaml.Node) (line, col int) {
	if n == nil {
		return 0, 0
	}
	return n.Line, d.byteCol(n.Line, n.Column)
}

// byteCol turns yaml's column, counted in characters, into a byte column.
func (d *doc) byteCol(line, col int) int {
	if line <= 0 || col <= 1 {
		return col
	}
	if d.lines == nil {
		d.lines = []int{0}
		for i, b := range d.content {
			if b == '\n' {
				d.lines = append(d.lines, i+1)
			}
		}
	}
	if line > len(d.lines) {
		return col
	}
	start := d.lines[line-1]
	text := d.content[start:]
	if i := bytes.IndexByte(text, '\n'); i >= 0 {
		text = text[:i]
	}
	off := 0
	for n := 1; n < col && off < len(text); n++ {
		_, size := utf8.DecodeRune(text[off:])
		off += size
	}
	return off + 1
}

// syntaxError is a file that does not parse, with the parser's position.
type syntaxError struct {
	line, col int
	msg       string
}

var (
	yamlLineRE       = check.LazyRegexp(`line (\d+)`)
	yamlLinePrefixRE = check.LazyRegexp(`^yaml: (line \d+: )?`)
	yaml4PosRE       = check.LazyRegexp(`L(\d+)\.C(\d+)`)
)

// parseRoot parses the spec file with libopenapi, which reads JSON into the
// same node tree yaml gives (with JSON's own line and column) and finds the
// OpenAPI version. A file it cannot read is a syntaxError; a version it does
// not know is returned as info with a nil APISchema.
func parseRoot(content []byte) (*datamodel.SpecInfo, *syntaxError) {
	info, err := datamodel.ExtractSpecInfoWithConfig(content, &datamodel.DocumentConfiguration{})
	if err == nil && info != nil && info.RootNode != nil {
		return info, nil
	}
	if info != nil && info.RootNode != nil && len(info.RootNode.Content) > 0 {
		// It parsed: the version is what libopenapi refused.
		return info, nil
	}
	return nil, syntaxOf(content, err)
}

// parseFragment parses a file a $ref leads to: any YAML or JSON document.
func parseFragment(content []byte) (*yaml.Node, *syntaxError) {
	if len(bytes.TrimSpace(content)) == 0 {
		return nil, &syntaxError{line: 1, col: 1, msg: "the file is empty"}
	}
	info, err := datamodel.ExtractSpecInfoWithConfig(content, &datamodel.DocumentConfiguration{BypassDocumentCheck: true, SkipJSONConversion: true})
	if err == nil && info != nil && info.RootNode != nil && len(info.RootNode.Content) > 0 {
		n := info.RootNode.Content[0]
		if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
			return n, nil
		}
	}
	// A parse failure becomes a single string node under the bypass: parse
	// again for the parser's own error.
	var node yaml.Node
	if err := yaml.Unmarshal(content, &node); err != nil {
		return nil, syntaxOf(content, err)
	}
	if len(node.Content) == 0 {
		return nil, &syntaxError{line: 1, col: 1, msg: "the file has no document"}
	}
	return node.Content[0], nil
}

// syntaxOf builds the syntax error for content that did not parse: JSON's
// own error where the file is JSON, else yaml's, with its line.
func syntaxOf(content []byte, err error) *syntaxError {
	trimmed := bytes.TrimSpace(content)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		var v any
		if jerr := json.Unmarshal(content, &v); jerr != nil {
			var se *json.SyntaxError
			if errors.As(jerr, &se) {
				line, col := offsetPos(content, int(se.Offset)-1)
				return &syntaxError{line: line, col: col, msg: "invalid JSON: " + se.Error()}
			}
		}
	}
	// Two parsers: libopenapi's (go-yaml v4) knows where a problem is
	// ("at L8.C7-L11.C8": the last position is the offending token);
	// yaml.v3 words it as people know it ("did not find expected key").
	var node yaml.Node
	y4 := yaml.Unmarshal(content, &node)
	var v3node yaml3.Node
	y3 := yaml3.Unmarshal(content, &v3node)
	if y4 == nil && y3 == nil {
		if err == nil {
			return &syntaxError{line: 1, col: 1, msg: "the file could not be read as YAML or JSON"}
		}
		// Both parse: libopenapi refused it after (a duplicate key, say).
		msg := strings.TrimPrefix(err.Error(), "failed to decode YAML to JSON: ")
		msg = strings.TrimPrefix(msg, "yaml: construct errors: ")
		se := &syntaxError{line: 1, col: 1, msg: msg}
		if m := yamlLineRE().FindStringSubmatch(msg); m != nil {
			se.line, _ = strconv.Atoi(m[1])
			se.col = 0
			se.msg = strings.TrimPrefix(yamlLinePrefixRE().ReplaceAllString("yaml: "+msg, ""), "line "+m[1]+": ")
		}
		return se
	}
	se := &syntaxError{line: 1, col: 1}
	if y3 != nil {
		se.msg = yamlLinePrefixRE().ReplaceAllString(y3.Error(), "")
		if m := yamlLineRE().FindStringSubmatch(y3.Error()); m != nil {
			se.line, _ = strconv.Atoi(m[1])
			se.col = 0
		}
	}
	if y4 != nil {
		if se.msg == "" {
			se.msg = y4.Error()
		}
		if ms := yaml4PosRE().FindAllStringSubmatch(y4.Error(), -1); ms != nil {
			m := ms[len(ms)-1]
			se.line, _ = strconv.Atoi(m[1])
			se.col, _ = strconv.Atoi(m[2])
		} else if m := yamlLineRE().FindStringSubmatch(y4.Error()); m != nil && y3 == nil {
			se.line, _ = strconv.Atoi(m[1])
			se.col = 0
		}
	}
	return se
}

// offsetPos turns a byte offset into a 1-based line and byte column.
func offsetPos(content []byte, off int) (line, col int) {
	off = min(max(off, 0), len(content))
	before := content[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = off - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// --- node helpers ---

// maxAliasHops bounds how far an alias chain is followed.
const maxAliasHops = 32

// deAlias follows YAML aliases to the node they name.
func deAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < maxAliasHops; i++ {
		n = n.Alias
	}
	if n != nil && n.Kind == yaml.AliasNode {
		return nil
	}
	return n
}

// get returns the key and value nodes of key in mapping m (aliases
// followed, YAML merge keys << looked into); nil when m is not a mapping
// or has no such key.
func get(m *yaml.Node, key string) (k, v *yaml.Node) {
	return getDepth(m, key, 0)
}

func getDepth(m *yaml.Node, key string, depth int) (k, v *yaml.Node) {
	m = deAlias(m)
	if m == nil || m.Kind != yaml.MappingNode || depth > maxAliasHops {
		return nil, nil
	}
	var merges []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key && !isMergeKey(m.Content[i]) {
			return m.Content[i], deAlias(m.Content[i+1])
		}
		if isMergeKey(m.Content[i]) {
			merges = append(merges, m.Content[i+1])
		}
	}
	for _, src := range merges {
		for _, mm := range mergeSources(src) {
			if k, v := getDepth(mm, key, depth+1); k != nil {
				return k, v
			}
		}
	}
	return nil, nil
}

func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Value == "<<" && (k.Tag == "!!merge" || k.ShortTag() == "!!merge")
}

// mergeSources are the mappings a merge key's value names: one, or a list.
func mergeSources(v *yaml.Node) []*yaml.Node {
	v = deAlias(v)
	switch {
	case v == nil:
		return nil
	case v.Kind == yaml.MappingNode:
		return []*yaml.Node{v}
	case v.Kind == yaml.SequenceNode:
		return v.Content
	}
	return nil
}

// val returns the value node of key in m.
func val(m *yaml.Node, key string) *yaml.Node {
	_, v := get(m, key)
	return v
}

// str returns the scalar value of key in m, "" when absent or not a scalar.
func str(m *yaml.Node, key string) string {
	v := val(m, key)
	if v == nil || v.Kind != yaml.ScalarNode {
		return ""
	}
	return v.Value
}

// pairs calls f for each key and value of mapping m, aliases followed,
// then for the keys YAML merge keys bring that m does not set itself.
func pairs(m *yaml.Node, f func(k, v *yaml.Node)) {
	pairsDepth(m, f, map[string]bool{}, 0)
}

func pairsDepth(m *yaml.Node, f func(k, v *yaml.Node), seen map[string]bool, depth int) {
	m = deAlias(m)
	if m == nil || m.Kind != yaml.MappingNode || depth > maxAliasHops {
		return
	}
	var merges []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if isMergeKey(k) {
			merges = append(merges, m.Content[i+1])
			continue
		}
		if seen[k.Value] {
			continue
		}
		seen[k.Value] = true
		if v := deAlias(m.Content[i+1]); v != nil {
			f(k, v)
		}
	}
	for _, src := range merges {
		for _, mm := range mergeSources(src) {
			pairsDepth(mm, f, seen, depth+1)
		}
	}
}

// items returns the items of sequence s, aliases followed.
func items(s *yaml.Node) []*yaml.Node {
	s = deAlias(s)
	if s == nil || s.Kind != yaml.SequenceNode {
		return nil
	}
	out := make([]*yaml.Node, 0, len(s.Content))
	for _, it := range s.Content {
		if it = deAlias(it); it != nil {
			out = append(out, it)
		}
	}
	return out
}

func isMap(n *yaml.Node) bool { n = deAlias(n); return n != nil && n.Kind == yaml.MappingNode }

// refOf returns the $ref value node of n, nil when n has no string $ref.
func refOf(n *yaml.Node) *yaml.Node {
	v := val(n, "$ref")
	if v == nil || v.Kind != yaml.ScalarNode {
		return nil
	}
	return v
}

// --- values ---

// errTooBig stops a conversion that YAML aliases blew up.
var errTooBig = errors.New("the document expands past the size Cairn reads (YAML aliases repeat too much of it)")

// converter turns nodes into JSON values for the schema validator, within a
// budget of nodes so that aliases cannot expand without end.
type converter struct{ budget int }

func newConverter(content int) *converter {
	// Every node costs one; a document without aliases has far fewer nodes
	// than bytes.
	return &converter{budget: max(content, 4096) + 100_000}
}

func (c *converter) value(n *yaml.Node, depth int) (any, error) {
	c.budget--
	if c.budget < 0 {
		return nil, errTooBig
	}
	if depth > 10_000 {
		return nil, errTooBig
	}
	n = deAlias(n)
	if n == nil {
		return nil, nil
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0], depth+1)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := deAlias(n.Content[i])
			if k == nil {
				continue
			}
			if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
				if err := c.merge(m, n.Content[i+1], depth); err != nil {
					return nil, err
				}
				continue
			}
			v, err := c.value(n.Content[i+1], depth+1)
			if err != nil {
				return nil, err
			}
			m[k.Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		s := make([]any, 0, len(n.Content))
		for _, it := range n.Content {
			v, err := c.value(it, depth+1)
			if err != nil {
				return nil, err
			}
			s = append(s, v)
		}
		return s, nil
	case yaml.ScalarNode:
		return scalarValue(n), nil
	}
	return nil, nil
}

// merge applies a YAML merge key (<<) into m, keys already set winning.
func (c *converter) merge(m map[string]any, src *yaml.Node, depth int) error {
	src = deAlias(src)
	var srcs []*yaml.Node
	switch {
	case src == nil:
	case src.Kind == yaml.MappingNode:
		srcs = []*yaml.Node{src}
	case src.Kind == yaml.SequenceNode:
		srcs = src.Content
	}
	for _, s := range srcs {
		v, err := c.value(s, depth+1)
		if err != nil {
			return err
		}
		if mm, ok := v.(map[string]any); ok {
			for k, x := range mm {
				if _, set := m[k]; !set {
					m[k] = x
				}
			}
		}
	}
	return nil
}

// scalarValue reads a scalar as JSON would: numbers as json.Number, and
// YAML's timestamps and other tags as the strings they are in JSON.
func scalarValue(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		b, err := strconv.ParseBool(strings.ToLower(n.Value))
		if err != nil {
			return n.Value
		}
		return b
	case "!!int":
		s := strings.ReplaceAll(n.Value, "_", "")
		if i, err := strconv.ParseInt(s, 0, 64); err == nil {
			return json.Number(strconv.FormatInt(i, 10))
		}
		if json.Valid([]byte(s)) {
			return json.Number(s)
		}
		return n.Value
	case "!!float":
		s := strings.ReplaceAll(n.Value, "_", "")
		if json.Valid([]byte(s)) {
			return json.Number(s)
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && !isInfNaN(f) {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
		return n.Value
	}
	return n.Value
}

func isInfNaN(f float64) bool { return f != f || f > 1e308 || f < -1e308 }

// describe names a node's kind for messages.
func describe(n *yaml.Node) string {
	n = deAlias(n)
	if n == nil {
		return "nothing"
	}
	switch n.Kind {
	case yaml.MappingNode:
		return "an object"
	case yaml.SequenceNode:
		return "a list"
	}
	return fmt.Sprintf("%q", n.Value)
}
