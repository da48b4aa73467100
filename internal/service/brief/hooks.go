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
	// Client is the agent's client: its name, its own session id and its
	// process.
	Client memory.Client
	// Source is why the client's session started: startup, resume, clear
	// or compact. resume and compact continue the client's session.
	Source string
	AI     memory.Provider
	Boot   BootstrapRequest // Agent and Client are filled in
}

// HookStarted is what a session-start hook did and the context it gives.
type HookStarted struct {
	Session   memory.Session
	Resumed   bool
	Bootstrap Bootstrap
}

// StartHook opens the client's session (or carries it on when the client
// resumed or compacted it) and builds the bootstrap for the agent the
// session speaks as (a second window of a client gets an agent of its own).
func (b *Service) StartHook(ctx context.Context, in HookStart) (HookStarted, error) {
	res, err := b.memory.StartClient(ctx, memories.ClientStart{Agent: in.Agent, Client: in.Client, Source: in.Source, AI: in.AI})
	if err != nil {
		return HookStarted{}, err
	}
	out := HookStarted{Session: res.Session, Resumed: res.Resumed}
	in.Boot.Agent, in.Boot.Client = res.Session.Agent, in.Client
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
