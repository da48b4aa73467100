package models

import (
	"fmt"
	"strconv"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// Git graphs, after gitGraph.langium, and the checks gitGraphAst makes as
// it replays the statements: a branch created twice, a checkout or merge
// of a branch that does not exist, a merge of a branch into itself or of
// a branch with no commits, a cherry-pick of a commit that is not there.

func gitGraphLexer(t string) *syntax.LangLexer {
	keywords := []string{"gitGraph", "gitGraph:", ":", "LR", "TB", "BT", "commit", "id:", "msg:", "tag:", "type:", "NORMAL",
		"REVERSE", "HIGHLIGHT", "branch", "order:", "merge", "checkout", "switch", "cherry-pick", "parent:"}
	terms := append(syntax.CommonTerms("ACC_DESCR", "ACC_TITLE", "TITLE", "INT", "STRING", "NEWLINE"),
		syntax.LangTerm{Name: "REFERENCE", Match: matchReference})
	return syntax.NewLangLexer(t, keywords, []string{"gitGraph"}, terms, matchReference)
}

// matchReference is \w([-\./\w]*[-\w])?.
func matchReference(t string, i int) int {
	if !syntax.IsWordByte(t[i]) {
		return -1
	}
	j, end := i+1, i+1
	for j < len(t) && (syntax.IsWordByte(t[j]) || t[j] == '-' || t[j] == '.' || t[j] == '/') {
		j++
		if c := t[j-1]; syntax.IsWordByte(c) || c == '-' {
			end = j
		}
	}
	return end
}

type gitParser struct {
	syntax.LangParser
	code syntax.Src
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

// ParseGitGraph checks the code of a diagram of its type, reporting what it finds to d.
func ParseGitGraph(d *syntax.Diagram, code syntax.Src) {
	main := "main"
	if v, ok := d.Setting("gitGraph", "mainBranchName"); ok && v != "" {
		main = v
	}
	p := &gitParser{LangParser: syntax.LangParser{Parser: syntax.NewParser(d, code, gitGraphLexer(code.Text))}, code: code,
		main: main, branches: map[string]string{main: ""}, curr: main, commits: map[string]gitCommit{}}
	p.Hint = p.LangHint
	syntax.RunParse(p.start)
}

func (p *gitParser) start() {
	for p.At("NEWLINE") {
		p.Take()
	}
	switch {
	case p.At("gitGraph:"):
		p.Take()
	case p.At("gitGraph"):
		p.Take()
		if p.At("LR", "TB", "BT") {
			p.Take()
			p.Expect(":", "a colon after the direction (gitGraph LR:)")
		} else {
			p.Accept(":")
		}
	default:
		p.Fail("gitGraph")
	}
	for !p.At(syntax.TokEOF) {
		switch {
		case p.At("NEWLINE"):
			p.Take()
		case p.TitleAndAccessibilities():
		default:
			p.statement()
		}
	}
}

func (p *gitParser) statement() {
	kw := p.Peek(0)
	switch kw.Kind {
	case "commit":
		p.Take()
		id, _ := p.options(map[string]bool{"id:": true, "msg:": true, "tag:": true, "type:": true}, true)
		p.Eol()
		p.commit(kw, id)
	case "branch":
		p.Take()
		name := p.ref("the new branch's name")
		if _, ok := p.Accept("order:"); ok {
			p.Expect("INT", "the branch's order, a whole number")
		}
		p.Eol()
		p.branch(name)
	case "merge":
		p.Take()
		name := p.ref("the branch to merge")
		id, _ := p.options(map[string]bool{"id:": true, "tag:": true, "type:": true}, false)
		p.Eol()
		p.merge(name, id)
	case "checkout", "switch":
		p.Take()
		name := p.ref("the branch to check out")
		p.Eol()
		p.checkout(name)
	case "cherry-pick":
		p.Take()
		id, parent := p.options(map[string]bool{"id:": true, "tag:": true, "parent:": true}, false)
		p.Eol()
		p.cherryPick(kw, id, parent)
	default:
		p.Fail("commit, branch, merge, checkout or cherry-pick")
	}
}

// ref is a branch name: a REFERENCE or a STRING.
func (p *gitParser) ref(what string) syntax.Token {
	if !p.At("REFERENCE", "STRING") {
		p.Fail(what)
	}
	t := p.Take()
	if t.Kind == "STRING" {
		t.Val = syntax.Unquote(t.Val)
	}
	return t
}

// options reads a statement's id:, msg:, tag:, type: and parent: options;
// bare strings are a commit's message when bare is set.
func (p *gitParser) options(allowed map[string]bool, bare bool) (id, parent *syntax.Token) {
	for {
		t := p.Peek(0)
		switch {
		case bare && t.Kind == "STRING":
			p.Take()
		case allowed[t.Kind]:
			p.Take()
			if t.Kind == "type:" {
				if !p.At("NORMAL", "REVERSE", "HIGHLIGHT") {
					p.Fail("NORMAL, REVERSE or HIGHLIGHT after type:")
				}
				p.Take()
				continue
			}
			v := p.Expect("STRING", "a value in double quotes after "+t.Kind)
			v.Val = syntax.Unquote(v.Val)
			switch t.Kind {
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

func (p *gitParser) report(at syntax.Token, msg string) {
	from, last := syntax.TokenSpan(p.code.Text, at)
	p.D.Report(syntax.RuleGitGraph, p.code, from, last, msg, "fix the operation; Mermaid refuses the whole graph otherwise")
}

func (p *gitParser) newID(custom *syntax.Token) string {
	p.seq++
	if custom != nil {
		return custom.Val
	}
	return strconv.Itoa(p.seq) + "-auto"
}

func (p *gitParser) commit(kw syntax.Token, id *syntax.Token) {
	parents := []string{}
	if h := p.branches[p.curr]; h != "" {
		parents = append(parents, h)
	}
	cid := p.newID(id)
	if _, dup := p.commits[cid]; dup && id != nil {
		p.D.Report(syntax.RuleDuplicate, p.code, id.From, id.To-1, fmt.Sprintf("commit id %s is used again; Mermaid keeps only the last commit of that id", syntax.QuoteShort(cid)),
			"give each commit its own id")
	}
	p.commits[cid] = gitCommit{branch: p.curr, parents: parents}
	p.branches[p.curr] = cid
}

func (p *gitParser) branch(name syntax.Token) {
	if _, ok := p.branches[name.Val]; ok {
		p.report(name, fmt.Sprintf("branch %s already exists, and Mermaid refuses to create it again (use checkout %s)", syntax.QuoteShort(name.Val), name.Val))
	}
	p.branches[name.Val] = p.branches[p.curr]
	p.curr = name.Val
}

func (p *gitParser) checkout(name syntax.Token) {
	if _, ok := p.branches[name.Val]; !ok {
		p.report(name, fmt.Sprintf("branch %s does not exist (yet), and Mermaid refuses to check it out; create it first with branch %s",
			syntax.QuoteShort(name.Val), name.Val)+p.branchHint(name.Val))
		return
	}
	p.curr = name.Val
}

func (p *gitParser) branchHint(name string) string {
	known := map[string]bool{}
	for b := range p.branches {
		known[b] = true
	}
	return syntax.NearestHint(name, known)
}

func (p *gitParser) merge(name syntax.Token, id *syntax.Token) {
	cur, other := p.branches[p.curr], p.branches[name.Val]
	_, exists := p.branches[name.Val]
	var msg string
	switch {
	case cur != "" && other != "" && p.commits[cur].branch == name.Val, p.curr == name.Val:
		msg = fmt.Sprintf("merge %s merges the branch into itself (it is the current branch)", name.Val)
	case cur == "":
		msg = fmt.Sprintf("merge %s: the current branch %s has no commits yet", name.Val, syntax.QuoteShort(p.curr))
	case !exists:
		msg = fmt.Sprintf("merge %s: there is no branch %s", name.Val, syntax.QuoteShort(name.Val)) + p.branchHint(name.Val)
	case other == "":
		msg = fmt.Sprintf("merge %s: that branch has no commits yet", name.Val)
	case cur == other:
		msg = fmt.Sprintf("merge %s: both branches point at the same commit, so there is nothing to merge", name.Val)
	case id != nil && p.commits[id.Val].branch != "":
		msg = fmt.Sprintf("merge %s: a commit with id %s already exists", name.Val, syntax.QuoteShort(id.Val))
	}
	if msg != "" {
		p.report(name, msg+", which Mermaid refuses")
		return
	}
	cid := p.newID(id)
	p.commits[cid] = gitCommit{branch: p.curr, merge: true, parents: []string{cur, other}}
	p.branches[p.curr] = cid
}

func (p *gitParser) cherryPick(kw syntax.Token, id, parent *syntax.Token) {
	at := kw
	if id != nil {
		at = *id
	}
	if id == nil {
		p.report(at, "cherry-pick needs the id: of the commit to pick, which Mermaid refuses to do without")
		return
	}
	src, ok := p.commits[id.Val]
	var msg string
	switch {
	case !ok:
		msg = fmt.Sprintf("cherry-pick: there is no commit with id %s", syntax.QuoteShort(id.Val))
	case parent != nil && !contains(src.parents, parent.Val):
		msg = fmt.Sprintf("cherry-pick: %s is not a parent of commit %s", syntax.QuoteShort(parent.Val), syntax.QuoteShort(id.Val))
	case src.merge && parent == nil:
		msg = fmt.Sprintf("cherry-pick: commit %s is a merge, so the parent: to pick must be given", syntax.QuoteShort(id.Val))
	case src.branch == p.curr:
		msg = fmt.Sprintf("cherry-pick: commit %s is already on the current branch %s", syntax.QuoteShort(id.Val), syntax.QuoteShort(p.curr))
	case p.branches[p.curr] == "":
		msg = fmt.Sprintf("cherry-pick: the current branch %s has no commits yet", syntax.QuoteShort(p.curr))
	}
	if msg != "" {
		p.report(at, msg+", which Mermaid refuses")
		return
	}
	cid := p.newID(nil)
	p.commits[cid] = gitCommit{branch: p.curr, parents: []string{p.branches[p.curr], id.Val}}
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
