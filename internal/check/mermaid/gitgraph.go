package mermaid

import (
	"fmt"
	"strconv"
)

// Git graphs, after gitGraph.langium, and the checks gitGraphAst makes as
// it replays the statements: a branch created twice, a checkout or merge
// of a branch that does not exist, a merge of a branch into itself or of
// a branch with no commits, a cherry-pick of a commit that is not there.

func gitGraphLexer(t string) *langLexer {
	keywords := []string{"gitGraph", "gitGraph:", ":", "LR", "TB", "BT", "commit", "id:", "msg:", "tag:", "type:", "NORMAL",
		"REVERSE", "HIGHLIGHT", "branch", "order:", "merge", "checkout", "switch", "cherry-pick", "parent:"}
	terms := append(commonTerms("ACC_DESCR", "ACC_TITLE", "TITLE", "INT", "STRING", "NEWLINE"),
		langTerm{name: "REFERENCE", match: matchReference})
	return newLangLexer(t, keywords, []string{"gitGraph"}, terms, matchReference)
}

// matchReference is \w([-\./\w]*[-\w])?.
func matchReference(t string, i int) int {
	if !isWordByte(t[i]) {
		return -1
	}
	j, end := i+1, i+1
	for j < len(t) && (isWordByte(t[j]) || t[j] == '-' || t[j] == '.' || t[j] == '/') {
		j++
		if c := t[j-1]; isWordByte(c) || c == '-' {
			end = j
		}
	}
	return end
}

type gitParser struct {
	langParser
	code src
	// The replay of gitGraphAst: branches to their head commit ("" none).
	main     string
	branches map[string]string
	curr     string
	commits  map[string]gitCommit
	seq      int
}

type gitCommit struct {
	branch  string
	merge   bool
	parents []string
}

func parseGitGraph(d *diagram, code src) {
	main := "main"
	if v, ok := d.setting("gitGraph", "mainBranchName"); ok && v != "" {
		main = v
	}
	p := &gitParser{langParser: langParser{newParser(d, code, gitGraphLexer(code.text))}, code: code,
		main: main, branches: map[string]string{main: ""}, curr: main, commits: map[string]gitCommit{}}
	p.hint = p.langHint
	runParse(p.start)
}

func (p *gitParser) start() {
	for p.at("NEWLINE") {
		p.take()
	}
	switch {
	case p.at("gitGraph:"):
		p.take()
	case p.at("gitGraph"):
		p.take()
		if p.at("LR", "TB", "BT") {
			p.take()
			p.expect(":", "a colon after the direction (gitGraph LR:)")
		} else {
			p.accept(":")
		}
	default:
		p.fail("gitGraph")
	}
	for !p.at(tokEOF) {
		switch {
		case p.at("NEWLINE"):
			p.take()
		case p.titleAndAccessibilities():
		default:
			p.statement()
		}
	}
}

func (p *gitParser) statement() {
	kw := p.peek(0)
	switch kw.kind {
	case "commit":
		p.take()
		id, _ := p.options(map[string]bool{"id:": true, "msg:": true, "tag:": true, "type:": true}, true)
		p.eol()
		p.commit(kw, id)
	case "branch":
		p.take()
		name := p.ref("the new branch's name")
		if _, ok := p.accept("order:"); ok {
			p.expect("INT", "the branch's order, a whole number")
		}
		p.eol()
		p.branch(name)
	case "merge":
		p.take()
		name := p.ref("the branch to merge")
		id, _ := p.options(map[string]bool{"id:": true, "tag:": true, "type:": true}, false)
		p.eol()
		p.merge(name, id)
	case "checkout", "switch":
		p.take()
		name := p.ref("the branch to check out")
		p.eol()
		p.checkout(name)
	case "cherry-pick":
		p.take()
		id, parent := p.options(map[string]bool{"id:": true, "tag:": true, "parent:": true}, false)
		p.eol()
		p.cherryPick(kw, id, parent)
	default:
		p.fail("commit, branch, merge, checkout or cherry-pick")
	}
}

// ref is a branch name: a REFERENCE or a STRING.
func (p *gitParser) ref(what string) token {
	if !p.at("REFERENCE", "STRING") {
		p.fail(what)
	}
	t := p.take()
	if t.kind == "STRING" {
		t.val = unquote(t.val)
	}
	return t
}

// options reads a statement's id:, msg:, tag:, type: and parent: options;
// bare strings are a commit's message when bare is set.
func (p *gitParser) options(allowed map[string]bool, bare bool) (id, parent *token) {
	for {
		t := p.peek(0)
		switch {
		case bare && t.kind == "STRING":
			p.take()
		case allowed[t.kind]:
			p.take()
			if t.kind == "type:" {
				if !p.at("NORMAL", "REVERSE", "HIGHLIGHT") {
					p.fail("NORMAL, REVERSE or HIGHLIGHT after type:")
				}
				p.take()
				continue
			}
			v := p.expect("STRING", "a value in double quotes after "+t.kind)
			v.val = unquote(v.val)
			switch t.kind {
			case "id:":
				id = &v
			case "parent:":
				parent = &v
			}
		default:
			return id, parent
		}
	}
}

func (p *gitParser) report(at token, msg string) {
	from, last := tokenSpan(p.code.text, at)
	p.d.report(ruleGitGraph, p.code, from, last, msg, "fix the operation; Mermaid refuses the whole graph otherwise")
}

func (p *gitParser) newID(custom *token) string {
	p.seq++
	if custom != nil {
		return custom.val
	}
	return strconv.Itoa(p.seq) + "-auto"
}

func (p *gitParser) commit(kw token, id *token) {
	parents := []string{}
	if h := p.branches[p.curr]; h != "" {
		parents = append(parents, h)
	}
	cid := p.newID(id)
	if _, dup := p.commits[cid]; dup && id != nil {
		p.d.report(ruleDuplicate, p.code, id.from, id.to-1, fmt.Sprintf("commit id %s is used again; Mermaid keeps only the last commit of that id", quoteShort(cid)),
			"give each commit its own id")
	}
	p.commits[cid] = gitCommit{branch: p.curr, parents: parents}
	p.branches[p.curr] = cid
}

func (p *gitParser) branch(name token) {
	if _, ok := p.branches[name.val]; ok {
		p.report(name, fmt.Sprintf("branch %s already exists, and Mermaid refuses to create it again (use checkout %s)", quoteShort(name.val), name.val))
	}
	p.branches[name.val] = p.branches[p.curr]
	p.curr = name.val
}

func (p *gitParser) checkout(name token) {
	if _, ok := p.branches[name.val]; !ok {
		p.report(name, fmt.Sprintf("branch %s does not exist (yet), and Mermaid refuses to check it out; create it first with branch %s",
			quoteShort(name.val), name.val)+p.branchHint(name.val))
		return
	}
	p.curr = name.val
}

func (p *gitParser) branchHint(name string) string {
	known := map[string]bool{}
	for b := range p.branches {
		known[b] = true
	}
	return nearestHint(name, known)
}

func (p *gitParser) merge(name token, id *token) {
	cur, other := p.branches[p.curr], p.branches[name.val]
	_, exists := p.branches[name.val]
	var msg string
	switch {
	case cur != "" && other != "" && p.commits[cur].branch == name.val, p.curr == name.val:
		msg = fmt.Sprintf("merge %s merges the branch into itself (it is the current branch)", name.val)
	case cur == "":
		msg = fmt.Sprintf("merge %s: the current branch %s has no commits yet", name.val, quoteShort(p.curr))
	case !exists:
		msg = fmt.Sprintf("merge %s: there is no branch %s", name.val, quoteShort(name.val)) + p.branchHint(name.val)
	case other == "":
		msg = fmt.Sprintf("merge %s: that branch has no commits yet", name.val)
	case cur == other:
		msg = fmt.Sprintf("merge %s: both branches point at the same commit, so there is nothing to merge", name.val)
	case id != nil && p.commits[id.val].branch != "":
		msg = fmt.Sprintf("merge %s: a commit with id %s already exists", name.val, quoteShort(id.val))
	}
	if msg != "" {
		p.report(name, msg+", which Mermaid refuses")
		return
	}
	cid := p.newID(id)
	p.commits[cid] = gitCommit{branch: p.curr, merge: true, parents: []string{cur, other}}
	p.branches[p.curr] = cid
}

func (p *gitParser) cherryPick(kw token, id, parent *token) {
	at := kw
	if id != nil {
		at = *id
	}
	if id == nil {
		p.report(at, "cherry-pick needs the id: of the commit to pick, which Mermaid refuses to do without")
		return
	}
	src, ok := p.commits[id.val]
	var msg string
	switch {
	case !ok:
		msg = fmt.Sprintf("cherry-pick: there is no commit with id %s", quoteShort(id.val))
	case parent != nil && !contains(src.parents, parent.val):
		msg = fmt.Sprintf("cherry-pick: %s is not a parent of commit %s", quoteShort(parent.val), quoteShort(id.val))
	case src.merge && parent == nil:
		msg = fmt.Sprintf("cherry-pick: commit %s is a merge, so the parent: to pick must be given", quoteShort(id.val))
	case src.branch == p.curr:
		msg = fmt.Sprintf("cherry-pick: commit %s is already on the current branch %s", quoteShort(id.val), quoteShort(p.curr))
	case p.branches[p.curr] == "":
		msg = fmt.Sprintf("cherry-pick: the current branch %s has no commits yet", quoteShort(p.curr))
	}
	if msg != "" {
		p.report(at, msg+", which Mermaid refuses")
		return
	}
	cid := p.newID(nil)
	p.commits[cid] = gitCommit{branch: p.curr, parents: []string{p.branches[p.curr], id.val}}
	p.branches[p.curr] = cid
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
