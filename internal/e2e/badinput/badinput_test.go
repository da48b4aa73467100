package badinput

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// Bad input, end to end: every focus tool gets wrong types, missing and null
// fields, unknown fields, over-long and invalid text and bad ids over real
// stdio. Each must be a tool error that names the field and says how to fix
// it, in a short message with no Go internals and no echo of the input, and
// must leave the store as it was.

// maxErrorMessage bounds an error message, whatever the size of the input.
const maxErrorMessage = 400

// goInternals must never appear in an error message.
var goInternals = []string{
	"json:", "go struct", "go value", "reflect", "unmarshal", "*mcp.", "main.",
	"strconv", "interface {", "map[string]", "[]uint8", "goroutine", "panic", "runtime.",
	"sqlite", "sql:", "internal error", "*task.", "mcpserver.",
}

// fixWords are the ways an error message tells the model what to do.
var fixWords = []string{"pass ", "use ", "send ", "shorten ", "give ", "keep ", "store ", "get_stack_overview"}

type badCase struct {
	tool  string
	name  string
	args  json.RawMessage // sent as the arguments, byte for byte
	field string          // what the message must name
	code  float64         // the structured error code; 0 means -32602
}

// obj builds a JSON object from raw member values, in sorted key order.
func obj(members map[string]string) json.RawMessage {
	keys := make([]string, 0, len(members))
	for k := range members {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.WriteString(members[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}

// with returns base with field set to the raw JSON value v ("" removes it).
func with(base map[string]string, field, v string) json.RawMessage {
	m := make(map[string]string, len(base)+1)
	for k, x := range base {
		m[k] = x
	}
	if v == "" {
		delete(m, field)
	} else {
		m[field] = v
	}
	return obj(m)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

const hugeInt = "123456789012345678901234567890123456789"

var (
	mib        = 1 << 20
	bigString  = jsonString(strings.Repeat("x", mib+1))
	longTitle  = jsonString(strings.Repeat("x", 257))
	wrongTypes = map[string]string{ // for a string field
		"number":   "12",
		"bool":     "true",
		"array":    `["a"]`,
		"object":   `{"a":"b"}`,
		"1e308":    "1e308",
		"-1":       "-1",
		"huge int": hugeInt,
	}
	wrongBool = map[string]string{
		"string":   `"true"`,
		"number":   "1",
		"array":    "[true]",
		"object":   "{}",
		"1e308":    "1e308",
		"-1":       "-1",
		"huge int": hugeInt,
		"1 MiB":    bigString,
	}
	wrongInt = map[string]string{
		"string":    `"abc"`,
		"numeric":   `"5"`,
		"bool":      "true",
		"array":     "[1]",
		"object":    `{"n":1}`,
		"1e308":     "1e308",
		"-1e308":    "-1e308",
		"1.5":       "1.5",
		"-1":        "-1",
		"huge int":  hugeInt,
		"-huge int": "-" + hugeInt,
		"1 MiB":     bigString,
	}
)

// toolSpec describes a focus tool's arguments for the bad-input table.
type toolSpec struct {
	tool     string
	base     map[string]string // valid arguments, raw JSON values
	strings  []string          // string fields
	required []string
	bools    []string
	ints     []string
	enums    []string // string fields checked against a set of values
	refs     []string // ids: "12", or "12.3" for a subtask
	lists    []string // a string or a list of strings
	dates    []string
	objects  []string
	mrefs    []string // memory entry or session ids: "m12", "s4", or a number
	free     []string // lists of free text, where any string is a value
}

var focusSpecs = []toolSpec{
	{tool: "create_new_task", base: map[string]string{"title": `"ok"`, "body": `""`}, strings: []string{"title", "body"}, required: []string{"title"}},
	{tool: "extend_current_task", base: map[string]string{"title": `"ok"`, "body": `""`}, strings: []string{"title", "body"}, required: []string{"title"}},
	{tool: "get_current_task", base: map[string]string{}},
	{tool: "get_big_picture", base: map[string]string{}, ints: []string{"offset", "limit"}, enums: []string{"format"}},
	{tool: "complete_current_task", base: map[string]string{}, bools: []string{"force"}},
	{tool: "get_completed_tasks", base: map[string]string{}, ints: []string{"offset", "limit"}, enums: []string{"order"}},
	{tool: "update_current_task", base: map[string]string{"body": `"new body"`}, strings: []string{"body"}, required: []string{"body"}},
	{tool: "get_stack_overview", base: map[string]string{}, ints: []string{"offset", "limit"}},
	{tool: "peek_context", base: map[string]string{}, bools: []string{"include_body"}},
	{tool: "list_siblings", base: map[string]string{}, bools: []string{"include_body"}, ints: []string{"offset", "limit"}},
	{tool: "switch_focus", base: map[string]string{"task_id": `"1"`}, refs: []string{"task_id"}, required: []string{"task_id"}},
	{tool: "remove_task", base: map[string]string{"task_id": `"4"`}, refs: []string{"task_id"}, required: []string{"task_id"}},
}

var planSpecs = []toolSpec{
	{tool: "get_tasks", base: map[string]string{}, lists: []string{"status", "priority"}, dates: []string{"createdAfter", "createdBefore", "updatedAfter", "updatedBefore"}, ints: []string{"offset", "limit"}},
	{tool: "get_task", base: map[string]string{"id": `"1"`}, refs: []string{"id"}, required: []string{"id"}},
	{tool: "create_task", base: map[string]string{"title": `"ok"`}, strings: []string{"title", "description"}, enums: []string{"priority", "status"}, lists: []string{"dependencies"}, bools: []string{"force"}, required: []string{"title"}},
	{tool: "update_task", base: map[string]string{"id": `"3"`}, refs: []string{"id"}, strings: []string{"title", "description"}, enums: []string{"priority", "status"}, lists: []string{"dependencies"}, bools: []string{"force"}, required: []string{"id"}},
	{tool: "delete_task", base: map[string]string{"id": `"4"`}, refs: []string{"id"}, required: []string{"id"}},
	{tool: "get_next_task", base: map[string]string{}, lists: []string{"status", "priority"}},
	{tool: "query_tasks", base: map[string]string{}, objects: []string{"filters", "sort"}, lists: []string{"fields"}, ints: []string{"offset", "limit"}},
	{tool: "get_task_stats", base: map[string]string{}},
	{tool: "add_subtask", base: map[string]string{"parentId": `"1"`, "title": `"ok"`}, refs: []string{"parentId"}, strings: []string{"title", "description"}, required: []string{"parentId", "title"}},
	{tool: "update_subtask", base: map[string]string{"subtaskId": `"1.2"`}, refs: []string{"subtaskId"}, strings: []string{"title", "description"}, enums: []string{"status"}, bools: []string{"force"}, required: []string{"subtaskId"}},
	{tool: "delete_subtask", base: map[string]string{"subtaskId": `"1.2"`}, refs: []string{"subtaskId"}, required: []string{"subtaskId"}},
}

// The loop in the bad-input store is task 5.
var loopSpecs = []toolSpec{
	{tool: "loop_start", base: map[string]string{"objective": `"o"`, "completion_criteria": `"c"`}, strings: []string{"objective", "completion_criteria"},
		ints: []string{"max_iterations"}, enums: []string{"execution_mode", "priority"}, lists: []string{"tags"}, refs: []string{"parent"}, required: []string{"objective", "completion_criteria"}},
	{tool: "loop_status", base: map[string]string{"id": `"5"`}, refs: []string{"id"}, bools: []string{"history"}, ints: []string{"offset", "limit"}, required: []string{"id"}},
	{tool: "loop_list", base: map[string]string{}, lists: []string{"status"}, ints: []string{"offset", "limit"}},
	{tool: "loop_record", base: map[string]string{"id": `"5"`, "last_action": `"a"`}, refs: []string{"id"}, strings: []string{"last_action", "message"},
		lists: []string{"next_steps"}, ints: []string{"artifacts_created", "artifacts_modified"}, required: []string{"id", "last_action"}},
	{tool: "loop_checkpoint", base: map[string]string{"id": `"5"`}, refs: []string{"id"}, strings: []string{"note"}, required: []string{"id"}},
	{tool: "loop_checkpoints", base: map[string]string{"id": `"5"`}, refs: []string{"id"}, required: []string{"id"}},
	{tool: "loop_pause", base: map[string]string{"id": `"5"`}, refs: []string{"id"}, required: []string{"id"}},
	{tool: "loop_resume", base: map[string]string{"id": `"5"`}, refs: []string{"id"}, ints: []string{"from_checkpoint", "max_iterations"}, required: []string{"id"}},
	{tool: "loop_cancel", base: map[string]string{"id": `"5"`}, refs: []string{"id"}, required: []string{"id"}},
	{tool: "loop_complete", base: map[string]string{"id": `"5"`, "evidence": `"e"`}, refs: []string{"id"}, strings: []string{"evidence"}, bools: []string{"force"}, required: []string{"id", "evidence"}},
	{tool: "loop_fail", base: map[string]string{"id": `"5"`, "message": `"m"`}, refs: []string{"id"}, strings: []string{"message", "code"}, bools: []string{"recoverable"}, required: []string{"id", "message"}},
}

// The bad-input store's memory holds m1 (decision), m2 (mistake, superseded
// by m4) and m3 (insight) and m4 (decision); session s1 is open; branch main
// has a saved context.
var memorySpecs = []toolSpec{
	{tool: "memory_search", base: map[string]string{}, strings: []string{"query", "session_id", "branch"}, lists: []string{"type", "tag"},
		free: []string{"tag"}, dates: []string{"after", "before"}, ints: []string{"offset", "limit"}, bools: []string{"include_superseded"}},
	{tool: "memory_context", base: map[string]string{"id": `"m2"`}, mrefs: []string{"id"}, ints: []string{"before", "after"}, bools: []string{"same_session"}, required: []string{"id"}},
	{tool: "memory_get", base: map[string]string{"ids": `["m1"]`}, required: []string{"ids"}},
	{tool: "memory_add_decision", base: map[string]string{"title": `"t"`}, strings: []string{"title", "content", "rationale", "supersedes"},
		lists: []string{"facts", "tags", "files", "alternatives"}, free: []string{"facts", "tags", "files", "alternatives"}, required: []string{"title"}},
	{tool: "memory_add_mistake", base: map[string]string{"title": `"t"`}, strings: []string{"title", "content", "root_cause", "fix", "prevention", "supersedes"},
		lists: []string{"facts", "tags", "files"}, free: []string{"facts", "tags", "files"}, bools: []string{"replace_analysis"}, required: []string{"title"}},
	{tool: "memory_add_convention", base: map[string]string{"title": `"t"`}, strings: []string{"title", "content", "supersedes"},
		lists: []string{"examples", "tags"}, free: []string{"examples", "tags"}, required: []string{"title"}},
	{tool: "observation", base: map[string]string{"type": `"insight"`, "title": `"t"`}, enums: []string{"type"}, strings: []string{"title", "content", "supersedes"},
		ints: []string{"discovery_tokens", "expires_in_days"}, lists: []string{"facts"}, free: []string{"facts"}, required: []string{"type", "title"}},
	{tool: "memory_prune", base: map[string]string{"type": `"insight"`}, lists: []string{"type"}, ints: []string{"older_than_days"}, bools: []string{"dry_run"}},
	{tool: "diagnose_error", base: map[string]string{"error": `"boom"`}, strings: []string{"error"}, ints: []string{"limit"}, required: []string{"error"}},
	{tool: "session", base: map[string]string{"action": `"get"`}, enums: []string{"action", "outcome"},
		strings: []string{"goal", "summary", "branch", "session_id", "parent_session_id", "thread_id"}, objects: []string{"ai"},
		bools: []string{"open_only"}, ints: []string{"offset", "limit"}, lists: []string{"files_modified", "tasks_completed"}, free: []string{"files_modified", "tasks_completed"}, required: []string{"action"}},
	{tool: "branch", base: map[string]string{"action": `"get"`, "branch": `"main"`}, enums: []string{"action"},
		strings: []string{"branch", "into", "feature", "phase", "notes"}, lists: []string{"files_modified"}, free: []string{"files_modified"}, required: []string{"action"}},
}

var contextSpecs = []toolSpec{
	{tool: "bootstrap", base: map[string]string{}, ints: []string{"budget_tokens"}, strings: []string{"query"}},
	{tool: "detect_project", base: map[string]string{}},
	{tool: "optimize_context", base: map[string]string{"query": `"migration"`}, strings: []string{"query"}, ints: []string{"budget_tokens"},
		lists: []string{"candidates"}, required: []string{"query"}},
	{tool: "get_config", base: map[string]string{}},
	{tool: "suggest_next", base: map[string]string{}},
	{tool: "query_tkb", base: map[string]string{}, strings: []string{"query", "category", "maturity", "use_case"}, ints: []string{"offset", "limit"}},
	{tool: "get_tkb_entry", base: map[string]string{"entry": `"knowledge/a.md"`}, required: []string{"entry"}},
	{tool: "get_agent", base: map[string]string{"name": `"backend"`}, required: []string{"name"}},
	{tool: "get_competency_matrix", base: map[string]string{}},
	{tool: "classify_task", base: map[string]string{"description": `"add a login page"`}, strings: []string{"description"}, required: []string{"description"}},
	{tool: "get_routing_table", base: map[string]string{}},
	{tool: "tech_compatibility", base: map[string]string{}, lists: []string{"stack"}, free: []string{"stack"}},
	{tool: "apply_heuristics", base: map[string]string{"decision": `"cache sessions in Redis"`}, strings: []string{"decision"}, required: []string{"decision"}},
}

// In the bad-input store the agent holds a claim on task 3, and task 1 has
// lifecycle 1 (asdd, in SYNC).
var claimLifecycleSpecs = []toolSpec{
	{tool: "claim_task", base: map[string]string{}, refs: []string{"id"}, ints: []string{"lease_seconds"}},
	{tool: "renew_claim", base: map[string]string{"id": `"3"`}, refs: []string{"id"}, ints: []string{"lease_seconds"}, required: []string{"id"}},
	{tool: "release_task", base: map[string]string{"id": `"3"`}, refs: []string{"id"}, enums: []string{"status"}, bools: []string{"force"}, required: []string{"id"}},
	{tool: "lifecycle_get", base: map[string]string{}, strings: []string{"definition"}},
	{tool: "lifecycle_init", base: map[string]string{"task_id": `"4"`}, refs: []string{"task_id"}, strings: []string{"definition"}, required: []string{"task_id"}},
	{tool: "lifecycle_advance", base: map[string]string{"id": `"1"`, "hold": "true"}, strings: []string{"to", "reason"}, bools: []string{"hold"},
		objects: []string{"evidence", "checks"}, required: []string{"id"}},
	{tool: "lifecycle_status", base: map[string]string{"id": `"1"`}, required: []string{"id"}},
	{tool: "lifecycle_list", base: map[string]string{}, enums: []string{"status"}, strings: []string{"phase"}, ints: []string{"offset", "limit"}},
}

func allSpecs() []toolSpec {
	return slices.Concat(focusSpecs, planSpecs, loopSpecs, memorySpecs, contextSpecs, claimLifecycleSpecs)
}

func badCases() []badCase {
	var cs []badCase
	add := func(tool, name string, args json.RawMessage, field string) {
		cs = append(cs, badCase{tool: tool, name: name, args: args, field: field})
	}
	for _, sp := range allSpecs() {
		tool := sp.tool
		// The arguments as a whole.
		add(tool, "arguments array", json.RawMessage(`[1,2]`), "arguments")
		add(tool, "arguments string", json.RawMessage(`"x"`), "arguments")
		add(tool, "arguments number", json.RawMessage(`1e308`), "arguments")
		add(tool, "unknown field", with(sp.base, "bogus", "1"), "bogus")
		add(tool, "unknown field with a case change", with(sp.base, "Task_Id", `"1"`), "Task_Id")
		add(tool, "unknown 1 MiB field name", with(sp.base, strings.Repeat("k", mib), "1"), "kkkk")
		add(tool, "unknown field holding 1 MiB", with(sp.base, "extra", bigString), "extra")
		for _, f := range sp.required {
			add(tool, "missing "+f, with(sp.base, f, ""), f)
			add(tool, "null "+f, with(sp.base, f, "null"), f)
			if len(sp.required) == 1 && len(sp.base) == 1 {
				add(tool, "null arguments", json.RawMessage(`null`), f)
				add(tool, "empty arguments", json.RawMessage(`{}`), f)
			}
		}
		for _, f := range sp.strings {
			for name, v := range wrongTypes {
				add(tool, f+" "+name, with(sp.base, f, v), f)
			}
		}
		for _, f := range sp.enums {
			for name, v := range wrongTypes {
				add(tool, f+" "+name, with(sp.base, f, v), f)
			}
			add(tool, f+" unknown value", with(sp.base, f, `"xml"`), f)
			add(tool, f+" 1 MiB", with(sp.base, f, bigString), f)
			add(tool, f+" invalid UTF-8", with(sp.base, f, "\"te\xffxt\""), f)
		}
		for _, f := range sp.bools {
			for name, v := range wrongBool {
				add(tool, f+" "+name, with(sp.base, f, v), f)
			}
		}
		for _, f := range sp.ints {
			for name, v := range wrongInt {
				add(tool, f+" "+name, with(sp.base, f, v), f)
			}
		}
		for _, f := range sp.lists {
			for name, v := range map[string]string{"number": "12", "bool": "true", "object": `{"a":"b"}`, "array of numbers": "[1,2]",
				"nested array": `[["a"]]`, "1e308": "1e308", "unknown value": `["nonsense"]`, "1 MiB": bigString} {
				if (f == "tags" || f == "next_steps" || slicesContain(sp.free, f)) && name == "unknown value" {
					continue // free text
				}
				if f == "dependencies" && (name == "number" || name == "array of numbers") {
					continue // ids, which may be numbers (TestNumericIDsAndEmptySchemas)
				}
				add(tool, f+" "+name, with(sp.base, f, v), f)
			}
		}
		for _, f := range sp.dates {
			for name, v := range map[string]string{"number": "20251210", "bool": "true", "words": `"yesterday"`, "bad month": `"2025-13-01"`, "1 MiB": bigString} {
				add(tool, f+" "+name, with(sp.base, f, v), f)
			}
		}
		for _, f := range sp.objects {
			for name, v := range map[string]string{"string": `"x"`, "array": "[]", "number": "1", "unknown member": `{"bogus":1}`} {
				add(tool, f+" "+name, with(sp.base, f, v), f)
			}
		}
		for _, f := range sp.refs {
			for name, v := range map[string]string{`"abc"`: `"abc"`, `"0"`: `"0"`, `"-1"`: `"-1"`, `""`: `""`, `" "`: `" "`, `"1.x"`: `"1.x"`,
				`"1.0"`: `"1.0"`, `"1..2"`: `"1..2"`, `"1e3"`: `"1e3"`, "overflowing string": `"99999999999999999999999"`,
				"0": "0", "-1": "-1", "1.5": "1.5", "1e308": "1e308", "huge int": hugeInt, "bool": "true", "array": `["1"]`,
				"object": `{"id":1}`, "invalid UTF-8": "\"1\xff\"", "1 MiB string": bigString} {
				if (name == `""` || name == `" "`) && !slicesContain(sp.required, f) {
					continue // an optional reference left empty is absent
				}
				add(tool, f+" "+name, with(sp.base, f, v), f)
			}
			// References that parse but name no task: not_found, naming it.
			for _, v := range []string{`"999"`, "999", `"9223372036854775807"`, `"1.99"`} {
				if f == "subtaskId" && v != `"1.99"` {
					add(tool, f+" not a subtask id "+v, with(sp.base, f, v), f)
					continue
				}
				cs = append(cs, badCase{tool: tool, name: f + " unknown " + v, args: with(sp.base, f, v),
					field: strings.Trim(v, `"`), code: -32000})
			}
		}
		for _, f := range sp.mrefs {
			for name, v := range map[string]string{`"abc"`: `"abc"`, `"m0"`: `"m0"`, `"-1"`: `"-1"`, `"m"`: `"m"`, `"m1.5"`: `"m1.5"`, `"1e3"`: `"1e3"`,
				`"m+1"`: `"m+1"`, "overflowing string": `"m99999999999999999999999"`, "0": "0", "-1": "-1", "1.5": "1.5", "1e308": "1e308",
				"huge int": hugeInt, "bool": "true", "array": `["m1"]`, "object": `{"id":1}`, "invalid UTF-8": "\"m1\xff\"", "1 MiB string": bigString} {
				add(tool, f+" "+name, with(sp.base, f, v), f)
			}
			for _, v := range []string{`"m999"`, "999"} {
				cs = append(cs, badCase{tool: tool, name: f + " unknown " + v, args: with(sp.base, f, v), field: "999", code: -32000})
			}
		}
		if slicesContain(sp.ints, "limit") {
			add(tool, "limit over the maximum", with(sp.base, "limit", "1001"), "limit")
		}
	}
	// Text that breaks the task rules.
	for _, tool := range []string{"create_new_task", "extend_current_task"} {
		base := map[string]string{"title": `"ok"`, "body": `""`}
		add(tool, "257-character title", with(base, "title", longTitle), "title")
		add(tool, "1 MiB title", with(base, "title", bigString), "title")
		add(tool, "empty title", with(base, "title", `""`), "title")
		add(tool, "blank title", with(base, "title", `"  \t "`), "title")
		add(tool, "two-line title", with(base, "title", `"a\nb"`), "title")
		add(tool, "body over 1 MiB", with(base, "body", bigString), "body")
		add(tool, "invalid UTF-8 title", with(base, "title", "\"bad \xff\xfe title\""), "title")
		add(tool, "lone surrogate in title", with(base, "title", `"bad \ud800 title"`), "title")
		add(tool, "invalid UTF-8 body", with(base, "body", "\"bad \xc3\x28 body\""), "body")
	}
	// Memory: id batches, the entry rules, the session's nested records.
	for name, v := range map[string]string{"bool": "true", "object": "{}", "nested array": `[["m1"]]`, "array of bools": "[true]",
		"empty": "[]", "1e308": "1e308", "21 ids": `["m1","m1","m1","m1","m1","m1","m1","m1","m1","m1","m1","m1","m1","m1","m1","m1","m1","m1","m1","m1","m1"]`,
		"a bad id": `["m1","x"]`, "1 MiB": bigString} {
		add("memory_get", "ids "+name, obj(map[string]string{"ids": v}), "ids")
	}
	for _, tool := range []string{"memory_add_decision", "memory_add_mistake", "memory_add_convention"} {
		base := map[string]string{"title": `"ok"`}
		add(tool, "257-character title", with(base, "title", longTitle), "title")
		add(tool, "empty title", with(base, "title", `""`), "title")
		add(tool, "blank title", with(base, "title", `" \t "`), "title")
		add(tool, "content over 64 KiB", with(base, "content", jsonString(strings.Repeat("x", 65537))), "content")
		add(tool, "a tag with spaces", with(base, "tags", `["two words"]`), "tags[0]")
		var tags []string
		for i := range 51 {
			tags = append(tags, jsonString(fmt.Sprint("t", i)))
		}
		add(tool, "51 tags", with(base, "tags", "["+strings.Join(tags, ",")+"]"), "tags")
		add(tool, "a 3 KiB fact", with(base, "facts", `[`+jsonString(strings.Repeat("f", 3000))+`]`), "facts[0]")
	}
	add("memory_add_mistake", "root cause over 64 KiB", obj(map[string]string{"title": `"t"`, "root_cause": jsonString(strings.Repeat("r", 65537))}), "root_cause")
	// Supersede: a missing entry, not an id, one already replaced, the
	// entry itself (a known mistake counts on m2), a chain that would loop
	// (m4 supersedes m2; m2 may not supersede m4).
	for _, tool := range []string{"memory_add_decision", "memory_add_convention"} {
		add(tool, "supersedes a missing entry", obj(map[string]string{"title": `"t"`, "supersedes": `"m99"`}), "supersedes")
		add(tool, "supersedes not an id", obj(map[string]string{"title": `"t"`, "supersedes": `"the old one"`}), "supersedes")
		add(tool, "supersedes an entry already superseded", obj(map[string]string{"title": `"t"`, "supersedes": `"m2"`}), "supersedes")
	}
	add("memory_add_mistake", "supersedes itself", obj(map[string]string{"title": `"Boom on start"`, "content": `"again"`, "supersedes": `"m2"`}), "supersedes")
	add("memory_add_mistake", "supersedes in a loop", obj(map[string]string{"title": `"boom on start!"`, "content": `"again"`, "supersedes": `"m4"`}), "supersedes")
	add("memory_add_mistake", "supersedes a missing entry", obj(map[string]string{"title": `"a new mistake"`, "supersedes": `"m99"`}), "supersedes")
	add("observation", "supersedes a missing entry", obj(map[string]string{"type": `"insight"`, "title": `"t"`, "supersedes": `"m0"`}), "supersedes")
	add("observation", "expires_in_days negative", obj(map[string]string{"type": `"insight"`, "title": `"t"`, "expires_in_days": "-1"}), "expires_in_days")
	add("observation", "expires_in_days too far", obj(map[string]string{"type": `"insight"`, "title": `"t"`, "expires_in_days": "100000"}), "expires_in_days")
	add("observation", "a type with its own tool", obj(map[string]string{"type": `"decision"`, "title": `"t"`}), "type")
	add("observation", "negative discovery_tokens", obj(map[string]string{"type": `"insight"`, "title": `"t"`, "discovery_tokens": "-5"}), "discovery_tokens")
	add("memory_prune", "nothing selected", json.RawMessage(`{}`), "ids")
	add("memory_prune", "nothing selected, real run", json.RawMessage(`{"dry_run":false}`), "ids")
	add("memory_prune", "bad id", json.RawMessage(`{"ids":["m1","zz"],"dry_run":false}`), "ids[1]")
	add("diagnose_error", "empty error", json.RawMessage(`{"error":"  "}`), "error")
	for name, v := range map[string]string{"string": `"x"`, "array of strings": `["x"]`, "unknown member": `[{"decision":"d","reason":"r"}]`,
		"no decision": `[{"reasoning":"r"}]`, "empty decision": `[{"decision":" "}]`} {
		add("session", "decisions "+name, obj(map[string]string{"action": `"update"`, "decisions": v}), "decisions")
	}
	add("session", "errors_resolved unknown member", json.RawMessage(`{"action":"update","errors_resolved":[{"err":"e"}]}`), "errors_resolved")
	add("session", "an argument of another action", json.RawMessage(`{"action":"get","goal":"g"}`), "goal")
	add("session", "unknown session", json.RawMessage(`{"action":"update","session_id":"s99","summary":"x"}`), "session_id")
	add("session", "bad parent", json.RawMessage(`{"action":"start","parent_session_id":"s99"}`), "parent_session_id")
	add("session", "bad outcome on end", json.RawMessage(`{"action":"end","outcome":"great"}`), "outcome")
	add("branch", "merge without into", json.RawMessage(`{"action":"merge","branch":"main"}`), "into")
	add("branch", "merge into itself", json.RawMessage(`{"action":"merge","branch":"main","into":"main"}`), "into")
	add("branch", "no branch outside git", json.RawMessage(`{"action":"get"}`), "branch")
	add("branch", "a branch name with spaces", json.RawMessage(`{"action":"save","branch":"my branch","notes":"n"}`), "branch")
	add("branch", "an argument of another action", json.RawMessage(`{"action":"list","into":"main"}`), "into")
	add("bootstrap", "budget under the minimum", json.RawMessage(`{"budget_tokens":100}`), "budget_tokens")
	add("bootstrap", "budget over the maximum", json.RawMessage(`{"budget_tokens":20001}`), "budget_tokens")
	add("bootstrap", "a 600-byte query", obj(map[string]string{"query": jsonString(strings.Repeat("q", 600))}), "query")
	add("optimize_context", "a query of stop words", json.RawMessage(`{"query":"the and"}`), "query")
	add("optimize_context", "an unknown memory id", json.RawMessage(`{"query":"migration","candidates":["m99"]}`), "candidates")
	add("optimize_context", "a bad memory id", json.RawMessage(`{"query":"migration","candidates":["mx"]}`), "candidates[0]")
	add("apply_heuristics", "a blank decision", json.RawMessage(`{"decision":"  "}`), "decision")
	add("get_tkb_entry", "an entry that does not exist", json.RawMessage(`{"entry":"knowledge/nope.md"}`), "entry")
	add("get_agent", "an agent that does not exist", json.RawMessage(`{"name":"nobody"}`), "name")
	add("classify_task", "stop words only", json.RawMessage(`{"description":"the and"}`), "description")
	add("query_tkb", "a 600-byte query", obj(map[string]string{"query": jsonString(strings.Repeat("q", 600))}), "query")
	// Claims and lifecycles: the rules beyond the types.
	add("claim_task", "lease over a day", json.RawMessage(`{"lease_seconds":86401}`), "lease_seconds")
	cs = append(cs, badCase{tool: "claim_task", name: "a done task", args: json.RawMessage(`{"id":"2"}`), field: "2", code: -32005})
	add("renew_claim", "a task nobody claimed", json.RawMessage(`{"id":"1"}`), "id")
	add("release_task", "a task nobody claimed", json.RawMessage(`{"id":"1"}`), "id")
	add("release_task", "a loop's status", json.RawMessage(`{"id":"5","status":"done"}`), "id")
	add("lifecycle_get", "unknown definition", json.RawMessage(`{"definition":"nope"}`), "definition")
	add("lifecycle_init", "unknown definition", json.RawMessage(`{"task_id":"4","definition":"nope"}`), "definition")
	add("lifecycle_init", "a task with an open lifecycle", json.RawMessage(`{"task_id":"1"}`), "task_id")
	cs = append(cs, badCase{tool: "lifecycle_init", name: "a done task", args: json.RawMessage(`{"task_id":"2"}`), field: "2", code: -32005})
	for name, v := range map[string]string{`"abc"`: `"abc"`, `"0"`: `"0"`, `"-1"`: `"-1"`, `""`: `""`, `"1.5"`: `"1.5"`, "0": "0", "-1": "-1",
		"1.5": "1.5", "1e308": "1e308", "huge int": hugeInt, "bool": "true", "array": `["1"]`, "object": `{"id":1}`, "1 MiB string": bigString} {
		add("lifecycle_status", "id "+name, obj(map[string]string{"id": v}), "id")
		add("lifecycle_advance", "id "+name, obj(map[string]string{"id": v, "hold": "true"}), "id")
	}
	cs = append(cs, badCase{tool: "lifecycle_status", name: "unknown id", args: json.RawMessage(`{"id":"999"}`), field: "999", code: -32000})
	cs = append(cs, badCase{tool: "lifecycle_advance", name: "unknown id", args: json.RawMessage(`{"id":999,"hold":true}`), field: "999", code: -32000})
	// An advance with no evidence while a criterion lacks it is refused; one
	// that carries evidence is not bad input (it is recorded and the phase
	// stays: lifecycle_test.go).
	cs = append(cs, badCase{tool: "lifecycle_advance", name: "missing criteria", args: json.RawMessage(`{"id":"1"}`),
		field: "branch_synced", code: -32010})
	add("lifecycle_advance", "unknown criterion", json.RawMessage(`{"id":"1","evidence":{"nope":"x"}}`), "evidence")
	add("lifecycle_advance", "empty evidence", json.RawMessage(`{"id":"1","evidence":{"context_loaded":" "}}`), "evidence")
	add("lifecycle_advance", "evidence over 4 KiB", json.RawMessage(`{"id":"1","evidence":{"context_loaded":`+jsonString(strings.Repeat("e", 5000))+`}}`), "evidence")
	add("lifecycle_advance", "evidence not text", json.RawMessage(`{"id":"1","evidence":{"context_loaded":5}}`), "evidence")
	add("lifecycle_advance", "check without exit_code", json.RawMessage(`{"id":"1","checks":{"branch_synced":{"command":"git pull"}}}`), "exit_code")
	add("lifecycle_advance", "check without command", json.RawMessage(`{"id":"1","checks":{"branch_synced":{"command":" ","exit_code":0}}}`), "checks")
	add("lifecycle_advance", "check not an object", json.RawMessage(`{"id":"1","checks":{"branch_synced":"ok"}}`), "checks")
	add("lifecycle_advance", "unknown phase", json.RawMessage(`{"id":"1","to":"NOPE"}`), "to")
	add("lifecycle_advance", "skipping a phase", json.RawMessage(`{"id":"1","to":"PLAN"}`), "to")
	add("lifecycle_advance", "loop back without a reason", json.RawMessage(`{"id":"1","to":"SYNC"}`), "reason")
	add("lifecycle_advance", "hold with to", json.RawMessage(`{"id":"1","to":"SYNC","hold":true,"reason":"r"}`), "to")
	add("lifecycle_list", "phase over 40 characters", json.RawMessage(`{"phase":`+jsonString(strings.Repeat("P", 41))+`}`), "phase")
	add("update_current_task", "body over 1 MiB", json.RawMessage(`{"body":`+bigString+`}`), "body")
	add("update_current_task", "invalid UTF-8 body", json.RawMessage("{\"body\":\"bad \xed\xa0\x80 body\"}"), "body")
	add("update_current_task", "lone surrogate in body", json.RawMessage(`{"body":"bad \udc00 body"}`), "body")
	return cs
}

func slicesContain(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// storeState is what the tools show of the store: the outline, the archive,
// the current task and its neighbours, with their bodies.
func storeState(t *testing.T, s *cairntest.Server) string {
	t.Helper()
	var b strings.Builder
	for _, c := range []struct {
		tool string
		args args
	}{
		{"get_stack_overview", args{"limit": 1000}},
		{"get_completed_tasks", args{"limit": 100}},
		{"get_current_task", args{}},
		{"peek_context", args{"include_body": true}},
		{"list_siblings", args{"include_body": true, "limit": 50}},
		{"query_tasks", args{"fields": []string{"id", "ref", "title", "description", "status", "priority", "dependencies", "updatedAt"}, "limit": 50}},
		{"loop_status", args{"id": "5", "history": true}},
		{"loop_checkpoints", args{"id": "5"}},
		{"memory_search", args{"limit": 50, "include_superseded": true}},
		{"memory_get", args{"ids": []string{"m1", "m2", "m3", "m4", "m5"}}},
		{"session", args{"action": "list"}},
		{"session", args{"action": "get", "session_id": "s1"}},
		{"branch", args{"action": "list"}},
		{"branch", args{"action": "get", "branch": "main"}},
		{"get_tasks", args{"limit": 50}},
		{"get_task", args{"id": "3"}},
		{"lifecycle_list", args{"limit": 100}},
		{"lifecycle_status", args{"id": "1"}},
	} {
		r := s.OK(c.tool, c.args)
		delete(r.Structured, "secondsInPhase") // the clock moves; the state does not
		j, err := json.Marshal(r.Structured)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s: %s\n", c.tool, j)
	}
	return b.String()
}

func TestBadInput(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: []string{"--toolsets", "all"}})
	// A store with something in every view: [1] root, [2] completed child,
	// [3] left sibling with a body, [4] current with a body.
	s.OK("create_new_task", args{"title": "root", "body": "root body"})
	s.OK("create_new_task", args{"title": "done child", "body": "done body"})
	s.OK("complete_current_task", args{})
	s.OK("create_new_task", args{"title": "left", "body": "left body"})
	s.OK("extend_current_task", args{"title": "here", "body": "current body"})
	s.OK("switch_focus", args{"task_id": "4"})
	if id := s.OK("loop_start", args{"objective": "a loop", "completion_criteria": "c", "parent": "1"}).Str("id"); id != "5" {
		t.Fatalf("the loop is %s, want 5", id)
	}
	s.OK("loop_record", args{"id": "5", "last_action": "first"})
	s.OK("memory_add_decision", args{"title": "a decision", "rationale": "r", "tags": []string{"x"}})
	s.OK("memory_add_mistake", args{"title": "boom on start", "fix": "f"})
	s.OK("observation", args{"type": "insight", "title": "an insight", "discovery_tokens": 10})
	s.OK("memory_add_decision", args{"title": "a newer decision", "supersedes": "m2"})
	s.OK("session", args{"action": "start", "goal": "g"})
	s.OK("branch", args{"action": "save", "branch": "main", "notes": "n"})
	s.OK("claim_task", args{"id": "3"})
	if id := s.OK("lifecycle_init", args{"task_id": "1"}).Structured["id"]; id != float64(1) {
		t.Fatalf("the lifecycle is %v, want 1", id)
	}
	s.OK("lifecycle_advance", args{"id": "1", "evidence": map[string]string{"context_loaded": "read the memory"}, "hold": true})
	before := storeState(t, s)
	state := before

	// The store's state is read (18 calls) once after each tool's cases,
	// not after each of the ~2,800 cases: nothing changes unless a refused
	// call wrote, and then the tool and its cases are named.
	cases := badCases()
	covered := make(map[string]int)
	for i, c := range cases {
		covered[c.tool]++
		t.Run(c.tool+"/"+c.name, func(t *testing.T) {
			r, err := s.CallErr(c.tool, c.args)
			if err != nil {
				t.Fatalf("protocol error instead of a tool error: %v", err)
			}
			if !r.IsError {
				t.Fatalf("accepted: %s", clipForLog(r.Text))
			}
			checkErrorMessage(t, c, r)
		})
		if i+1 < len(cases) && cases[i+1].tool == c.tool {
			continue
		}
		if after := storeState(t, s); after != state {
			var names []string
			for _, o := range cases[:i+1] {
				if o.tool == c.tool {
					names = append(names, o.name)
				}
			}
			t.Errorf("a refused call to %s changed the store (one of its cases: %s):\nbefore:\n%s\nafter:\n%s",
				c.tool, strings.Join(names, "; "), state, after)
			state = after // report each change once
		}
	}
	for _, sp := range allSpecs() {
		if covered[sp.tool] == 0 {
			t.Errorf("no bad-input case for %s", sp.tool)
		}
	}
	t.Logf("%d bad-input cases over %d tools", len(cases), len(covered))

	// The server is alive and serves normal calls, reads and writes.
	if s.Cmd.ProcessState != nil {
		t.Fatalf("the server exited: %v", s.Cmd.ProcessState)
	}
	cairntest.WantCurrent(t, s, "here")
	s.OK("update_current_task", args{"body": "still here"})
	if r := s.OK("get_current_task", args{}); r.Str("body") != "still here" {
		t.Fatalf("update after bad input: %v", r.Structured)
	}
}

func checkErrorMessage(t *testing.T, c badCase, r cairntest.Result) {
	t.Helper()
	msg := r.Str("message")
	if msg == "" {
		t.Fatalf("no structured message: %s", clipForLog(r.Text))
	}
	if r.Text != "error: "+msg {
		t.Errorf("text %q and structured message %q differ", clipForLog(r.Text), clipForLog(msg))
	}
	wantCode := c.code
	if wantCode == 0 {
		wantCode = -32602
	}
	if got := r.Structured["code"]; got != wantCode {
		t.Errorf("code = %v, want %v (%s)", got, wantCode, msg)
	}
	if len(msg) >= maxErrorMessage {
		t.Errorf("message is %d bytes (input %d bytes), want under %d: %s", len(msg), len(c.args), maxErrorMessage, clipForLog(msg))
	}
	if raw, _ := json.Marshal(r.Raw); len(raw) > 3*maxErrorMessage {
		t.Errorf("the whole result is %d bytes: %s", len(raw), clipForLog(string(raw)))
	}
	if !strings.Contains(msg, c.field) {
		t.Errorf("message does not name %q: %s", c.field, msg)
	}
	lower := strings.ToLower(msg)
	for _, bad := range goInternals {
		if strings.Contains(lower, bad) {
			t.Errorf("message shows Go internals (%q): %s", bad, msg)
		}
	}
	fix := false
	for _, w := range fixWords {
		fix = fix || strings.Contains(msg, w)
	}
	if !fix {
		t.Errorf("message does not say how to fix it: %s", msg)
	}
}

func clipForLog(s string) string {
	if len(s) > 300 {
		return s[:300] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}

// TestRawStdio writes raw lines to the server's stdin and reads its stdout:
// each bad line gets one JSON-RPC error and the session keeps serving.
func TestRawStdio(t *testing.T) {
	dir := cairntest.Project(t)
	cmd := exec.Command(cairntest.Binary(t), "serve")
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CAIRN_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})

	lines := make(chan []byte, 64)
	go func() {
		defer close(lines)
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			l, err := r.ReadBytes('\n')
			if len(l) > 0 {
				lines <- l
			}
			if err != nil {
				return
			}
		}
	}()
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(stdin, line); err != nil {
			t.Fatalf("write: %v\nstderr:\n%s", err, stderr.String())
		}
	}
	next := func() map[string]any {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("stdout closed\nstderr:\n%s", stderr.String())
			}
			var m map[string]any
			if err := json.Unmarshal(l, &m); err != nil {
				t.Fatalf("stdout line is not a JSON object: %v: %q", err, clipForLog(string(l)))
			}
			if m["jsonrpc"] != "2.0" {
				t.Fatalf("not a JSON-RPC 2.0 message: %s", l)
			}
			return m
		case <-time.After(20 * time.Second):
			t.Fatalf("no answer within 20s\nstderr:\n%s", stderr.String())
		}
		return nil
	}
	wantError := func(what string, code float64, id any) {
		t.Helper()
		m := next()
		rawID, hasID := m["id"]
		e, _ := m["error"].(map[string]any)
		if e == nil || !hasID || e["code"] != code || rawID != id {
			t.Fatalf("%s: want error %v with id %v, got %v", what, code, id, m)
		}
		if msg, _ := e["message"].(string); msg == "" || len(msg) >= maxErrorMessage {
			t.Fatalf("%s: error message %q", what, msg)
		}
	}

	bad := []struct {
		what string
		line string
		code float64
		id   any // the id the error must carry; nil is JSON null
	}{
		{"not JSON", "hello, server\n", -32700, nil},
		{"truncated object", `{"jsonrpc":"2.0","id":1,"method":"ping"` + "\n", -32700, nil},
		{"control character", "\x00\x01\n", -32700, nil},
		{"two messages on one line", `{"jsonrpc":"2.0","id":6,"method":"ping"}{"jsonrpc":"2.0","id":7,"method":"ping"}` + "\n", -32700, nil},
		{"message and junk", `{"jsonrpc":"2.0","id":8,"method":"ping"} junk` + "\n", -32700, nil},
		{"Unicode spaces only", "\u00a0\u2028\n", -32700, nil},
		{"batch", `[{"jsonrpc":"2.0","id":2,"method":"ping"}]` + "\n", -32600, nil},
		{"empty array", "[]\n", -32600, nil},
		{"empty object", "{}\n", -32600, nil},
		{"no jsonrpc", `{"id":3,"method":"ping"}` + "\n", -32600, float64(3)},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":"s","method":"ping"}` + "\n", -32600, "s"},
		{"bare string", `"ping"` + "\n", -32600, nil},
		{"bare number", "42\n", -32600, nil},
		{"null", "null\n", -32600, nil},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}` + "\n", -32600, nil},
		{"id alone", `{"jsonrpc":"2.0","id":77}` + "\n", -32600, float64(77)},
		{"response without result or error", `{"jsonrpc":"2.0","id":"r","params":{}}` + "\n", -32600, "r"},
	}
	for _, b := range bad {
		send(b.line)
		wantError(b.what, b.code, b.id)
	}
	// A 10 MB line: over the 8 MiB limit, answered and skipped.
	big := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"update_current_task","arguments":{"body":"` +
		strings.Repeat("y", 10_000_000) + `"}}}` + "\n"
	send(big)
	wantError("10 MB line", -32600, nil)
	// Blank lines get no answer: the next line out answers initialize.
	send("\n\n   \n\t\r\n\r\n")
	send(`{"jsonrpc":"2.0","id":10,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n")
	if m := next(); m["id"] != float64(10) || m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")

	call := func(id int, tool, arguments string) map[string]any {
		t.Helper()
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`+"\n", id, tool, arguments))
		m := next()
		if m["id"] != float64(id) {
			t.Fatalf("tools/call %s: answer for id %v: %v", tool, m["id"], m)
		}
		res, _ := m["result"].(map[string]any)
		if res == nil {
			t.Fatalf("tools/call %s: %v", tool, m)
		}
		return res
	}
	if res := call(11, "create_new_task", `{"title":"raw","body":""}`); res["isError"] == true {
		t.Fatalf("create_new_task: %v", res)
	}
	// Bad lines in a live session, then it still serves.
	send("}{\n")
	wantError("garbage in session", -32700, nil)
	send(`{"jsonrpc":"2.0","id":12,"method":"no/such/method"}` + "\n")
	if m := next(); m["id"] != float64(12) || m["error"] == nil {
		t.Fatalf("unknown method: %v", m)
	}
	send(big)
	wantError("10 MB line in session", -32600, nil)
	res := call(13, "get_current_task", `{}`)
	sc, _ := res["structuredContent"].(map[string]any)
	if res["isError"] == true || sc["title"] != "raw" {
		t.Fatalf("get_current_task after bad lines: %v", res)
	}

	// Closing stdin ends the server cleanly.
	stdin.Close()
	select {
	case err := <-exited:
		exited <- err
		if err != nil {
			t.Fatalf("server exit: %v\nstderr:\n%s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not exit after stdin closed")
	}
	if !strings.Contains(stderr.String(), "rejected an inbound line") {
		t.Errorf("rejected lines are not logged:\n%s", stderr.String())
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
