package openapi

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pb33f/go-yaml"

	"github.com/cairn-dev/cairn/internal/check"
)

// maxFiles bounds how many files one spec's $refs may lead to.
const maxFiles = 500

// maxRefHops bounds a chain of $refs to $refs.
const maxRefHops = 64

// loaded is a file read for a $ref, or why it could not be.
type loaded struct {
	doc *doc
	why string // set when doc is nil: why the file cannot be read
}

// files reads and parses the project files $refs lead to, once per Check,
// shared by the specs it checks.
type files struct {
	src   check.Source
	cache map[string]*loaded
	// syntax collects the syntax findings of files $refs lead to, once each.
	syntax []check.Finding
}

func (fs_ *files) load(p string) *loaded {
	if l, ok := fs_.cache[p]; ok {
		return l
	}
	l := fs_.read(p)
	fs_.cache[p] = l
	return l
}

func (fs_ *files) read(p string) *loaded {
	if fs_.src == nil {
		return &loaded{why: "inline content has no project to read " + p + " from"}
	}
	if len(fs_.cache) >= maxFiles {
		return &loaded{why: fmt.Sprintf("the spec's $refs lead to more than %d files", maxFiles)}
	}
	b, err := fs_.src.ReadFile(p)
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return &loaded{why: "file " + p + " does not exist"}
		case errors.Is(err, check.ErrOutside):
			return &loaded{why: p + " is outside the project"}
		case errors.Is(err, check.ErrTooLarge):
			return &loaded{why: p + " is over the size cap"}
		}
		return &loaded{why: "file " + p + " cannot be read: " + err.Error()}
	}
	if !utf8.Valid(b) {
		return &loaded{why: "file " + p + " is not UTF-8 text"}
	}
	d := &doc{path: p, content: b}
	root, se := parseFragment(b)
	if se != nil {
		line := se.line
		fs_.syntax = append(fs_.syntax, check.Finding{Rule: ruleSyntax, File: p, Line: line, Col: d.byteCol(line, se.col),
			Message: "this file, which a $ref leads to, does not parse: " + se.msg,
			Fix:     "fix the syntax at this line"})
		return &loaded{why: "file " + p + " does not parse"}
	}
	d.root = root
	return &loaded{doc: d}
}

// target is where a $ref leads: a node of a file.
type target struct {
	doc  *doc
	node *yaml.Node
	key  *yaml.Node // the key that names node in its file, if any
	ptr  string     // the JSON pointer within doc ("" for the whole file)
}

// resolved is the outcome of one $ref: its target, or why it has none.
type resolved struct {
	target
	remote bool   // not followed: not a project file
	why    string // set when there is no target
}

// refLocation splits a $ref into the file it names (relative to the
// project root, "" for the same file) and its pointer, or says why it names
// no project file.
func refLocation(from *doc, ref string) (file, ptr string, remote bool, why string) {
	loc, frag, _ := strings.Cut(ref, "#")
	if loc != "" {
		u, err := url.Parse(loc)
		if err != nil {
			return "", "", false, fmt.Sprintf("%q is not a valid reference", ref)
		}
		if u.Scheme != "" || u.Host != "" {
			return "", "", true, ""
		}
		p, err := url.PathUnescape(u.Path)
		if err != nil {
			p = u.Path
		}
		if strings.HasPrefix(p, "/") {
			return "", "", false, fmt.Sprintf("%q is an absolute path; use a path relative to %s", ref, from.path)
		}
		file = path.Join(path.Dir(from.path), p)
		if file == ".." || strings.HasPrefix(file, "../") {
			return "", "", false, fmt.Sprintf("%q leads outside the project", ref)
		}
	}
	if frag != "" {
		if f, err := url.PathUnescape(frag); err == nil {
			frag = f
		}
		if !strings.HasPrefix(frag, "/") {
			return "", "", true, ""
		}
	}
	return file, frag, false, ""
}

// pointer finds ptr (a JSON pointer) in root, aliases followed, with the
// key that names it (nil for an item of a list, or the whole file). When
// it is not there, found is the longest part of ptr that is.
func pointer(root *yaml.Node, ptr string) (key, n *yaml.Node, found string) {
	n = deAlias(root)
	if ptr == "" {
		return nil, n, ""
	}
	parts := strings.Split(ptr[1:], "/")
	for i, raw := range parts {
		seg := strings.ReplaceAll(strings.ReplaceAll(raw, "~1", "/"), "~0", "~")
		switch {
		case n == nil:
			return nil, nil, "/" + strings.Join(parts[:i], "/")
		case n.Kind == yaml.MappingNode:
			k, v := get(n, seg)
			if v == nil {
				return nil, nil, "/" + strings.Join(parts[:i], "/")
			}
			key, n = k, v
		case n.Kind == yaml.SequenceNode:
			j, err := strconv.Atoi(seg)
			if err != nil || j < 0 || j >= len(n.Content) {
				return nil, nil, "/" + strings.Join(parts[:i], "/")
			}
			key, n = nil, deAlias(n.Content[j])
		default:
			return nil, nil, "/" + strings.Join(parts[:i], "/")
		}
	}
	return key, n, ptr
}

// resolve follows the $ref whose value node is ref, in file from, once:
// the outcome is kept by node.
func (s *spec) resolve(from *doc, ref *yaml.Node) *resolved {
	if r, ok := s.refs[ref]; ok {
		return r
	}
	r := s.resolveOnce(from, ref.Value)
	s.refs[ref] = r
	return r
}

func (s *spec) resolveOnce(from *doc, ref string) *resolved {
	file, ptr, remote, why := refLocation(from, ref)
	if remote {
		return &resolved{remote: true}
	}
	if why != "" {
		return &resolved{why: why}
	}
	d := from
	if file != "" && file != from.path {
		l := s.files.load(file)
		if l.doc == nil {
			return &resolved{why: l.why, remote: s.files.src == nil}
		}
		d = l.doc
	}
	key, n, found := pointer(d.root, ptr)
	if n == nil {
		if found == "" || found == "/" {
			return &resolved{why: fmt.Sprintf("%s has no %s", d.path, ptr)}
		}
		return &resolved{why: fmt.Sprintf("%s has no %s (it has %s)", d.path, ptr, found)}
	}
	return &resolved{target: target{doc: d, node: n, key: key, ptr: ptr}}
}

// deref follows n's $ref chain from file d: the object n stands for, its
// file and its JSON pointer there. ok is false when a $ref on the way does
// not resolve (the reference scan reports it, not this).
func (s *spec) deref(d *doc, n *yaml.Node) (t target, ok bool) {
	t = target{doc: d, node: deAlias(n)}
	for range maxRefHops {
		ref := refOf(t.node)
		if ref == nil {
			return t, t.node != nil
		}
		r := s.resolve(t.doc, ref)
		if r.node == nil {
			return target{doc: d}, false
		}
		t = r.target
		t.node = deAlias(t.node)
	}
	return target{doc: d}, false
}
