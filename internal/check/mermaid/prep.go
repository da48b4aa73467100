package mermaid

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"

	"go.yaml.in/yaml/v3"
)

// This file does to a diagram's text what Mermaid does before its parser
// runs (preprocess.ts, frontmatter.ts, comments.ts, utils.ts
// encodeEntities), keeping each byte's file offset: CRs normalised, HTML
// attribute quotes made single, YAML front matter and %%{...}%% directives
// taken out (and checked), whole-line %% comments dropped, leading space
// trimmed, entities encoded and a newline added.

// prepared is a diagram's text at the stages its checks need.
type prepared struct {
	// cleaned is the text after front matter, directives and comment lines
	// are removed: what Mermaid detects the diagram type on.
	cleaned syntax.Src
	// code is cleaned with entities encoded and a newline added: what the
	// diagram's parser reads.
	code syntax.Src
	// frontMatter is the front matter's YAML, nil without one.
	frontMatter *yaml.Node
}

// prepare runs Mermaid's preprocessing over raw, reporting broken front
// matter and directives to d.
func prepare(d *syntax.Diagram, raw syntax.Src) prepared {
	// Pages render a diagram's text trimmed (mermaid.run trims each
	// element's text), so front matter after blank lines still counts.
	s := trimStart(normalizeText(raw))
	var p prepared
	s, p.frontMatter = frontMatter(d, s)
	s = directives(d, s)
	p.cleaned = trimStart(cleanupComments(s))
	p.code = encodeEntities(p.cleaned).AppendText("\n")
	return p
}

// normalizeText turns CRLF and CR into LF and, inside HTML tags, double
// quotes around attribute values into single ones (Mermaid's cleanupText).
func normalizeText(s syntax.Src) syntax.Src {
	var edits []syntax.Edit
	for i := 0; i < len(s.Text); i++ {
		if s.Text[i] != '\r' {
			continue
		}
		if i+1 < len(s.Text) && s.Text[i+1] == '\n' {
			edits = append(edits, syntax.Edit{From: i, To: i + 1})
		} else {
			edits = append(edits, syntax.Edit{From: i, To: i + 1, Repl: "\n"})
		}
	}
	s = s.Apply(edits)
	return singleQuoteAttributes(s)
}

// singleQuoteAttributes rewrites `<tag a="v">` as `<tag a='v'>`, as the
// regular expression /<(\w+)([^>]*)>/ with /="([^"]*)"/ inside does.
func singleQuoteAttributes(s syntax.Src) syntax.Src {
	if !strings.Contains(s.Text, "=\"") {
		return s
	}
	b := []byte(s.Text)
	for i := 0; i < len(b); i++ {
		if b[i] != '<' || i+1 >= len(b) || !syntax.IsWordByte(b[i+1]) {
			continue
		}
		j := i + 1
		for j < len(b) && syntax.IsWordByte(b[j]) {
			j++
		}
		end := strings.IndexByte(s.Text[j:], '>')
		if end < 0 {
			break // no later tag can close either
		}
		end += j
		quoteAttributes(b[j:end])
		i = end
	}
	return syntax.Src{Text: string(b), Off: s.Off}
}

// quoteAttributes replaces each ="v" in attrs by ='v'.
func quoteAttributes(attrs []byte) {
	for k := 0; k+1 < len(attrs); k++ {
		if attrs[k] != '=' || attrs[k+1] != '"' {
			continue
		}
		close := strings.IndexByte(string(attrs[k+2:]), '"')
		if close < 0 {
			return
		}
		attrs[k+1], attrs[k+2+close] = '\'', '\''
		k += 2 + close
	}
}

// frontMatter removes a leading YAML front matter block, as Mermaid's
// /^-{3}\s*[\n\r](.*?)[\n\r]-{3}\s*[\n\r]+/s does, and checks its YAML.
func frontMatter(d *syntax.Diagram, s syntax.Src) (syntax.Src, *yaml.Node) {
	from, to, end, ok := findFrontMatter(s.Text)
	if !ok {
		return s, nil
	}
	node := checkFrontMatter(d, s.Slice(from, to))
	return s.Cut(0, end), node
}

// findFrontMatter returns where the YAML of a leading front matter block
// starts and ends and where the block ends.
func findFrontMatter(t string) (from, to, end int, ok bool) {
	if !strings.HasPrefix(t, "---") {
		return 0, 0, 0, false
	}
	w := 3
	for w < len(t) && syntax.IsJSSpaceByte(t[w]) {
		w++
	}
	ws := t[3:w]
	last := strings.LastIndexByte(ws, '\n')
	if last < 0 {
		return 0, 0, 0, false
	}
	from = 3 + last + 1
	if to, end, ok = findFrontMatterClose(t, from); ok {
		return from, to, end, true
	}
	// The opening whitespace may itself end at the closing line
	// ("---\n\n---\n"): then the YAML is empty and starts at an earlier
	// newline.
	prev := strings.LastIndexByte(ws[:last], '\n')
	if prev >= 0 {
		if to, end, ok = findFrontMatterClose(t, 3+prev+1); ok {
			return 3 + prev + 1, to, end, true
		}
	}
	return 0, 0, 0, false
}

// findFrontMatterClose finds the first "\n---" at or after from that is
// followed by white space holding a newline; it returns where the YAML ends
// and where the block (with that white space) ends.
func findFrontMatterClose(t string, from int) (to, end int, ok bool) {
	for i := from; i < len(t); {
		j := strings.Index(t[i:], "\n---")
		if j < 0 {
			return 0, 0, false
		}
		j += i
		k := j + 4
		lastNL := -1
		for k < len(t) && syntax.IsJSSpaceByte(t[k]) {
			if t[k] == '\n' {
				lastNL = k
			}
			k++
		}
		if lastNL >= 0 {
			return j, lastNL + 1, true
		}
		i = j + 1
	}
	return 0, 0, false
}

// checkFrontMatter parses the front matter's YAML and reports an error in
// it, or a top-level key Mermaid ignores.
func checkFrontMatter(d *syntax.Diagram, y syntax.Src) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(y.Text), &doc); err != nil {
		line, msg := syntax.YamlErrorLine(err)
		at := lineStart(y.Text, line)
		d.Report(syntax.RuleFrontMatter, y, at, at, "the front matter is not valid YAML: "+msg,
			"fix the YAML between the --- lines; Mermaid refuses the whole diagram otherwise")
		return nil
	}
	if len(doc.Content) == 0 {
		return nil
	}
	if k := syntax.DuplicateKey(&doc, 0); k != nil {
		at := lineColOffset(y.Text, k.Line, k.Column)
		d.Report(syntax.RuleFrontMatter, y, at, at+len(k.Value)-1,
			fmt.Sprintf("the front matter has the key %q twice in one mapping, which Mermaid's YAML reader refuses", k.Value),
			"keep one of the two keys")
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return root
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		switch k.Value {
		case "title", "config", "displayMode":
			continue
		}
		at := lineColOffset(y.Text, k.Line, k.Column)
		d.Report(syntax.RuleFrontMatterKey, y, at, at+len(k.Value),
			fmt.Sprintf("front matter key %q is ignored by Mermaid, which reads only title, displayMode and config", k.Value),
			"move it under config: (for example config:\\n  theme: dark), or remove it")
	}
	return root
}

// lineStart is the offset of 1-based line n of t (0 for n < 1).
func lineStart(t string, n int) int {
	off := 0
	for l := 1; l < n; l++ {
		i := strings.IndexByte(t[off:], '\n')
		if i < 0 {
			return off
		}
		off += i + 1
	}
	return off
}

// lineColOffset is the offset of 1-based line and column in t.
func lineColOffset(t string, line, col int) int {
	return min(lineStart(t, line)+max(col-1, 0), len(t))
}

// directive is one %%{...}%% directive: where it is, its type and its
// argument text.
type directive struct {
	from, to   int
	kind, args string
	hasArgs    bool
}

// directives removes %%{...}%% directives as Mermaid's directiveRegex does,
// reporting an init directive whose JSON Mermaid cannot read (it then
// ignores every init directive) and a directive of a type it does not
// know.
func directives(d *syntax.Diagram, s syntax.Src) syntax.Src {
	if !strings.Contains(s.Text, "%%{") {
		return s
	}
	var edits []syntax.Edit
	for i := 0; i < len(s.Text); {
		j := strings.Index(s.Text[i:], "%%{")
		if j < 0 {
			break
		}
		dir, ok := matchDirective(s.Text, i+j)
		if !ok {
			i += j + 1
			continue
		}
		checkDirective(d, s, dir)
		edits = append(edits, syntax.Edit{From: dir.from, To: dir.to})
		i = max(dir.to, i+j+1)
	}
	return s.Apply(edits)
}

// matchDirective matches
// %{2}{\s*(?:(\w+)\s*:|(\w+))\s*(?:(\w+)|((?:(?!}%{2}).|\r?\n)*))?\s*(?:}%{2})?
// at at.
func matchDirective(t string, at int) (directive, bool) {
	i := syntax.SkipJSSpace(t, at+3)
	k := i
	for k < len(t) && syntax.IsWordByte(t[k]) {
		k++
	}
	if k == i {
		return directive{}, false
	}
	dir := directive{from: at, kind: t[i:k]}
	i = syntax.SkipJSSpace(t, k)
	if i < len(t) && t[i] == ':' {
		i++
	} else {
		i = k
	}
	i = syntax.SkipJSSpace(t, i)
	w := i
	for w < len(t) && syntax.IsWordByte(t[w]) {
		w++
	}
	if w > i {
		dir.args, i = t[i:w], w
	} else {
		a := i
		for i < len(t) && !strings.HasPrefix(t[i:], "}%%") && !syntax.IsJSLineBreakExceptLF(t, i) {
			i++
		}
		dir.args, dir.hasArgs = t[a:i], true
	}
	i = syntax.SkipJSSpace(t, i)
	if strings.HasPrefix(t[i:], "}%%") {
		i += 3
	}
	dir.to = i
	return dir, true
}

func checkDirective(d *syntax.Diagram, s syntax.Src, dir directive) {
	switch strings.ToLower(dir.kind) {
	case "init", "initialize":
		if !dir.hasArgs || strings.TrimSpace(dir.args) == "" {
			return
		}
		args := strings.ReplaceAll(strings.TrimSpace(dir.args), "'", "\"")
		var v any
		err := json.Unmarshal([]byte(args), &v)
		if m, ok := v.(map[string]any); ok {
			d.Inits = append(d.Inits, m)
		}
		if err != nil {
			d.Report(syntax.RuleDirective, s, dir.from, dir.to,
				"the %%{init}%% directive's argument is not JSON ("+jsonErr(err)+"), so Mermaid ignores every init directive of this diagram",
				`write it as JSON with quoted keys, e.g. %%{init: {"theme": "dark"}}%%, or move the settings to front matter config:`)
		}
	case "wrap":
	default:
		d.Report(syntax.RuleDirective, s, dir.from, dir.to,
			fmt.Sprintf("Mermaid has no %q directive and ignores it", dir.kind),
			"use %%{init: {...}}%% or %%{wrap}%%, or front matter config:")
	}
}

func jsonErr(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

// cleanupComments removes lines that are %% comments, as
// /^\s*%%(?!{)[^\n]+\n?/gm does (which takes the blank lines before them
// too).
func cleanupComments(s syntax.Src) syntax.Src {
	if !strings.Contains(s.Text, "%%") {
		return s
	}
	var edits []syntax.Edit
	t := s.Text
	for ls := 0; ls < len(t); {
		p := syntax.SkipJSSpace(t, ls)
		if end, ok := commentLineEnd(t, p); ok {
			edits = append(edits, syntax.Edit{From: ls, To: end})
			ls = end
			continue
		}
		// Every line start up to p reaches the same p and fails too.
		nl := strings.IndexByte(t[p:], '\n')
		if nl < 0 {
			break
		}
		ls = p + nl + 1
	}
	return s.Apply(edits)
}

// commentLineEnd matches %%(?!{)[^\n]+\n? at p.
func commentLineEnd(t string, p int) (int, bool) {
	if !strings.HasPrefix(t[p:], "%%") || strings.HasPrefix(t[p+2:], "{") {
		return 0, false
	}
	e := p + 2
	for e < len(t) && t[e] != '\n' {
		e++
	}
	if e == p+2 {
		return 0, false
	}
	if e < len(t) {
		e++
	}
	return e, true
}

func trimStart(s syntax.Src) syntax.Src {
	i := 0
	for i < len(s.Text) {
		r, n := syntax.DecodeRune(s.Text, i)
		if !syntax.IsJSSpace(r) {
			break
		}
		i += n
	}
	if i == 0 {
		return s
	}
	return s.Slice(i, len(s.Text))
}

// encodeEntities is Mermaid's encodeEntities: the last ";" of a style or
// classDef line with a colour goes, and #name; entities become
// placeholders.
func encodeEntities(s syntax.Src) syntax.Src {
	s = dropStyleSemicolons(s, "style")
	s = dropStyleSemicolons(s, "classDef")
	if !strings.Contains(s.Text, "#") {
		return s
	}
	var edits []syntax.Edit
	t := s.Text
	for i := 0; i < len(t); i++ {
		if t[i] != '#' {
			continue
		}
		j := i + 1
		for j < len(t) && syntax.IsWordByte(t[j]) {
			j++
		}
		if j == i+1 || j >= len(t) || t[j] != ';' {
			continue
		}
		inner := t[i+1 : j]
		prefix := "ﬂ°"
		if isUnsignedInt(inner) {
			prefix = "ﬂ°°"
		}
		edits = append(edits, syntax.Edit{From: i, To: j + 1, Repl: prefix + inner + "¶ß"})
		i = j
	}
	return s.Apply(edits)
}

func isUnsignedInt(s string) bool {
	s = strings.TrimPrefix(s, "+")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// dropStyleSemicolons applies /kw.*:\S*#.*;/g, which removes the last ";"
// of each line where kw is followed by a colon, a colour and a ";".
func dropStyleSemicolons(s syntax.Src, kw string) syntax.Src {
	if !strings.Contains(s.Text, kw) {
		return s
	}
	var edits []syntax.Edit
	t := s.Text
	for ls := 0; ls < len(t); {
		le := strings.IndexByte(t[ls:], '\n')
		if le < 0 {
			le = len(t)
		} else {
			le += ls
		}
		if semi, ok := styleSemicolon(t[ls:le], kw); ok {
			edits = append(edits, syntax.Edit{From: ls + semi, To: ls + semi + 1})
		}
		ls = le + 1
	}
	return s.Apply(edits)
}

// styleSemicolon finds the ";" that /kw.*:\S*#.*;/ would end on in line.
func styleSemicolon(line, kw string) (int, bool) {
	k := strings.Index(line, kw)
	if k < 0 {
		return 0, false
	}
	semi := strings.LastIndexByte(line, ';')
	if semi < 0 {
		return 0, false
	}
	for i := k + len(kw); i < semi; i++ {
		if line[i] != ':' {
			continue
		}
		j := i + 1
		for j < semi && !syntax.IsJSSpaceByte(line[j]) && line[j] != '#' {
			j++
		}
		if j < semi && line[j] == '#' {
			return semi, true
		}
	}
	return 0, false
}
