package brief

import (
	"context"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/service/loops"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/service/page"
)

// What an agent client's hooks report, and what Cairn does with it: the
// session opened at the start, the record of what it did, its summary
// folded into the branch. Every method is one short transaction; none
// needs the network.

// HookStart is what a session-start hook knows.
type HookStart struct {
	Agent string
	// Source is why the client's session started: startup, resume, clear
	// or compact. resume and compact continue the agent's open session.
	Source string
	AI     memory.Provider
	Boot   BootstrapRequest // Agent is filled in
}

// HookStarted is what a session-start hook did and the context it gives.
type HookStarted struct {
	Session   memory.Session
	Resumed   bool
	Bootstrap Bootstrap
}

// StartHook opens the agent's session (or carries on its open one when the
// client resumed or compacted) and builds the bootstrap.
func (b *Service) StartHook(ctx context.Context, in HookStart) (HookStarted, error) {
	var out HookStarted
	m := b.memory
	open, _, err := b.memory.AgentSessions(ctx, in.Agent, true)
	if err != nil {
		return out, err
	}
	if (in.Source == "resume" || in.Source == "compact") && len(open) > 0 {
		out.Session, out.Resumed = open[0], true
	} else {
		var parent memory.SessionID
		if in.Source == "resume" || in.Source == "compact" {
			// No open session: continue the agent's last thread.
			last, _, err := b.memory.AgentSessions(ctx, in.Agent, false)
			if err != nil {
				return out, err
			}
			if len(last) > 0 {
				parent = last[0].ID
			}
		}
		res, err := m.StartSession(ctx, in.Agent, parent.String(), "", memories.SessionPatch{AI: in.AI})
		if err != nil {
			return out, err
		}
		out.Session = res.Session
	}
	in.Boot.Agent = in.Agent
	out.Bootstrap, err = b.Bootstrap(ctx, in.Boot)
	return out, err
}

// activeLoops are the running and paused loops.
func (b *Service) activeLoops(ctx context.Context) ([]loops.Loop, error) {
	var out []loops.Loop
	for offset := 0; ; {
		p, err := b.loops.List(ctx, loops.LoopQuery{Statuses: []string{"running", "paused"}, Page: page.Page{Offset: offset, Limit: page.Plan.Max}})
		if err != nil {
			return nil, err
		}
		out = append(out, p.Loops...)
		if p.NextOffset == 0 || len(out) >= 200 {
			return out, nil
		}
		offset = p.NextOffset
	}
}
