package store

import "github.com/cairn-dev/cairn/internal/task"

// Read names one of Tx's reads of the plan, for a store whose write
// transactions can send reads ahead of their use (the PostgreSQL store's
// can): the
// service names the reads it is about to make, the store sends them with
// its next statement, one round trip for all, and the calls that follow
// take their answers from there. A store without the ability offers no
// such method and every read runs when it is called.
type Read struct {
	Of ReadOf
	ID task.ID
	// Agent, with ReadChildren, ReadOpenChildren, ReadTaskDeps or ReadTask
	// and no ID: of the task the agent's focus is on, or with Up 1 of that
	// task's parent, whose id the store learns with the answer; the calls
	// of that read for that id take it. A write's first read is often the
	// agent's focus: the reads of its task and its neighbours can go with it.
	Agent string
	Up    uint8 // 0 or 1; ReadTask only with 1
}

// ReadOf says which read a Read is, and what its ID is to it.
type ReadOf uint8

const (
	ReadTask           ReadOf = iota + 1 // Task(ID): Tx.Query with ID
	ReadChildren                         // Children(ID, false): Tx.Query with Level
	ReadTaskDeps                         // TaskDeps(ID): Tx.Deps
	ReadDependents                       // Dependents(ID): Tx.Deps
	ReadFocuses                          // Tx.Focuses (ID unused)
	ReadTaskClaim                        // TaskClaim(ID): Tx.Claims with Task
	ReadOpenLifecycles                   // Tx.Lifecycles of ID's open lifecycles: LifecycleQuery{Status: LifecycleOpen, Tasks: {ID}}
	ReadOpenChildren                     // OpenChildren(ID): Tx.Query with Level and Open
	ReadClaims                           // Tx.Claims without Task (ID unused): the claims on visible tasks, read at no time, expired ones too
)
