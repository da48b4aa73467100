package tool

import (
	"github.com/cairn-dev/cairn/internal/loop"
	"github.com/cairn-dev/cairn/internal/problem"
)

// toolWords words every action as the tools that carry it out.
var toolWords = [problem.NumActions]string{
	problem.CreateTask:     "start one with create_new_task",
	problem.ListTasks:      "get_tasks or get_stack_overview lists the task ids",
	problem.ListOutline:    "switch to an open task (see get_stack_overview)",
	problem.ListBlocked:    "see get_tasks with status blocked or get_task for what they wait on",
	problem.ForceDone:      "to mark it done anyway, pass force: true",
	problem.StartLoop:      "start a new loop with loop_start",
	problem.ListLoops:      "loop_list lists the loops",
	problem.ListCheckpoint: "loop_checkpoints lists them",
	problem.ControlLoop:    "use loop_pause, loop_resume, loop_complete, loop_fail or loop_cancel",
	problem.SearchMemory:   "use memory_search to list the entries",
	problem.ListSessions:   "use session with action list to see the sessions",
	problem.StartSession:   "start one with session action start",
	problem.ListBranches:   "use branch with action list to see the saved branches, or save one first",
	problem.ExportMemory:   "`cairn memory export` writes it",
	problem.ClaimTask:      "use claim_task first",
	problem.ClaimFree:      "claim_task without id picks a free task",
	problem.OverrideClaim:  "or pass force: true to write anyway",
	problem.ListLifecycles: "use lifecycle_list to see them",
	problem.StartLifecycle: "use lifecycle_init to start a new one",
	problem.AdvanceOpen:    "use lifecycle_advance on the open one",
	problem.FixDefinition:  "fix the file (lifecycle_get shows the built-in format)",
	problem.CheckChanged:   "nothing was changed unless a later read shows it",
	problem.ListCandidates: "evolution_analyze lists the open candidates",
	problem.ListDrafts:     "draft_list shows the drafts",
	problem.ListChanges:    "evolution_status lists the changes",
	problem.ReviewChange:   "evolution_review and draft_list show the change and the drafts",
	problem.LoopRecord:     "loop_record",
	problem.LoopCheckpoint: "loop_checkpoint",
	problem.LoopPause:      "loop_pause",
	problem.LoopResume:     "loop_resume",
	problem.LoopCancel:     "loop_cancel",
	problem.LoopComplete:   "loop_complete",
	problem.LoopFail:       "loop_fail",
}

// ActionWords is the MCP surface's words for an action: the tool calls
// that carry it out ("use claim_task first").
func ActionWords(a problem.Action) string { return toolWords[a] }

// LoopTool names the tool of a loop operation.
func LoopTool(op loop.Op) string { return ActionWords(op.Action()) }
