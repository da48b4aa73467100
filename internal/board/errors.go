package board

import (
	"net/http"

	"github.com/cairn-dev/cairn/internal/problem"
)

// boardStatus is the status a page answers a refusal of each kind with.
// A refused edit re-renders the page it came from, 422, whatever its kind.
var boardStatus = [problem.NumKinds]int{
	problem.Invalid:          http.StatusUnprocessableEntity,
	problem.NotFound:         http.StatusNotFound,
	problem.Cycle:            http.StatusUnprocessableEntity,
	problem.NoProject:        http.StatusUnprocessableEntity,
	problem.Zen:              http.StatusUnprocessableEntity,
	problem.OpenChildren:     http.StatusUnprocessableEntity,
	problem.Closed:           http.StatusUnprocessableEntity,
	problem.Transition:       http.StatusUnprocessableEntity,
	problem.OpenDeps:         http.StatusUnprocessableEntity,
	problem.Claimed:          http.StatusUnprocessableEntity,
	problem.CriteriaMissing:  http.StatusUnprocessableEntity,
	problem.Malformed:        http.StatusUnprocessableEntity,
	problem.Unavailable:      http.StatusServiceUnavailable,
	problem.Storage:          http.StatusServiceUnavailable,
	problem.Cancelled:        http.StatusServiceUnavailable,
	problem.Unauthorized:     http.StatusUnauthorized,
	problem.Forbidden:        http.StatusForbidden,
	problem.TooLarge:         http.StatusRequestEntityTooLarge,
	problem.UnsupportedMedia: http.StatusUnsupportedMediaType,
	problem.TooMany:          http.StatusTooManyRequests,
	problem.Internal:         http.StatusInternalServerError,
}

// boardWords words every action as the board's pages and buttons; what
// only an agent can do is named as its tool, what only the CLI does as its
// command.
var boardWords = [problem.NumActions]string{
	problem.CreateTask:     "add one with New task on the Plan page",
	problem.ListTasks:      "the Plan page lists the tasks",
	problem.ListOutline:    "the Outline shows the open tasks",
	problem.ListBlocked:    "the Plan page shows the blocked tasks and what they wait on",
	problem.ForceDone:      "an agent can mark it done anyway with force: true",
	problem.StartLoop:      "an agent starts a new loop with loop_start",
	problem.ListLoops:      "the Loops page lists the loops",
	problem.ListCheckpoint: "the loop's page lists its checkpoints",
	problem.ControlLoop:    "use the loop's Pause, Resume or Cancel buttons on the Loops page",
	problem.SearchMemory:   "search on the Memory page",
	problem.ListSessions:   "the Sessions page lists the sessions",
	problem.StartSession:   "an agent starts one with session action start",
	problem.ListBranches:   "the Sessions page lists the branch contexts",
	problem.ExportMemory:   "`cairn memory export` writes it",
	problem.ClaimTask:      "an agent claims it with claim_task first",
	problem.ClaimFree:      "an agent's claim_task without id picks a free task",
	problem.OverrideClaim:  "or an agent writes anyway with force: true",
	problem.ListLifecycles: "`cairn lifecycles` lists them",
	problem.StartLifecycle: "an agent starts a new one with lifecycle_init",
	problem.AdvanceOpen:    "`cairn lifecycles` shows the open one",
	problem.FixDefinition:  "fix the file",
	problem.CheckChanged:   "nothing was changed unless the page shows it",
	problem.ListCandidates: "`cairn evolution analyze` lists the open candidates",
	problem.ListDrafts:     "the Drafts page lists the drafts",
	problem.ListChanges:    "`cairn evolution status` lists the changes",
	problem.ReviewChange:   "`cairn evolution review SEQ` and the Drafts page show the change and the drafts",
	problem.LoopRecord:     "record",
	problem.LoopCheckpoint: "checkpoint",
	problem.LoopPause:      "pause",
	problem.LoopResume:     "resume",
	problem.LoopCancel:     "cancel",
	problem.LoopComplete:   "complete",
	problem.LoopFail:       "fail",
}

// boardHints words an action as the board's pages and buttons.
func boardHints(a problem.Action) string { return boardWords[a] }

// refusal is what a person reads on the board for err, the service's
// refusal worded as MCP words it but with its actions pointing at the
// board's own pages and buttons, and the status a page answers it with.
// failed is true for what is no refusal but a failure of the storage or
// of Cairn: it goes to the server log, and an internal error's text is
// shown to no one (msg is then empty).
func refusal(err error) (msg string, status int, failed bool) {
	e := problem.Of(err)
	switch e.Kind {
	case problem.Internal:
		return "", boardStatus[e.Kind], true
	case problem.Storage:
		return e.Render(boardHints), boardStatus[e.Kind], true
	}
	return e.Render(boardHints), boardStatus[e.Kind], false
}
