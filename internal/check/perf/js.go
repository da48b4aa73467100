package perf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"

	"github.com/cairn-dev/cairn/internal/check"
)

// syncCalls are Node's blocking calls: fs's *Sync functions and
// child_process's.
var syncCalls = map[string]bool{
	"readFileSync": true, "writeFileSync": true, "appendFileSync": true, "existsSync": true, "statSync": true,
	"lstatSync": true, "readdirSync": true, "mkdirSync": true, "mkdtempSync": true, "accessSync": true, "unlinkSync": true,
	"rmSync": true, "rmdirSync": true, "copyFileSync": true, "cpSync": true, "renameSync": true, "openSync": true,
	"readSync": true, "writeSync": true, "closeSync": true, "realpathSync": true, "readlinkSync": true, "chmodSync": true,
	"fstatSync": true, "truncateSync": true, "execSync": true, "execFileSync": true, "spawnSync": true,
}

// routeMethods are the methods that register a request handler on an
// Express, Koa router, Fastify or similar app.
var routeMethods = map[string]bool{
	"get": true, "post": true, "put": true, "delete": true, "patch": true, "all": true, "use": true, "head": true,
	"options": true, "route": false,
}

// checkJS reads a JavaScript file's patterns on tdewolff/parse's ES2020+
// parser. Positions come from the parsed identifiers, which are slices of
// the input: an identifier's offset is where its slice starts in it.
func checkJS(f check.File) []check.Finding {
	src := make([]byte, len(f.Content), len(f.Content)+1)
	copy(src, f.Content)
	ast, err := js.Parse(parse.NewInputBytes(src), js.Options{})
	if err != nil {
		line, col := 0, 0
		var pe *parse.Error
		if errors.As(err, &pe) {
			line, col = pe.Line, pe.Column
		}
		return []check.Finding{{Rule: ruleSyntax, File: f.Path, Line: line, Col: col,
			Message: "JavaScript patterns were not checked: " + firstLine(err.Error()), Fix: rules[ruleIndex(ruleSyntax)].Fix}}
	}
	v := &jsVisitor{src: src, path: f.Path, lines: lineStarts(src)}
	v.frames = []jsFrame{{}}
	js.Walk(v, ast)
	return v.out
}

type jsFrame struct {
	loops   int
	handler bool
}

type jsVisitor struct {
	src    []byte
	path   string
	lines  []int
	frames []jsFrame
	// handlerFns are the function nodes passed to a route method, entered
	// as handlers.
	handlerFns map[js.INode]bool
	stack      []js.INode
	out        []check.Finding
	reported   map[string]bool
}

func (v *jsVisitor) top() *jsFrame { return &v.frames[len(v.frames)-1] }

func (v *jsVisitor) Enter(n js.INode) js.IVisitor {
	v.stack = append(v.stack, n)
	switch x := n.(type) {
	case *js.FuncDecl, *js.ArrowFunc, *js.MethodDecl:
		handler := v.top().handler || v.handlerFns[n]
		v.frames = append(v.frames, jsFrame{handler: handler})
	case *js.ForStmt, *js.ForInStmt, *js.WhileStmt, *js.DoWhileStmt:
		v.top().loops++
	case *js.ForOfStmt:
		if !x.Await {
			v.top().loops++
		}
	case *js.CallExpr:
		v.call(x)
	case *js.UnaryExpr:
		if x.Op == js.AwaitToken && v.top().loops > 0 {
			// The parser shares one Var among a name's uses, so an
			// identifier's bytes may be its declaration's: the finding is
			// placed only where the await keyword is seen just before.
			if off := v.offsetOf(x.X); off >= 0 {
				if at, ok := v.awaitOffset(off); ok {
					v.add(at, ruleAwaitInLoop, "await inside this loop runs each iteration's operation after the previous one finishes")
				}
			}
		}
	}
	return v
}

func (v *jsVisitor) Exit(n js.INode) {
	v.stack = v.stack[:len(v.stack)-1]
	switch x := n.(type) {
	case *js.FuncDecl, *js.ArrowFunc, *js.MethodDecl:
		v.frames = v.frames[:len(v.frames)-1]
	case *js.ForStmt, *js.ForInStmt, *js.WhileStmt, *js.DoWhileStmt:
		v.top().loops--
	case *js.ForOfStmt:
		if !x.Await {
			v.top().loops--
		}
	}
}

// call marks the functions a route registration passes as handlers, and
// reports a blocking call inside a handler.
func (v *jsVisitor) call(c *js.CallExpr) {
	name := calleeName(c.X)
	if _, ok := c.X.(*js.DotExpr); ok && routeMethods[name] || name == "createServer" || name == "on" && isRequestEvent(c) {
		for _, a := range c.Args.List {
			switch a.Value.(type) {
			case *js.ArrowFunc, *js.FuncDecl:
				if v.handlerFns == nil {
					v.handlerFns = map[js.INode]bool{}
				}
				v.handlerFns[a.Value] = true
			}
		}
	}
	if syncCalls[name] && v.top().handler {
		target := js.INode(c.X)
		if dot, ok := c.X.(*js.DotExpr); ok {
			target = dot.Y // the property is the use site's own bytes
		}
		if off := v.offsetOf(target); off >= 0 && bytes.HasPrefix(v.src[off:], []byte(name)) {
			v.add(off, ruleSyncInHandler, fmt.Sprintf("%s blocks the event loop inside this request handler: every other request waits", name))
		}
	}
}

// isRequestEvent: server.on('request', fn).
func isRequestEvent(c *js.CallExpr) bool {
	if len(c.Args.List) < 2 {
		return false
	}
	lit, ok := c.Args.List[0].Value.(*js.LiteralExpr)
	return ok && strings.Trim(string(lit.Data), `"'`) == "request"
}

// calleeName is the called function's name: f in f(), fs.f(), a.b.f().
func calleeName(e js.IExpr) string {
	switch x := e.(type) {
	case *js.Var:
		return string(x.Data)
	case *js.DotExpr:
		switch y := x.Y.(type) {
		case js.LiteralExpr:
			return string(y.Data)
		case *js.LiteralExpr:
			return string(y.Data)
		case *js.Var:
			return string(y.Data)
		}
	}
	return ""
}

// offsetOf returns where the first identifier or literal of e starts in
// the source, -1 if it has none.
func (v *jsVisitor) offsetOf(e js.INode) int {
	off := -1
	var find func(n js.INode) bool
	find = func(n js.INode) bool {
		switch x := n.(type) {
		case *js.Var:
			off = v.sliceOffset(x.Data)
			return off >= 0
		case *js.LiteralExpr:
			off = v.sliceOffset(x.Data)
			return off >= 0
		case js.LiteralExpr:
			off = v.sliceOffset(x.Data)
			return off >= 0
		case *js.DotExpr:
			return find(x.X) || find(x.Y)
		case *js.CallExpr:
			return find(x.X)
		case *js.IndexExpr:
			return find(x.X)
		case *js.UnaryExpr:
			return find(x.X)
		case *js.NewExpr:
			return find(x.X)
		case *js.GroupExpr:
			return find(x.X)
		case *js.BinaryExpr:
			return find(x.X)
		}
		return false
	}
	find(e)
	return off
}

// sliceOffset is where b starts in the source, if b is a slice of it (the
// parser's identifiers and literals are; the parser caps their capacity,
// so the address is compared, not the capacity).
func (v *jsVisitor) sliceOffset(b []byte) int {
	if len(b) == 0 || len(v.src) == 0 {
		return -1
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(v.src)))
	at := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	if at < start || at >= start+uintptr(len(v.src)) {
		return -1
	}
	return int(at - start)
}

// awaitOffset steps back from the operand to the await keyword before it,
// across spaces and opening parentheses only.
func (v *jsVisitor) awaitOffset(off int) (int, bool) {
	i := off
	for i > 0 && (v.src[i-1] == ' ' || v.src[i-1] == '\t' || v.src[i-1] == '\n' || v.src[i-1] == '\r' || v.src[i-1] == '(') {
		i--
	}
	if i >= 5 && string(v.src[i-5:i]) == "await" {
		return i - 5, true
	}
	return 0, false
}

func (v *jsVisitor) add(off int, rule, msg string) {
	line, col := position(v.lines, off)
	key := fmt.Sprint(rule, line, col)
	if v.reported[key] {
		return
	}
	if v.reported == nil {
		v.reported = map[string]bool{}
	}
	v.reported[key] = true
	v.out = append(v.out, check.Finding{Rule: rule, File: v.path, Line: line, Col: col, Message: msg, Fix: rules[ruleIndex(rule)].Fix})
}

func lineStarts(b []byte) []int {
	out := []int{0}
	for i, c := range b {
		if c == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

func position(lines []int, off int) (int, int) {
	lo, hi := 0, len(lines)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if lines[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1, off - lines[lo] + 1
}

// parseOnly parses src and nothing else: the benchmarks' baseline.
func parseOnly(src []byte) {
	b := make([]byte, len(src), len(src)+1)
	copy(b, src)
	_, _ = js.Parse(parse.NewInputBytes(b), js.Options{})
}
