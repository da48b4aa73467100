package commitmsg

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

// apiResult is what comparing the exported API found.
type apiResult struct {
	changes  []APIChange
	breaking bool
	// added are the new declarations that count as new API (not renames,
	// not fields of existing types), short names: "Open", "Client.Retry".
	added []string
	// renames are "Old to New" pairs: a removal and an addition of the
	// same shape in one package.
	renames []string
	// moves are "Name to dir": a declaration that left one package for
	// another with its shape.
	moves []string
	// weight sums the added API: 1 a func, method or type; 0.5 a const,
	// var or field (a fix often adds an error value).
	weight float64
}

// changedNames are the declarations whose shape changed, short names.
func (a apiResult) changedNames() []string {
	var out []string
	for _, c := range a.changes {
		if c.Change == "changed" {
			out = append(out, shortName(strings.TrimPrefix(c.Decl, "interface method ")))
		}
	}
	return out
}

// removedNames are the declarations removed (not renamed), short names.
func (a apiResult) removedNames() []string {
	var out []string
	for _, c := range a.changes {
		if c.Change == "removed" && !strings.HasPrefix(c.Decl, "field ") && !strings.HasPrefix(c.Decl, "interface method ") {
			n := shortName(c.Decl)
			if !slices.ContainsFunc(append(slices.Clone(a.renames), a.moves...), func(r string) bool { return strings.HasPrefix(r, n+" to ") }) {
				out = append(out, n)
			}
		}
	}
	return out
}

func (a apiResult) breakingText() string {
	var parts []string
	for _, c := range a.changes {
		if !c.breaking() {
			continue
		}
		switch c.Change {
		case "removed":
			parts = append(parts, "removed "+c.Decl)
		case "changed":
			parts = append(parts, fmt.Sprintf("%s changed from %s to %s", c.Decl, c.Old, c.New))
		case "added":
			parts = append(parts, c.Decl+" was added to an interface: implementations must add it")
		}
	}
	if len(parts) > 4 {
		parts = append(parts[:4], fmt.Sprintf("and %d more", len(parts)-4))
	}
	return strings.Join(parts, "; ") + "."
}

// breaking says whether a change breaks callers (set on the change by
// apiChanges through the Old field's marker).
func (c APIChange) breaking() bool {
	return c.Change == "removed" || c.Change == "changed" || strings.HasPrefix(c.Decl, "interface method") && c.Change == "added"
}

// lang is the API reader of a file, or "".
func lang(p string) string {
	switch path.Ext(p) {
	case ".go":
		return "go"
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts":
		if strings.HasSuffix(p, ".d.ts") {
			return "js"
		}
		return "js"
	case ".py":
		return "py"
	case ".rs":
		return "rs"
	}
	return ""
}

// apiChanges compares the exported declarations before and after, per
// package directory and language, over the changed source files.
func apiChanges(infos []*fileInfo, in Input, s *Suggestion) apiResult {
	var res apiResult
	type side struct {
		decls map[string]string // key → shape
		file  map[string]string // key → file
	}
	type pkgKey struct{ dir, lang string }
	olds, news := map[pkgKey]*side{}, map[pkgKey]*side{}
	public := map[pkgKey]bool{}
	var order []pkgKey
	unread := 0
	get := func(m map[pkgKey]*side, k pkgKey) *side {
		if m[k] == nil {
			m[k] = &side{decls: map[string]string{}, file: map[string]string{}}
		}
		return m[k]
	}
	for _, fi := range infos {
		if fi.cat != catSource || fi.Binary {
			continue
		}
		lg := lang(fi.Path())
		if lg == "" {
			continue
		}
		oldC, newC, ok := contents(fi.FileDiff, in)
		if !ok {
			unread++
			continue
		}
		fi.newContent = newC
		for i, src := range [][]byte{oldC, newC} {
			p := fi.OldPath
			if i == 1 {
				p = fi.NewPath
			}
			if src == nil || p == "" {
				continue
			}
			k := pkgKey{path.Dir(p), lg}
			if !slices.Contains(order, k) {
				order = append(order, k)
				public[k] = true
			}
			m := olds
			if i == 1 {
				m = news
			}
			sd := get(m, k)
			var decls []decl
			switch lg {
			case "go":
				pkg, ds, ok := goAPI(src)
				if !ok {
					s.Reasons = append(s.Reasons, p+": does not parse as Go; its API is not compared")
					continue
				}
				decls = ds
				if pkg == "main" || isInternal(p) {
					public[k] = false
				}
			case "js":
				decls = jsAPI(src)
				if isInternal(p) {
					public[k] = false
				}
			case "rs":
				decls = rustAPI(src)
			case "py":
				decls = pyAPI(src)
				if isInternal(p) || strings.HasPrefix(path.Base(p), "_") && path.Base(p) != "__init__.py" {
					public[k] = false
				}
			}
			for _, d := range decls {
				sd.decls[d.key] = d.shape
				sd.file[d.key] = p
			}
		}
	}
	if unread > 0 {
		s.Reasons = append(s.Reasons, fmt.Sprintf("%d source file(s) could not be read before and after: their exported API is not compared", unread))
	}
	// Removed and added keys per package, then declarations that left one
	// package for another with their shape: moves, not new API.
	type delta struct{ removed, added []string }
	deltas := map[pkgKey]*delta{}
	gone := map[string]pkgKey{} // lang+key+shape → where it was removed
	for _, k := range order {
		o, n := get(olds, k), get(news, k)
		d := &delta{}
		for key := range o.decls {
			if _, ok := n.decls[key]; !ok {
				d.removed = append(d.removed, key)
				gone[k.lang+"\x00"+key+"\x00"+o.decls[key]] = k
			}
		}
		for key := range n.decls {
			if _, ok := o.decls[key]; !ok {
				d.added = append(d.added, key)
			}
		}
		deltas[k] = d
	}
	moved := map[string]bool{} // "dir\x00key" of an addition that is a move
	for _, k := range order {
		n := get(news, k)
		for _, a := range deltas[k].added {
			if from, ok := gone[k.lang+"\x00"+a+"\x00"+n.decls[a]]; ok && from != k && kindOf(a) != "field" && kindOf(a) != "imethod" {
				moved[k.dir+"\x00"+a] = true
				res.moves = append(res.moves, shortName(a)+" to "+k.dir)
			}
		}
	}
	for _, k := range order {
		o, n := get(olds, k), get(news, k)
		removed, added := deltas[k].removed, deltas[k].added
		slices.Sort(removed)
		slices.Sort(added)
		// A removal and an addition of one shape and kind: a rename.
		renamed := map[string]bool{}
		for _, r := range removed {
			for _, a := range added {
				if renamed[a] || kindOf(r) != kindOf(a) || o.decls[r] != n.decls[a] || o.decls[r] == "" && kindOf(r) != "class" && kindOf(r) != "export" {
					continue
				}
				if kindOf(r) == "field" || kindOf(r) == "imethod" {
					continue
				}
				renamed[r], renamed[a] = true, true
				res.renames = append(res.renames, shortName(r)+" to "+shortName(a))
				break
			}
		}
		pub := public[k]
		desc := func(key string) string {
			if strings.HasPrefix(key, "imethod ") {
				return "interface method " + strings.TrimPrefix(key, "imethod ")
			}
			return key
		}
		for _, r := range removed {
			c := APIChange{File: o.file[r], Change: "removed", Decl: desc(r), Old: o.decls[r]}
			res.changes = append(res.changes, c)
			if pub {
				res.breaking = true
			}
		}
		for _, a := range added {
			c := APIChange{File: n.file[a], Change: "added", Decl: desc(a), New: n.decls[a]}
			res.changes = append(res.changes, c)
			// A method added to an interface that existed breaks its
			// implementations.
			if kindOf(a) == "imethod" {
				typ := strings.SplitN(strings.TrimPrefix(a, "imethod "), ".", 2)[0]
				if _, existed := o.decls["type "+typ]; existed && pub && k.lang == "go" {
					res.breaking = true
				}
			}
			if renamed[a] || moved[k.dir+"\x00"+a] {
				continue
			}
			switch kindOf(a) {
			case "type", "class":
				res.weight++
				res.added = append([]string{shortName(a)}, res.added...)
			case "func", "method", "def", "export":
				res.weight++
				res.added = append(res.added, shortName(a))
			case "field":
				typ := strings.SplitN(strings.TrimPrefix(a, "field "), ".", 2)[0]
				if _, existed := o.decls["type "+typ]; existed {
					res.weight += 0.5
				}
			case "const", "var":
				res.weight += 0.5
			}
		}
		for key, os := range o.decls {
			ns, ok := n.decls[key]
			if !ok || os == ns || k.lang != "go" {
				continue
			}
			if (kindOf(key) == "const" || kindOf(key) == "var") && (os == "" || ns == "") {
				continue // an untyped constant's type is its value's
			}
			res.changes = append(res.changes, APIChange{File: n.file[key], Change: "changed", Decl: desc(key), Old: os, New: ns})
			if pub {
				res.breaking = true
			}
		}
	}
	slices.SortStableFunc(res.changes, func(a, b APIChange) int {
		return strings.Compare(a.Change+a.File+a.Decl, b.Change+b.File+b.Decl)
	})
	var nb []string
	for _, c := range res.changes {
		if c.breaking() {
			nb = append(nb, c.Change+" "+c.Decl)
		}
	}
	switch {
	case res.breaking:
		s.Reasons = append(s.Reasons, "breaking: exported API of a public package "+strings.Join(clipList(nb, 3), ", "))
	case len(nb) > 0:
		s.Reasons = append(s.Reasons, "not breaking: "+strings.Join(clipList(nb, 3), ", ")+" only in internal, main or private packages")
	}
	return res
}

func clipList(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(slices.Clone(xs[:n]), fmt.Sprintf("and %d more", len(xs)-n))
}

// isInternal is true for a path no importer outside the module can reach.
func isInternal(p string) bool {
	return slices.Contains(strings.Split(path.Dir(p), "/"), "internal")
}

func kindOf(key string) string {
	k, _, _ := strings.Cut(key, " ")
	return k
}

// shortName is a declaration's name as a subject says it.
func shortName(key string) string {
	_, n, _ := strings.Cut(key, " ")
	return n
}

// contents returns a file's content before and after the change.
func contents(f *FileDiff, in Input) (oldC, newC []byte, ok bool) {
	switch f.Status {
	case Added:
		if in.New != nil {
			if b, err := in.New(f.NewPath); err == nil {
				return nil, b, true
			}
		}
		b, err := f.Apply(nil)
		return nil, b, err == nil
	case Deleted:
		if in.Old != nil {
			if b, err := in.Old(f.OldPath); err == nil {
				return b, nil, true
			}
		}
		removed, _ := f.sides()
		return []byte(strings.Join(removed, "\n") + "\n"), nil, true
	}
	if in.Old == nil {
		return nil, nil, false
	}
	old, err := in.Old(f.OldPath)
	if err != nil {
		return nil, nil, false
	}
	if in.New != nil {
		if b, err := in.New(f.NewPath); err == nil {
			return old, b, true
		}
	}
	b, err := f.Apply(old)
	if err != nil {
		return nil, nil, false
	}
	return old, b, true
}

var (
	fixWordRE  = check.LazyRegexp(`(?i)\b(fix(es|ed|ing)?|bug(s|gy)?|regress(ion|ed)?|panic(s|ked|king)?|crash(es|ed|ing)?|nil pointer|nil map|null pointer|undefined is not|off[- ]by[- ]one|rac(e|es|ed|ing|y)|data race|deadlock(s|ed)?|leak(s|ed|ing)?|overflow(s|ed|ing)?|underflow(s|ed)?|incorrect(ly)?|wrong(ly)?|broke(n)?|break(s|ing)? on|typo|workaround|edge case|corrupt(s|ed|ion)?|must not|should not|prevents?|guard|was ignored|ignored|never (set|closed|called|freed)|twice|missing|failed|fails|lost|hang(s|ing)?|stuck|truncat(ed|es)|mis\w+)\b`)
	perfWordRE = check.LazyRegexp(`(?i)(\b(perf(ormance)?|faster|slow|speed ?up|allocations?|allocs?|preallocat\w*|memoi[sz]\w*|benchmark\w*|quadratic|linear (scan|search|time)|hot path|fast path|sync\.Pool|amortiz\w*|cache[ds]?|throughput|latency)\b|\bO\((1|n|n\^?2|n log n|log n)\))`)
	guardRE    = check.LazyRegexp(`^\s*(if\b.*(== nil|!= nil|== null|=== undefined|is None|is not None|len\(|< 0|<= 0|>= len|> len|\.length|!ok|== ""|=== ""|== 0\b)|except\b|catch\b|raise\b|throw\b|return .*(err|Err|error)|defer .*Close\(\)|\w+\.Unlock\(\)|\w+ = min\(|\w+ = max\()`)
	refWordRE  = check.LazyRegexp(`(?i)\b(refactor\w*|rename[ds]?|extract(ed|s)?|inline[ds]?|simplif(y|ies|ied)|split|reorgani[sz]e[ds]?|deduplicat\w*|clean ?up|move[ds]?|helper)\b`)
	funcCtxRE  = check.LazyRegexp(`(?:func\s+(?:\([^)]*?\*?(\w+)(?:\[[^\]]*\])?\)\s*)?(\w+)|def\s+(\w+)|function\s*\*?\s*(\w+)|class\s+(\w+)|(\w+)\s*\([^)]*\)\s*\{)`)
	benchAddRE = check.LazyRegexp(`^func Benchmark\w+\(`)
	regTestRE  = check.LazyRegexp(`(?i)(regression|bug|issue\d*|fix|panic|crash|nil|empty|zero|negative|overflow|edge|invalid|malformed)`)
	// strongTestRE names a test after a bug; regTestRE's other words (an
	// empty or invalid input) name edge cases features test too.
	strongTestRE = check.LazyRegexp(`(?i)(regression|bug|issue\d*|fix|panic|crash)`)
)

// sourceType infers the type of a change that touches source code, and
// the subject that goes with it.
func sourceType(infos []*fileInfo, api apiResult, s *Suggestion) (string, string) {
	var src, tests []*fileInfo
	for _, fi := range infos {
		switch fi.cat {
		case catSource:
			src = append(src, fi)
		case catTest:
			tests = append(tests, fi)
		}
	}
	if len(src) == 0 {
		// Tests with build, deps or CI files: the tests say what it is.
		s.Reasons = append(s.Reasons, "type test: tests changed with supporting files, no source")
		return "test", testSubject(tests)
	}
	// Whitespace only.
	wsOnly := true
	for _, fi := range src {
		removed, added := fi.sides()
		if fi.Status != Modified || !sameIgnoringSpace(removed, added) {
			wsOnly = false
			break
		}
	}
	if wsOnly {
		s.Reasons = append(s.Reasons, "type style: the source lines differ only in white space")
		return "style", "format " + namesOf(src, 2)
	}
	// Only comments changed: documentation.
	if commentOnly(src) {
		s.Reasons = append(s.Reasons, "type docs: every changed source line is a comment or blank")
		return "docs", "document " + orFiles(hunkFuncs(src), src)
	}
	// Signals.
	var fix, perf, ref, feat, guards float64
	option := false
	var fixWhy, perfWhy, refWhy, featWhy []string
	srcChanged := 0
	newFiles := 0
	movedFrom := movedCode(infos)
	for _, fi := range src {
		srcChanged += fi.Added + fi.Removed
		if fi.Status == Added && fi.Added > 0 {
			switch {
			case movedFrom[fi.Path()]:
				ref += 2
				refWhy = append(refWhy, fi.Path()+" holds code moved from other files")
			case lang(fi.Path()) == "":
				newFiles++ // no API reader for it: the file itself is the news
			}
		}
		if fi.Status == Renamed {
			ref += 2
			refWhy = append(refWhy, "renamed "+fi.OldPath)
		}
		removed, added := fi.sides()
		guarded, cached := false, false
		if c := changedCondition(fi.FileDiff); c != "" {
			fix++
			fixWhy = append(fixWhy, fmt.Sprintf("a condition changed in %s (%s)", fi.Path(), clip(c, 40)))
		}
		if c := nullSafety(removed, added); c != "" {
			fix++
			fixWhy = append(fixWhy, fmt.Sprintf("null-safe access added in %s (%s)", fi.Path(), clip(c, 40)))
		}
		if f := newOption(added); f != "" {
			feat++
			option = true
			featWhy = append(featWhy, fmt.Sprintf("a command-line option added in %s (%s)", fi.Path(), clip(f, 40)))
		}
		for _, l := range added {
			if !cached && !isComment(l) && perfCodeRE().MatchString(l) {
				cached = true
				perf += 2
				perfWhy = append(perfWhy, fmt.Sprintf("%s added in %s", perfCodeRE().FindString(l), fi.Path()))
			}
			if isComment(l) || hasString(l) {
				if m := fixWordRE().FindString(l); m != "" {
					fix++
					fixWhy = append(fixWhy, fmt.Sprintf("%q in %s", strings.ToLower(m), fi.Path()))
				}
				if m := perfWordRE().FindString(l); m != "" {
					perf++
					perfWhy = append(perfWhy, fmt.Sprintf("%q in %s", m, fi.Path()))
				}
				if m := refWordRE().FindString(l); m != "" && isComment(l) {
					ref += 0.5
				}
			}
			if guardRE().MatchString(l) && !guarded && guards < 1 {
				guarded = true
				// An error or bounds check added to a small edit of an
				// existing function is most often the fix itself.
				w := 0.5
				if fi.Status == Modified && fi.Added+fi.Removed <= 12 {
					w = 1
				}
				w = min(w, 1-guards) // error checks come with any new code: at most one point in all
				guards += w
				fix += w
				fixWhy = append(fixWhy, "a guard added in "+fi.Path())
			}
			if strings.Contains(l, "sync.Pool") || preallocRE().MatchString(l) || strings.Contains(l, ".Grow(") {
				perf++
				perfWhy = append(perfWhy, "preallocation or pooling in "+fi.Path())
			}
		}
		// A change that mostly replaces lines in place, in existing
		// functions, reads as a fix; a large net removal as a cleanup.
		if fi.Status == Modified && len(removed) > 20 && len(added) < len(removed)/2 {
			ref++
			refWhy = append(refWhy, fmt.Sprintf("%s shrank by %d lines", fi.Path(), len(removed)-len(added)))
		}
	}
	for _, fi := range tests {
		_, added := fi.sides()
		for _, l := range added {
			if m := goTestRE().FindStringSubmatch(l); m != nil && regTestRE().MatchString(m[2]) {
				fix += testWeight(m[2])
				fixWhy = append(fixWhy, "test "+m[1]+m[2]+" added")
			} else if m := pyTestRE().FindStringSubmatch(l); m != nil && regTestRE().MatchString(m[1]) {
				fix += testWeight(m[1])
				fixWhy = append(fixWhy, "test test_"+m[1]+" added")
			} else if m := jsTestRE().FindStringSubmatch(l); m != nil && regTestRE().MatchString(m[1]) {
				fix += testWeight(m[1])
				fixWhy = append(fixWhy, fmt.Sprintf("test %q added", m[1]))
			}
			if benchAddRE().MatchString(l) {
				perf++
				perfWhy = append(perfWhy, "a benchmark added")
			}
		}
	}
	// Code changed with its user documentation (not the changelog): the
	// behavior people use changed, the way features are written.
	for _, fi := range infos {
		if fi.cat == catDocs && !strings.HasPrefix(strings.ToLower(path.Base(fi.Path())), "changelog") {
			feat += 1.5
			featWhy = append(featWhy, "documentation updated with the code ("+fi.Path()+")")
			break
		}
	}
	if len(tests) > 0 && srcChanged <= 30 && api.weight < 1 && feat == 0 {
		fix++
		fixWhy = append(fixWhy, fmt.Sprintf("a small source change (%d lines) with tests", srcChanged))
	}
	if len(api.renames) > 0 {
		ref += 2
		refWhy = append(refWhy, "renamed "+strings.Join(clipList(api.renames, 2), ", "))
	}
	newAPI := api.weight + float64(newFiles) + feat
	funcs := hunkFuncs(src)
	added, removedN := 0, 0
	for _, fi := range src {
		if !isCode(fi.Path()) {
			continue
		}
		added += fi.Added
		removedN += fi.Removed
	}

	switch {
	case newAPI >= 1 && !(fix >= 3 && newAPI <= 1.5):
		what := api.added
		if len(what) == 0 {
			for _, fi := range src {
				if fi.Status == Added {
					what = append(what, strings.TrimSuffix(path.Base(fi.Path()), path.Ext(fi.Path())))
				}
			}
		}
		if len(what) == 0 && len(featWhy) > 0 {
			s.Reasons = append(s.Reasons, "type feat: "+strings.Join(clipList(uniq(featWhy), 2), "; "))
			if option {
				return "feat", "add " + orFiles(funcs, src) + " option"
			}
			return "feat", "extend " + orFiles(funcs, src)
		}
		s.Reasons = append(s.Reasons, fmt.Sprintf("type feat: new API (%s)", strings.Join(clipList(what, 4), ", ")))
		if len(what) > 3 {
			what = append(slices.Clone(what[:2]), fmt.Sprintf("%d more", len(what)-2))
		}
		return "feat", "add " + joinAnd(what)
	case perf >= 2 && perf > fix:
		s.Reasons = append(s.Reasons, "type perf: "+strings.Join(clipList(uniq(perfWhy), 3), "; "))
		return "perf", "speed up " + orFiles(funcs, src)
	case fix >= 1 && fix >= ref && (fix >= 2 || len(api.changedNames())+len(api.removedNames()) == 0):
		s.Reasons = append(s.Reasons, "type fix: "+strings.Join(clipList(uniq(fixWhy), 3), "; "))
		return "fix", "fix " + orFiles(funcs, src)
	}
	if ref == 0 && removedN > 0 && added > 0 && added+removedN <= 6 && len(api.removedNames()) == 0 && !slices.ContainsFunc(src, func(fi *fileInfo) bool { return fi.Status != Modified }) {
		s.Reasons = append(s.Reasons, fmt.Sprintf("type fix: a small in-place edit of existing code (+%d -%d), the usual shape of a fix", added, removedN))
		return "fix", "fix " + orFiles(funcs, src)
	}
	if ref == 0 && added >= 10 && added > 3*removedN {
		s.Reasons = append(s.Reasons, fmt.Sprintf("type feat: code added to existing functions (+%d -%d) with no sign of a fix or a restructuring", added, removedN))
		return "feat", "extend " + orFiles(funcs, src)
	}
	why := "no new API and no sign of a fix"
	if len(refWhy) > 0 {
		why = strings.Join(clipList(uniq(refWhy), 3), "; ")
	}
	s.Reasons = append(s.Reasons, "type refactor: "+why)
	if len(api.renames) > 0 {
		return "refactor", "rename " + joinAnd(clipList(api.renames, 1))
	}
	if changed := api.changedNames(); len(changed) > 0 && len(api.removedNames()) == 0 {
		word := "signature"
		if len(changed) > 1 {
			word = "signatures"
		}
		return "refactor", "change " + joinAnd(clipList(changed, 2)) + " " + word
	}
	if gone := api.removedNames(); len(gone) > 0 {
		return "refactor", "remove " + joinAnd(clipList(gone, 2))
	}
	return "refactor", "restructure " + orFiles(funcs, src)
}

func orFiles(funcs []string, src []*fileInfo) string {
	if len(funcs) > 0 {
		if len(funcs) > 2 {
			return fmt.Sprintf("%s, %s and %d more", funcs[0], funcs[1], len(funcs)-2)
		}
		return joinAnd(funcs)
	}
	return namesOf(src, 2)
}

// hunkFuncs names the functions the hunks are in, from git's hunk
// headers ("@@ -1,2 +1,3 @@ func (p *Parser) Next() error").
func hunkFuncs(src []*fileInfo) []string {
	var out []string
	for _, fi := range src {
		for _, n := range changedFuncs(fi) {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, fi := range src {
		for _, h := range fi.Hunks {
			m := funcCtxRE().FindStringSubmatch(h.Section)
			if m == nil {
				continue
			}
			name := ""
			switch {
			case m[2] != "":
				name = m[2]
				if m[1] != "" {
					name = m[1] + "." + m[2]
				}
			case m[3] != "":
				name = m[3]
			case m[4] != "":
				name = m[4]
			case m[5] != "":
				name = m[5]
			case m[6] != "" && !slices.Contains([]string{"if", "for", "while", "switch", "catch", "function"}, m[6]):
				name = m[6]
			}
			if name != "" && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}

var preallocRE = check.LazyRegexp(`make\([^,]+,\s*0\s*,`)

var perfCodeRE = check.LazyRegexp(`\b(lru_cache|functools\.cache|cached_property|useMemo|useCallback|React\.memo|sync\.Pool|singleflight|memoize|memoized|debounce|throttle|requestAnimationFrame|lazy_static|OnceCell|sync\.Once)\b|@cache\b`)

// commentOnly is true when every changed line of the files is blank or a
// line comment (//, #, /* ... */ continuation lines).
func commentOnly(src []*fileInfo) bool {
	seen := false
	for _, fi := range src {
		if fi.Status != Modified {
			return false
		}
		removed, added := fi.sides()
		for _, l := range append(removed, added...) {
			t := strings.TrimSpace(l)
			if t == "" {
				continue
			}
			seen = true
			switch lang(fi.Path()) {
			case "py":
				if !strings.HasPrefix(t, "#") {
					return false
				}
			case "":
				return false
			default:
				if !(strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*")) {
					return false
				}
			}
		}
	}
	return seen
}

// condLine is a line whose change alters control flow.
var condLine = check.LazyRegexp(`^\s*(if|for|while|elif|else if|\} else if|case|switch|until|unless)\b|\s(<|>|<=|>=|==|!=|===|!==|&&|\|\|)\s`)

// changedCondition finds a line replaced in place (a run of at most three
// removed lines followed by as many added ones) where a condition or a
// comparison changed: the shape of most one-line bug fixes. It returns the
// new line, or "".
func changedCondition(f *FileDiff) string {
	for _, h := range f.Hunks {
		for i := 0; i < len(h.Lines); {
			j := i
			for j < len(h.Lines) && h.Lines[j][0] == '-' {
				j++
			}
			k := j
			for k < len(h.Lines) && h.Lines[k][0] == '+' {
				k++
			}
			if nr, na := j-i, k-j; nr > 0 && nr == na && nr <= 3 {
				for x := 0; x < nr; x++ {
					o, n := h.Lines[i+x][1:], h.Lines[j+x][1:]
					if o != n && condLine().MatchString(o) && condLine().MatchString(n) && !isComment(n) && similar(o, n) && !renameOnly(o, n) {
						return strings.TrimSpace(n)
					}
				}
			}
			if k == i {
				k++
			}
			i = k
		}
	}
	return ""
}

var tokenRE = check.LazyRegexp(`\w+|[^\s\w]+`)

// renameOnly is true when two lines differ only in identifiers put in
// place of others (a renamed call), not in an operator, a literal or a
// clause.
func renameOnly(a, b string) bool {
	ta, tb := tokenRE().FindAllString(a, -1), tokenRE().FindAllString(b, -1)
	if len(ta) != len(tb) {
		return false
	}
	for i := range ta {
		if ta[i] == tb[i] {
			continue
		}
		if !isIdent(ta[i]) || !isIdent(tb[i]) {
			return false
		}
	}
	return true
}

func isIdent(t string) bool {
	if t == "" || t[0] >= '0' && t[0] <= '9' {
		return false
	}
	for _, r := range t {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// similar is true when two lines share most of their words: an edit of
// one line, not a line replaced by another.
func similar(a, b string) bool {
	wa, wb := strings.Fields(a), strings.Fields(b)
	if len(wa) == 0 || len(wb) == 0 {
		return false
	}
	same := 0
	for _, w := range wa {
		if slices.Contains(wb, w) {
			same++
		}
	}
	return 2*same >= max(len(wa), len(wb))
}

// testWeight is how much a test's name says a bug was fixed.
func testWeight(name string) float64 {
	if strongTestRE().MatchString(name) {
		return 1.5
	}
	return 0.5
}

// isCode is true for a program's source, not markup, styles or data.
func isCode(p string) bool {
	switch path.Ext(p) {
	case ".html", ".css", ".scss", ".sql", ".proto", ".graphql", "":
		return false
	}
	return slices.Contains(srcExt, path.Ext(p))
}

// movedCode reports the added files whose lines were mostly removed from
// other files of the diff: code moved, not written.
func movedCode(infos []*fileInfo) map[string]bool {
	gone := map[string]int{}
	for _, fi := range infos {
		removed, _ := fi.sides()
		for _, l := range removed {
			if t := strings.TrimSpace(l); len(t) > 3 {
				gone[t]++
			}
		}
	}
	out := map[string]bool{}
	for _, fi := range infos {
		if fi.Status != Added {
			continue
		}
		_, added := fi.sides()
		total, seen := 0, 0
		for _, l := range added {
			t := strings.TrimSpace(l)
			if len(t) <= 3 || strings.HasPrefix(t, "package ") || strings.HasPrefix(t, "import") {
				continue
			}
			total++
			if gone[t] > 0 {
				gone[t]--
				seen++
			}
		}
		if total > 0 && 10*seen >= 6*total {
			out[fi.Path()] = true
		}
	}
	return out
}

// nullSafety finds an added line that reads a value null-safely (?.,
// ??, getattr with a default, .get(...)) where the removed lines did not.
func nullSafety(removed, added []string) string {
	had := strings.Join(removed, "\n")
	for _, l := range added {
		if isComment(l) {
			continue
		}
		for _, tok := range []string{"?.", " ?? ", "getattr(", ".get("} {
			if strings.Contains(l, tok) && !strings.Contains(had, tok) && len(removed) > 0 {
				return strings.TrimSpace(l)
			}
		}
	}
	return ""
}

// optionRE is a command-line option declared: Go's flag and pflag/cobra,
// Python's argparse and click, JS commander and yargs.
var optionRE = check.LazyRegexp(`\bflag\.(Bool|String|Int|Int64|Duration|Float64|Uint|Var|StringVar|BoolVar|IntVar|DurationVar)\(|Flags\(\)\.\w+\(|\.add_argument\(\s*["']--|@click\.option\(|\.option\(\s*["']-`)

func newOption(added []string) string {
	for _, l := range added {
		if !isComment(l) && optionRE().MatchString(l) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

func isComment(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*") || strings.HasPrefix(t, `"""`) || strings.Contains(l, " // ") || strings.Contains(l, " # ")
}

func hasString(l string) bool {
	return strings.Count(l, `"`) >= 2 || strings.Count(l, "'") >= 2 || strings.Count(l, "`") >= 2
}

// sameIgnoringSpace is true when removed and added hold the same lines
// once white space is removed.
func sameIgnoringSpace(removed, added []string) bool {
	// Formatters also change quote style and trailing commas (black,
	// prettier): those count as formatting too.
	squash := func(ls []string) string {
		var b strings.Builder
		for _, l := range ls {
			for _, r := range l {
				switch r {
				case ' ', '\t', '\r':
				case '\'':
					b.WriteRune('"')
				default:
					b.WriteRune(r)
				}
			}
		}
		return strings.NewReplacer(",}", "}", ",]", "]", ",)", ")").Replace(b.String())
	}
	return len(removed)+len(added) > 0 && squash(removed) == squash(added)
}
