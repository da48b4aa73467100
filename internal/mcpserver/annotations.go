package mcpserver

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
)

// Every tool says what it does to the project, so a client can run a
// harmless one without asking and warn before a destructive one. MCP's
// defaults are the cautious ones (a tool may destroy, may repeat with
// effect, reaches an open world), so each hint is stated:
//
//   - readOnlyHint: changes nothing (the readOnly annotations).
//   - destructiveHint: may delete, prune, remove or revert what was
//     recorded; false means it only adds or changes a value that can be set
//     back.
//   - idempotentHint: the same call again has no further effect.
//   - openWorldHint: false for every Cairn tool: each one works on the
//     project's own store and files, never on the web or another system.
//
// TestAnnotationsDecided fails for a tool without a decision.

// openWorldHint: false

var (
	// adds records or moves forward: a second call adds again.
	adds = &mcp.ToolAnnotations{DestructiveHint: new(bool), OpenWorldHint: tool.ClosedWorld}
	// sets changes a value or a state: a second call changes nothing more.
	sets = &mcp.ToolAnnotations{DestructiveHint: new(bool), IdempotentHint: true, OpenWorldHint: tool.ClosedWorld}
	// destroys deletes what it names; deleting it again does nothing more.
	destroys = &mcp.ToolAnnotations{DestructiveHint: new(true), IdempotentHint: true, OpenWorldHint: tool.ClosedWorld}
	// reverts goes back to an earlier state, losing what came after.
	reverts = &mcp.ToolAnnotations{DestructiveHint: new(true), OpenWorldHint: tool.ClosedWorld}
)

// writeHints are the hints of every tool that writes, by name.
var writeHints = map[string]*mcp.ToolAnnotations{
	// focus
	"create_new_task":       adds,
	"extend_current_task":   adds,
	"complete_current_task": adds, // completes one task, then the next
	"update_current_task":   sets,
	"switch_focus":          sets,
	// plan
	"create_task":    adds,
	"add_subtask":    adds,
	"update_task":    sets,
	"update_subtask": sets,
	"delete_task":    destroys,
	"delete_subtask": destroys,
	"remove_task":    destroys, // gone from the plan; completed ones stay archived
	"claim_task":     adds,
	"renew_claim":    adds, // the lease runs from the call
	"release_task":   sets,
	// loops
	"loop_start":      adds,
	"loop_record":     adds,
	"loop_checkpoint": adds,
	"loop_pause":      sets,
	"loop_resume":     reverts, // from a checkpoint, its state replaces the current one
	"loop_complete":   sets,
	"loop_fail":       sets,
	"loop_cancel":     sets,
	// memory
	"memory_add_decision":   adds,
	"memory_add_mistake":    adds, // a repeat adds an occurrence
	"memory_add_convention": adds,
	"observation":           adds,
	"memory_prune":          destroys,
	// session
	"session": adds,
	"branch":  adds, // merge adds one branch's context to another's
	// lifecycle
	"lifecycle_init":    adds,
	"lifecycle_advance": adds,
	// context
	"scaffold": sets, // never replaces a file: a second call writes nothing more
	// insight
	"feedback": adds, // the same rating again counts once more
	// hands
	"plan_migration": adds, // with create, the plan's tasks; a dry run writes nothing
	// evolution
	"evolution_analyze": adds,    // may apply a change above the auto threshold; evolution_revert undoes it
	"evolution_revert":  reverts, // restores the snapshot the change replaced
	"draft_create":      adds,
	"draft_approve":     adds, // promotes a draft; refused where the target changed since
	"draft_reject":      sets,
	// the session's own tool list
	toolsetsTool: sets,
}
