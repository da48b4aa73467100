package gantt

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"

	"github.com/cairn-dev/cairn/internal/check"
)

// Gantt charts: a lexer and parser after gantt.jison (case-insensitive;
// one statement a line: keywords, sections, "Task : data" lines, clicks),
// then the checks ganttDb makes when it lays the tasks out: each task's
// data is [tags,] [id,] [start,] end; a start is a date in the chart's
// dateFormat or "after id..."; an end is a date, a duration (3d, 2w, 5h)
// or "until id...".

type ganttState uint8

const (
	gsInitial ganttState = iota
	gsAccTitle
	gsAccDescr
	gsAccDescrMulti
	gsHref
	gsCallbackName
	gsCallbackArgs
	gsClick
)

// gsAcc are the states of the accessibility statements' values.
var gsAcc = syntax.AccStates[ganttState]{Title: gsAccTitle, Descr: gsAccDescr, Multi: gsAccDescrMulti}

type ganttLexer struct {
	syntax.Scanner[ganttState]
}

func (l *ganttLexer) Next() syntax.Token {
	for {
		st := l.State()
		if l.Pos >= len(l.Src) {
			if l.EOFSent {
				return syntax.Token{Kind: syntax.TokEOF, From: l.Pos, To: l.Pos}
			}
			l.EOFSent = true
			kind := map[ganttState]string{gsInitial: "EOF", gsAccTitle: "acc_title_value", gsAccDescr: "acc_descr_value",
				gsAccDescrMulti: "acc_descr_multiline_value", gsHref: "href", gsCallbackName: "callbackname",
				gsCallbackArgs: "callbackargs", gsClick: "click"}[st]
			return syntax.Token{Kind: kind, From: l.Pos, To: l.Pos}
		}
		if tok, ok := l.lexOne(st); ok {
			return tok
		}
	}
}

func (l *ganttLexer) lexOne(st ganttState) (syntax.Token, bool) {
	if tok, emit, ok := l.AccValue(gsAcc, st); ok {
		return tok, emit
	}
	t, i := l.Src, l.Pos
	switch st {
	case gsHref:
		if t[i] == '"' {
			l.Pos++
			l.Pop()
			return syntax.Token{}, false
		}
		return l.Tok("href", syntax.IndexByteFrom(t, i, '"')), true
	case gsCallbackName:
		if t[i] == '(' {
			l.Pop()
			if j := syntax.SkipJSSpace(t, i+1); j < len(t) && t[j] == ')' {
				l.Pos = j + 1
				return syntax.Token{}, false
			}
			l.Pos = i + 1
			l.Push(gsCallbackArgs)
			return syntax.Token{}, false
		}
		return l.Tok("callbackname", syntax.IndexByteFrom(t, i, '(')), true
	case gsCallbackArgs:
		if t[i] == ')' {
			l.Pos++
			l.Pop()
			return syntax.Token{}, false
		}
		return l.Tok("callbackargs", syntax.IndexByteFrom(t, i, ')')), true
	case gsClick:
		if syntax.IsJSSpaceByte(t[i]) {
			l.Pos++
			l.Pop()
			return syntax.Token{}, false
		}
		j := i
		for j < len(t) && !syntax.IsJSSpaceByte(t[j]) {
			j++
		}
		return l.Tok("click", j), true
	}
	return l.initial()
}

func (l *ganttLexer) initial() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if tok, emit, ok := l.AccKeyword(gsAcc, true); ok {
		return tok, emit
	}
	if end := ganttCommentEnd(t, i); end > i {
		l.Pos = end
		return syntax.Token{}, false
	}
	if t[i] == '\n' {
		j := i
		for j < len(t) && t[j] == '\n' {
			j++
		}
		return l.Tok("NL", j), true
	}
	if j := syntax.SkipJSSpace(t, i); j > i {
		l.Pos = j
		return syntax.Token{}, false
	}
	if t[i] == '%' {
		l.Pos = syntax.LineEnd(t, i)
		return syntax.Token{}, false
	}
	if tok, ok := l.interaction(); ok || l.Pos != i {
		return tok, ok
	}
	return l.keywords()
}

// ganttCommentEnd matches the comment rules %%..., [^}]%+... and
// %+...\n*.
func ganttCommentEnd(t string, i int) int {
	if strings.HasPrefix(t[i:], "%%") && !strings.HasPrefix(t[i+2:], "{") {
		return syntax.LineEnd(t, i)
	}
	if t[i] != '}' {
		_, n := syntax.DecodeRune(t, i)
		if i+n < len(t) && t[i+n] == '%' {
			return syntax.LineEnd(t, i)
		}
	}
	if t[i] == '%' {
		return syntax.NewlineRunFrom(t, syntax.LineEnd(t, i))
	}
	return i
}

// interaction matches href "...", call name(args) and click id.
func (l *ganttLexer) interaction() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if syntax.HasPrefixAt(t, i, "href", true) {
		if j := syntax.SkipJSSpace(t, i+4); j > i+4 && j < len(t) && t[j] == '"' {
			l.Pos = j + 1
			l.Push(gsHref)
			return syntax.Token{}, false
		}
	}
	for _, k := range []struct {
		w  string
		st ganttState
	}{{"call", gsCallbackName}, {"click", gsClick}} {
		if syntax.HasPrefixAt(t, i, k.w, true) {
			if j := syntax.SkipJSSpace(t, i+len(k.w)); j > i+len(k.w) {
				l.Pos = j
				l.Push(k.st)
				return syntax.Token{}, false
			}
		}
	}
	return syntax.Token{}, false
}

// ganttLineKeywords take the rest of the line as their value: kw\s[^#\n;]+.
var ganttLineKeywords = []struct{ w, kind, stop string }{
	{"dateFormat", "dateFormat", "#\n;"}, {"axisFormat", "axisFormat", "#\n;"}, {"tickInterval", "tickInterval", "#\n;"},
	{"includes", "includes", "#\n;"}, {"excludes", "excludes", "#\n;"}, {"todayMarker", "todayMarker", "\n;"},
}

func (l *ganttLexer) keywords() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if syntax.HasWord(t, i, "gantt", true) {
		return l.Tok("gantt", i+5), true
	}
	for _, k := range ganttLineKeywords[:1] {
		if end := syntax.KeywordLine(t, i, k.w, k.stop); end > 0 {
			return l.Tok(k.kind, end), true
		}
	}
	for _, w := range []string{"inclusiveEndDates", "topAxis"} {
		if syntax.HasWord(t, i, w, true) {
			return l.Tok(w, i+len(w)), true
		}
	}
	for _, k := range ganttLineKeywords[1:] {
		if end := syntax.KeywordLine(t, i, k.w, k.stop); end > 0 {
			return l.Tok(k.kind, end), true
		}
	}
	if kind, end := weekKeyword(t, i); kind != "" {
		return l.Tok(kind, end), true
	}
	if syntax.DigitsAt(t, i, 4) && i+10 <= len(t) && t[i+4] == '-' && syntax.DigitsAt(t, i+5, 2) && t[i+7] == '-' && syntax.DigitsAt(t, i+8, 2) && syntax.WordEnds(t, i+10) {
		return l.Tok("date", i+10), true
	}
	for _, k := range []struct{ w, kind, stop string }{{"title", "title", "\n"}, {"accDescription", "accDescription", "#\n;"}, {"section", "section", "\n"}} {
		if end := syntax.KeywordLine(t, i, k.w, k.stop); end > 0 {
			return l.Tok(k.kind, end), true
		}
	}
	return l.task()
}

// weekKeyword matches weekday\s+(monday|...)\b and weekend\s+(friday|saturday)\b.
func weekKeyword(t string, i int) (string, int) {
	for _, w := range []string{"weekday", "weekend"} {
		if !syntax.HasPrefixAt(t, i, w, true) {
			continue
		}
		j := syntax.SkipJSSpace(t, i+len(w))
		if j == i+len(w) {
			continue
		}
		days := []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
		if w == "weekend" {
			days = []string{"friday", "saturday"}
		}
		for _, d := range days {
			if syntax.HasWord(t, j, d, true) {
				return w + "_" + d, j + len(d)
			}
		}
	}
	return "", 0
}

// task matches a task's text [^:\n]+, its data :[^#\n;]+, or a lone colon.
func (l *ganttLexer) task() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if t[i] != ':' && t[i] != '\n' {
		j := i
		for j < len(t) && t[j] != ':' && t[j] != '\n' {
			j++
		}
		return l.Tok("taskTxt", j), true
	}
	if t[i] == ':' {
		j := i + 1
		for j < len(t) && t[j] != '#' && t[j] != '\n' && t[j] != ';' {
			j++
		}
		if j > i+1 {
			return l.Tok("taskData", j), true
		}
		return l.Tok(":", i+1), true
	}
	_, n := syntax.DecodeRune(t, i)
	return l.Tok("INVALID", i+n), true
}

type ganttParser struct {
	syntax.Parser
	code       syntax.Src
	dateFormat string
	dateTok    syntax.Token
	tasks      []ganttTask
	ids        map[string]int
	clicks     []syntax.Token
}

type ganttTask struct{ name, data syntax.Token }

// ParseGantt checks the code of a diagram of its type, reporting what it finds to d.
func ParseGantt(d *syntax.Diagram, code syntax.Src) {
	p := &ganttParser{Parser: syntax.NewParser(d, code, &ganttLexer{Scanner: syntax.NewScanner(code.Text, gsInitial)}), code: code,
		dateFormat: "YYYY-MM-DD", ids: map[string]int{}}
	p.Hint = p.ganttHint
	if !syntax.RunParse(p.start) {
		return
	}
	p.checkTasks()
}

func (p *ganttParser) start() {
	p.Expect("gantt", "gantt")
	for {
		t := p.Peek(0)
		switch t.Kind {
		case "EOF":
			p.Take()
			if !p.At(syntax.TokEOF) {
				p.Fail("the end of the diagram")
			}
			return
		case "NL", "SPACE":
			p.Take()
		default:
			p.statement()
		}
	}
}

func (p *ganttParser) statement() {
	t := p.Peek(0)
	switch t.Kind {
	case "dateFormat":
		p.Take()
		p.dateFormat = strings.TrimSpace(t.Val[len("dateFormat"):])
		p.dateTok = t
	case "inclusiveEndDates", "topAxis", "axisFormat", "tickInterval", "excludes", "includes", "todayMarker", "title",
		"section", "acc_descr_multiline_value":
		p.Take()
	case "acc_title":
		p.Take()
		p.Expect("acc_title_value", "the accessible title")
	case "acc_descr":
		p.Take()
		p.Expect("acc_descr_value", "the accessible description")
	case "click":
		p.click()
	case "taskTxt":
		p.Take()
		if !p.At("taskData") {
			p.Fail(fmt.Sprintf("a colon and the task's data after %s (Task : a1, 2024-01-01, 3d)", syntax.QuoteShort(strings.TrimSpace(t.Val))))
		}
		p.tasks = append(p.tasks, ganttTask{name: t, data: p.Take()})
	default:
		if strings.HasPrefix(t.Kind, "weekday_") || strings.HasPrefix(t.Kind, "weekend_") {
			p.Take()
			return
		}
		p.Fail("a statement (dateFormat, section, title, a task such as Design : a1, 2024-01-01, 3d, ...)")
	}
}

func (p *ganttParser) click() {
	c := p.Take()
	p.clicks = append(p.clicks, c)
	switch {
	case p.At("callbackname"):
		p.Take()
		p.Accept("callbackargs")
		p.Accept("href")
	case p.At("href"):
		p.Take()
		if _, ok := p.Accept("callbackname"); ok {
			p.Accept("callbackargs")
		}
	default:
		p.Fail("call name(args) or href \"url\" after the task id")
	}
}

func (p *ganttParser) ganttHint(found syntax.Token, expected string) string {
	if found.Kind == "date" {
		return fmt.Sprintf("expected %s, found the date %s at the start of a line (a task needs a name: Task : %s, 3d)", expected, found.Val, found.Val)
	}
	return ""
}

// zeroLength reports a milestone or vertical marker, whose end may be
// left at zero length.
func (t ganttTask) zeroLength() bool {
	for _, part := range strings.Split(t.data.Val[1:], ",") {
		switch strings.TrimSpace(part) {
		case "milestone", "vert":
			return true
		}
	}
	return false
}

// ganttItem is one comma-separated part of a task's data.
type ganttItem struct {
	text     string
	from, to int // in the parsed text, trimmed
}

var ganttTags = []string{"active", "done", "crit", "milestone", "vert"}

// items splits a task's data as ganttDb does (after its colon, by commas)
// and drops the leading tags.
func (t ganttTask) items() []ganttItem {
	raw := t.data.Val[1:]
	off := t.data.From + 1
	var out []ganttItem
	for _, part := range strings.Split(raw, ",") {
		trimmed := strings.TrimSpace(part)
		lead := strings.Index(part, trimmed)
		if trimmed == "" {
			lead = 0
		}
		out = append(out, ganttItem{text: trimmed, from: off + lead, to: off + lead + len(trimmed)})
		off += len(part) + 1
	}
	for len(out) > 0 {
		tagged := false
		for _, tag := range ganttTags {
			if len(out) > 0 && out[0].text == tag {
				out = out[1:]
				tagged = true
			}
		}
		if !tagged {
			break
		}
	}
	return out
}

// checkTasks checks each task's data as Mermaid reads it when it lays the
// chart out.
func (p *ganttParser) checkTasks() {
	type parsed struct {
		task  ganttTask
		items []ganttItem
	}
	var all []parsed
	for i, t := range p.tasks {
		items := t.items()
		if len(items) == 3 {
			id := items[0].text
			if prev, dup := p.ids[id]; dup {
				line, _ := p.D.File.Lines.Pos(p.code.FileOff(p.tasks[prev].data.From))
				p.D.Report(syntax.RuleDuplicate, p.code, items[0].from, items[0].to-1,
					fmt.Sprintf("task id %s is used again (first at line %d); after and until find only the last one", syntax.QuoteShort(id), line),
					"give each task its own id")
			}
			p.ids[id] = i
		}
		all = append(all, parsed{t, items})
	}
	for i, a := range all {
		p.checkTask(i, a.task, a.items)
	}
	for _, c := range p.clicks {
		for _, id := range strings.Split(c.Val, ",") {
			if _, ok := p.ids[id]; !ok && id != "" {
				p.D.Report(syntax.RuleUndefinedNode, p.code, c.From, c.To-1,
					fmt.Sprintf("click names task %s, which no task of the chart has as its id", syntax.QuoteShort(id)),
					"use the id of a task (the first item of its data: Task : a1, 2024-01-01, 3d)")
			}
		}
	}
}

func (p *ganttParser) checkTask(i int, t ganttTask, items []ganttItem) {
	name := strings.TrimSpace(t.name.Val)
	switch len(items) {
	case 0:
		p.taskError(t.data, fmt.Sprintf("task %s has only tags and no start or duration", syntax.QuoteShort(name)))
		return
	case 1:
		if i == 0 {
			p.taskError(t.data, fmt.Sprintf("task %s is the chart's first task but has no start date, which makes Mermaid fail", syntax.QuoteShort(name)))
		}
	case 2:
		p.checkStart(name, items[0])
	case 3:
		p.checkStart(name, items[1])
	default:
		p.taskError(t.data, fmt.Sprintf("task %s has %d parts; Mermaid reads at most an id, a start and an end (and fails on more)", syntax.QuoteShort(name), len(items)))
		return
	}
	p.checkEnd(name, items[len(items)-1], t.zeroLength())
}

func (p *ganttParser) taskError(at syntax.Token, msg string) {
	from, last := syntax.TokenSpan(p.code.Text, at)
	p.D.Report(syntax.RuleValue, p.code, from, last, msg, "write the data as [tags,] [id,] [start,] end, e.g. Design : crit, a1, 2024-01-01, 3d")
}

// checkStart checks a start: after ids, or a date in dateFormat.
func (p *ganttParser) checkStart(name string, it ganttItem) {
	if ids, ok := refIDs(it.text, "after"); ok {
		p.checkRefs(name, it, "after", ids)
		return
	}
	if p.isDate(it.text) {
		return
	}
	fix := fmt.Sprintf("write the start as a date in the form %s, or as after <task id>", p.dateFormat)
	if !jsDateFails(it.text) {
		p.D.ReportSev(check.Warning, syntax.RuleGanttDate, p.code, it.from, max(it.to-1, it.from),
			fmt.Sprintf("task %s starts at %s, which does not match dateFormat %s; Mermaid falls back to JavaScript's own date reading, which may read another day or fail",
				syntax.QuoteShort(name), syntax.QuoteShort(it.text), p.dateFormat), fix)
		return
	}
	p.D.Report(syntax.RuleGanttDate, p.code, it.from, max(it.to-1, it.from),
		fmt.Sprintf("task %s starts at %s, which is not a date in dateFormat %s, and Mermaid fails on it (Invalid date)",
			syntax.QuoteShort(name), syntax.QuoteShort(it.text), p.dateFormat), fix)
}

// checkEnd checks an end: until ids, a date in dateFormat, or a duration.
func (p *ganttParser) checkEnd(name string, it ganttItem, zeroOK bool) {
	if ids, ok := refIDs(it.text, "until"); ok {
		p.checkRefs(name, it, "until", ids)
		return
	}
	if p.isDate(it.text) || isGanttDuration(it.text) || zeroOK {
		return
	}
	p.D.ReportSev(check.Warning, syntax.RuleGanttDate, p.code, it.from, max(it.to-1, it.from),
		fmt.Sprintf("task %s ends at %s, which is neither a date in dateFormat %s nor a duration such as 3d, so Mermaid gives the task no length",
			syntax.QuoteShort(name), syntax.QuoteShort(it.text), p.dateFormat),
		"write a duration (1d, 2w, 3h, 30m, 1M, 1y) or a date in the chart's dateFormat")
}

func (p *ganttParser) isDate(s string) bool {
	if (p.dateFormat == "x" || p.dateFormat == "X") && s != "" && syntax.DigitsAt(s, 0, len(s)) {
		return true
	}
	return dayjsStrict(s, p.dateFormat)
}

// isGanttDuration is ^(\d+(?:\.\d+)?)([Mdhmswy]|ms)$.
func isGanttDuration(s string) bool {
	i := 0
	for i < len(s) && syntax.IsDigit(s[i]) {
		i++
	}
	if i == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && syntax.IsDigit(s[j]) {
			j++
		}
		if j == i+1 {
			return false
		}
		i = j
	}
	unit := s[i:]
	return unit == "ms" || len(unit) == 1 && strings.Contains("Mdhmswy", unit)
}

// refIDs matches ^kw\s+([\d\w- ]+) and returns the ids.
func refIDs(s, kw string) ([]string, bool) {
	if !strings.HasPrefix(s, kw) {
		return nil, false
	}
	j := syntax.SkipJSSpace(s, len(kw))
	if j == len(kw) {
		return nil, false
	}
	k := j
	for k < len(s) && (syntax.IsWordByte(s[k]) || s[k] == '-' || s[k] == ' ') {
		k++
	}
	if k == j {
		return nil, false
	}
	return strings.Fields(s[j:k]), true
}

func (p *ganttParser) checkRefs(name string, it ganttItem, kw string, ids []string) {
	known := map[string]bool{}
	for id := range p.ids {
		known[id] = true
	}
	for _, id := range ids {
		if known[id] {
			continue
		}
		where := strings.Index(it.text, id)
		from := it.from + max(where, 0)
		p.D.Report(syntax.RuleGanttUnknownRef, p.code, from, from+len(id)-1,
			fmt.Sprintf("task %s is %s %s, but no task has that id; Mermaid places it at today's date", syntax.QuoteShort(name), kw, syntax.QuoteShort(id)),
			"use the id of a task in the chart (the name before the start: Task : a1, 2024-01-01, 3d)"+syntax.NearestHint(id, known))
	}
}
