package commitmsg

import (
	"fmt"
	"strconv"
	"strings"
)

// FileDiff is one file of a unified diff.
type FileDiff struct {
	OldPath, NewPath string // "" for /dev/null
	Status           Status
	Binary           bool
	Hunks            []Hunk
	Added, Removed   int
}

// Path is the file's path after the change (before it, when deleted).
func (f *FileDiff) Path() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// Status says what happened to a file.
type Status string

// The statuses of a file in a diff.
const (
	Added    Status = "added"
	Deleted  Status = "deleted"
	Modified Status = "modified"
	Renamed  Status = "renamed"
)

// Hunk is one @@ section.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	// Section is the text git puts after the second @@: the enclosing
	// function, when git found one.
	Section string
	// Lines keep their first byte: ' ', '-' or '+'.
	Lines []string
}

// maxDiff caps the diff read: a staged change larger than this is
// summarized from what fits.
const maxDiff = 16 << 20

// ParseDiff reads git's unified diff (git diff, git diff --cached, git
// show). Lines it does not know (index, mode, similarity) are skipped.
func ParseDiff(diff string) ([]*FileDiff, error) {
	if len(diff) > maxDiff {
		diff = diff[:maxDiff]
	}
	var files []*FileDiff
	var cur *FileDiff
	var h *Hunk
	oldLeft, newLeft := 0, 0
	lines := strings.Split(diff, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSuffix(lines[i], "\r")
		if h != nil && (oldLeft > 0 || newLeft > 0) {
			if l == "" {
				l = " " // an empty context line whose space an editor stripped
			}
			switch l[0] {
			case ' ':
				oldLeft--
				newLeft--
			case '-':
				oldLeft--
				cur.Removed++
			case '+':
				newLeft--
				cur.Added++
			case '\\':
				continue // "\ No newline at end of file"
			default:
				return files, fmt.Errorf("line %d: a hunk line must start with ' ', '-' or '+'", i+1)
			}
			h.Lines = append(h.Lines, l)
			continue
		}
		switch {
		case strings.HasPrefix(l, "diff --git "):
			cur = &FileDiff{Status: Modified}
			files = append(files, cur)
			h = nil
			if a, b, ok := splitGitPaths(strings.TrimPrefix(l, "diff --git ")); ok {
				cur.OldPath, cur.NewPath = a, b
			}
		case cur == nil && strings.HasPrefix(l, "--- "):
			// A diff without "diff --git" headers (diff -u, some tools).
			cur = &FileDiff{Status: Modified}
			files = append(files, cur)
			fallthrough
		case cur != nil && strings.HasPrefix(l, "--- "):
			p := stripPrefix(strings.TrimPrefix(l, "--- "))
			cur.OldPath = p
			if p == "" {
				cur.Status = Added
			}
		case cur != nil && strings.HasPrefix(l, "+++ "):
			p := stripPrefix(strings.TrimPrefix(l, "+++ "))
			cur.NewPath = p
			if p == "" {
				cur.Status = Deleted
			}
		case cur != nil && strings.HasPrefix(l, "new file mode"):
			cur.Status = Added
		case cur != nil && strings.HasPrefix(l, "deleted file mode"):
			cur.Status = Deleted
		case cur != nil && strings.HasPrefix(l, "rename from "):
			cur.Status, cur.OldPath = Renamed, strings.TrimPrefix(l, "rename from ")
		case cur != nil && strings.HasPrefix(l, "rename to "):
			cur.Status, cur.NewPath = Renamed, strings.TrimPrefix(l, "rename to ")
		case cur != nil && (strings.HasPrefix(l, "Binary files ") || l == "GIT binary patch"):
			cur.Binary = true
		case cur != nil && strings.HasPrefix(l, "@@ "):
			hk, err := parseHunkHeader(l)
			if err != nil {
				return files, fmt.Errorf("line %d: %w", i+1, err)
			}
			cur.Hunks = append(cur.Hunks, hk)
			h = &cur.Hunks[len(cur.Hunks)-1]
			oldLeft, newLeft = hk.OldLines, hk.NewLines
		}
	}
	for _, f := range files {
		switch f.Status {
		case Added:
			f.OldPath = ""
		case Deleted:
			f.NewPath = ""
		}
	}
	return files, nil
}

// splitGitPaths splits "a/x b/x" of a diff --git line (unquoted paths
// without " b/" inside; quoted ones are read too).
func splitGitPaths(s string) (string, string, bool) {
	if strings.HasPrefix(s, `"`) {
		a, rest, err := unquotePrefix(s)
		if err != nil {
			return "", "", false
		}
		b, _, err := unquotePrefix(strings.TrimSpace(rest))
		if err != nil {
			b = strings.TrimSpace(rest)
		}
		return stripPrefix(a), stripPrefix(b), true
	}
	i := strings.Index(s, " b/")
	if i < 0 {
		return "", "", false
	}
	return stripPrefix(s[:i]), stripPrefix(s[i+1:]), true
}

func unquotePrefix(s string) (string, string, error) {
	for i := 1; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '"' {
			u, err := strconv.Unquote(s[:i+1])
			return u, s[i+1:], err
		}
	}
	return "", "", fmt.Errorf("unterminated quote")
}

// stripPrefix drops git's a/ and b/ and reads /dev/null as "".
func stripPrefix(p string) string {
	p = strings.TrimSpace(p)
	if i := strings.IndexByte(p, '\t'); i >= 0 {
		p = p[:i] // diff -u puts a timestamp after a tab
	}
	if strings.HasPrefix(p, `"`) {
		if u, err := strconv.Unquote(p); err == nil {
			p = u
		}
	}
	if p == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(p, "a/") || strings.HasPrefix(p, "b/") {
		return p[2:]
	}
	return p
}

// parseHunkHeader reads "@@ -l,s +l,s @@ section".
func parseHunkHeader(l string) (Hunk, error) {
	var h Hunk
	f := strings.Fields(l)
	if len(f) < 4 || f[3] != "@@" && !strings.HasPrefix(f[3], "@@") {
		return h, fmt.Errorf("bad hunk header %q", clip(l, 40))
	}
	var err error
	if h.OldStart, h.OldLines, err = rangeOf(f[1], '-'); err != nil {
		return h, err
	}
	if h.NewStart, h.NewLines, err = rangeOf(f[2], '+'); err != nil {
		return h, err
	}
	if i := strings.Index(l[2:], "@@"); i >= 0 {
		h.Section = strings.TrimSpace(l[2+i+2:])
	}
	return h, nil
}

func rangeOf(s string, sign byte) (int, int, error) {
	if len(s) < 2 || s[0] != sign {
		return 0, 0, fmt.Errorf("bad hunk range %q", s)
	}
	start, count, found := strings.Cut(s[1:], ",")
	a, err := strconv.Atoi(start)
	if err != nil || a < 0 {
		return 0, 0, fmt.Errorf("bad hunk range %q", s)
	}
	n := 1
	if found {
		if n, err = strconv.Atoi(count); err != nil || n < 0 {
			return 0, 0, fmt.Errorf("bad hunk range %q", s)
		}
	}
	if n > 1<<24 {
		return 0, 0, fmt.Errorf("hunk range %q is too large", s)
	}
	return a, n, nil
}

// Apply applies f's hunks to old, the content the diff was made from.
func (f *FileDiff) Apply(old []byte) ([]byte, error) {
	var src []string
	if len(old) > 0 {
		src = strings.SplitAfter(string(old), "\n")
		if src[len(src)-1] == "" {
			src = src[:len(src)-1]
		}
	}
	var out strings.Builder
	pos := 0 // next line of src to copy
	for _, h := range f.Hunks {
		start := h.OldStart - 1
		if h.OldLines == 0 {
			start = h.OldStart // inserting after line OldStart
		}
		if start < pos || start > len(src) {
			return nil, fmt.Errorf("hunk at line %d does not fit the old content", h.OldStart)
		}
		for ; pos < start; pos++ {
			out.WriteString(src[pos])
		}
		for _, l := range h.Lines {
			switch l[0] {
			case ' ', '-':
				if pos >= len(src) || strings.TrimRight(src[pos], "\r\n") != strings.TrimRight(l[1:], "\r") {
					return nil, fmt.Errorf("hunk at line %d: old line %d differs", h.OldStart, pos+1)
				}
				if l[0] == ' ' {
					out.WriteString(src[pos])
				}
				pos++
			case '+':
				out.WriteString(l[1:] + "\n")
			}
		}
	}
	for ; pos < len(src); pos++ {
		out.WriteString(src[pos])
	}
	return []byte(out.String()), nil
}

// sides returns the removed and added lines of f, without their marks.
func (f *FileDiff) sides() (removed, added []string) {
	for _, h := range f.Hunks {
		for _, l := range h.Lines {
			switch l[0] {
			case '-':
				removed = append(removed, l[1:])
			case '+':
				added = append(added, l[1:])
			}
		}
	}
	return removed, added
}
