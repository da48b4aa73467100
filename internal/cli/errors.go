package cli

import (
	"errors"
	"io/fs"

	"github.com/cairn-dev/cairn/internal/problem"
)

// exitStatus is the exit status of a command refused for each kind. Every
// failure exits 1 today, as scripts expect; a kind that needs its own
// status (a retryable Unavailable, say) gets it here.
var exitStatus = [problem.NumKinds]int{
	problem.Invalid:          1,
	problem.NotFound:         1,
	problem.Cycle:            1,
	problem.NoProject:        1,
	problem.Zen:              1,
	problem.OpenChildren:     1,
	problem.Closed:           1,
	problem.Transition:       1,
	problem.OpenDeps:         1,
	problem.Claimed:          1,
	problem.CriteriaMissing:  1,
	problem.Malformed:        1,
	problem.Unavailable:      1,
	problem.Storage:          1,
	problem.Cancelled:        1,
	problem.Unauthorized:     1,
	problem.Forbidden:        1,
	problem.TooLarge:         1,
	problem.UnsupportedMedia: 1,
	problem.TooMany:          1,
	problem.Internal:         1,
}

// commandWords words every action as the commands that carry it out; what
// only an agent can do is named as its tool.
var commandWords = [problem.NumActions]string{
	problem.CreateTask:     "an agent starts one with create_new_task",
	problem.ListTasks:      "`cairn tasks` lists the task ids",
	problem.ListOutline:    "switch to an open task (`cairn tasks` lists them)",
	problem.ListBlocked:    "`cairn tasks --status blocked` and `cairn show ID` say what they wait on",
	problem.ForceDone:      "an agent marks it done anyway with force: true",
	problem.StartLoop:      "an agent starts a new loop with loop_start",
	problem.ListLoops:      "`cairn loops` lists the loops",
	problem.ListCheckpoint: "an agent lists them with loop_checkpoints",
	problem.ControlLoop:    "an agent uses loop_pause, loop_resume, loop_complete, loop_fail or loop_cancel",
	problem.SearchMemory:   "`cairn memory search` lists the entries",
	problem.ListSessions:   "an agent lists them with session action list",
	problem.StartSession:   "an agent starts one with session action start",
	problem.ListBranches:   "an agent lists them with branch action list",
	problem.ExportMemory:   "`cairn memory export` writes it",
	problem.ClaimTask:      "an agent claims it with claim_task first",
	problem.ClaimFree:      "an agent's claim_task without id picks a free task",
	problem.OverrideClaim:  "or an agent writes anyway with force: true",
	problem.ListLifecycles: "`cairn lifecycles` lists them",
	problem.StartLifecycle: "an agent starts a new one with lifecycle_init",
	problem.AdvanceOpen:    "`cairn lifecycles` shows the open one",
	problem.FixDefinition:  "fix the file",
	problem.CheckChanged:   "nothing was changed unless a later read shows it",
	problem.ListCandidates: "`cairn evolution analyze` lists the open candidates",
	problem.ListDrafts:     "`cairn drafts list` shows the drafts",
	problem.ListChanges:    "`cairn evolution status` lists the changes",
	problem.ReviewChange:   "`cairn evolution review SEQ` and `cairn drafts list` show the change and the drafts",
	problem.LoopRecord:     "record",
	problem.LoopCheckpoint: "checkpoint",
	problem.LoopPause:      "pause",
	problem.LoopResume:     "resume",
	problem.LoopCancel:     "cancel",
	problem.LoopComplete:   "complete",
	problem.LoopFail:       "fail",
}

// commandHints words an action as the commands that carry it out.
func commandHints(a problem.Action) string { return commandWords[a] }

// Message is what a person reads when a command fails: the refusal itself,
// its actions worded as commands, never the chain of wrapping the services
// added for their logs; any other error as it is.
func Message(err error) string {
	if se, ok := errors.AsType[*statusError](err); ok && se.err == nil {
		return "" // said already (cairn check's findings)
	}
	e := problem.Of(err)
	if e.Kind == problem.NoProject && e.Err != nil {
		// At a terminal the directories searched are the person's own:
		// said here, never over a server (project.FindRoot).
		return e.Render(commandHints) + " (" + e.Err.Error() + ")"
	}
	if e.Kind != problem.Internal {
		return e.Render(commandHints)
	}
	if pe, ok := err.(*fs.PathError); ok { // bare: a wrapped one already says what it was for
		return "cannot " + pathVerb(pe.Op) + " " + pe.Path + ": " + pe.Err.Error() + "; check the path"
	}
	return err.Error()
}

// ExitStatus is the exit status of a command that failed with err.
func ExitStatus(err error) int {
	if se, ok := errors.AsType[*statusError](err); ok {
		return se.status
	}
	return exitStatus[problem.KindOf(err)]
}

func pathVerb(op string) string {
	switch op {
	case "open", "read", "stat":
		return "read"
	}
	return op
}
