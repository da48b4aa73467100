package memories

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/redact"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store"
)

// BranchPatch is what a branch save adds.
type BranchPatch struct {
	Feature, Phase, Notes string
	Decisions             []memory.Note
	Errors                []memory.Resolved
	FilesModified         []string
	TasksCompleted        []string
	TasksPending          []string
}

// branchName is the branch a call names, else the current one.
func (m *Memory) branchName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		name = m.Branch()
	}
	if name == "" {
		return "", &problem.FieldError{Field: "branch", Problem: "is missing and the project is not in a git work tree",
			Fix: "pass the branch name"}
	}
	if len(name) > 255 || strings.ContainsAny(name, " \t\n~^:?*[\\") {
		return "", &problem.FieldError{Field: "branch", Problem: fmt.Sprintf("is %q, not a git branch name", problem.Clip(name, 40)), Fix: "use the name git shows, such as feat/login"}
	}
	return redactedBranch(name), nil
}

// GetBranch returns a branch's context (the current branch's by default);
// a branch nothing was saved for has an empty one.
func (m *Memory) GetBranch(ctx context.Context, name string) (memory.BranchContext, error) {
	name, err := m.branchName(name)
	if err != nil {
		return memory.BranchContext{}, err
	}
	var b memory.BranchContext
	err = m.store.View(ctx, func(tx store.Tx) error {
		var err error
		b, _, err = store.BranchContext(ctx, tx, name)
		return err
	})
	b.Branch = name
	return b, err
}

// BranchPage is a branch context with a page of each of its lists: the
// newest Limit after skipping the newest Offset, in the order recorded.
// Every session that ends on a branch adds its record to the context, so a
// long-lived branch's lists grow without end.
type BranchPage struct {
	memory.BranchContext
	// Totals are the lists' whole lengths.
	Decisions, Errors, FilesModified, TasksCompleted, TasksPending int
	Offset                                                         int
	NextOffset                                                     int // zero: no list has older items
}

// GetBranchPage returns a branch's context with a page of each of its
// lists (page.Record's rule), newest first.
func (m *Memory) GetBranchPage(ctx context.Context, name string, pg page.Page) (BranchPage, error) {
	p, err := page.Record.Apply(pg)
	if err != nil {
		return BranchPage{}, err
	}
	b, err := m.GetBranch(ctx, name)
	if err != nil {
		return BranchPage{}, err
	}
	out := BranchPage{Decisions: len(b.Decisions), Errors: len(b.Errors), FilesModified: len(b.FilesModified),
		TasksCompleted: len(b.TasksCompleted), TasksPending: len(b.TasksPending), Offset: p.Offset}
	longest := max(out.Decisions, out.Errors, out.FilesModified, out.TasksCompleted, out.TasksPending)
	out.NextOffset = page.NextOffset(p.Offset, p.Limit, longest)
	b.Decisions = newest(b.Decisions, p)
	b.Errors = newest(b.Errors, p)
	b.FilesModified = newest(b.FilesModified, p)
	b.TasksCompleted = newest(b.TasksCompleted, p)
	b.TasksPending = newest(b.TasksPending, p)
	out.BranchContext = b
	return out, nil
}

// newest is the page p of l counted from its end: the newest p.Limit items
// after skipping the newest p.Offset, in l's order.
func newest[T any](l []T, p page.Page) []T {
	hi := max(0, len(l)-p.Offset)
	return l[max(0, hi-p.Limit):hi]
}

// SaveBranch adds to a branch's context.
func (m *Memory) SaveBranch(ctx context.Context, name string, p BranchPatch) (memory.BranchContext, int, error) {
	name, err := m.branchName(name)
	if err != nil {
		return memory.BranchContext{}, 0, err
	}
	sp := SessionPatch{Goal: p.Feature, Summary: p.Notes, Decisions: p.Decisions, ErrorsResolved: p.Errors,
		FilesModified: p.FilesModified, TasksCompleted: p.TasksCompleted, TasksPending: p.TasksPending}
	red, err := sp.clean()
	if err != nil {
		return memory.BranchContext{}, red, err
	}
	phase, r := redact.Redact(p.Phase)
	red += r.Total
	var b memory.BranchContext
	err = m.store.Update(ctx, func(tx store.Tx) error {
		var err error
		if b, _, err = store.BranchContext(ctx, tx, name); err != nil {
			return err
		}
		b.Branch = name
		if sp.Goal != "" {
			b.Feature = sp.Goal
		}
		if phase = strings.TrimSpace(phase); phase != "" {
			b.Phase = phase
		}
		b = memory.Merge(b, memory.BranchContext{Notes: sp.Summary, Decisions: sp.Decisions, Errors: sp.ErrorsResolved,
			FilesModified: sp.FilesModified, TasksCompleted: sp.TasksCompleted})
		if sp.TasksPending != nil {
			b.TasksPending = memory.Union(nil, sp.TasksPending)
		}
		b.UpdatedAt = m.now()
		return tx.SetBranchContext(ctx, b)
	})
	if err != nil {
		return memory.BranchContext{}, red, fmt.Errorf("save branch %s: %w", name, err)
	}
	return b, red, nil
}

// Branches lists every branch's context, most recently updated first.
func (m *Memory) Branches(ctx context.Context) ([]memory.BranchContext, error) {
	var out []memory.BranchContext
	err := m.store.View(ctx, func(tx store.Tx) (err error) {
		out, err = tx.BranchContexts(ctx)
		return err
	})
	return out, err
}

// Promoted is what a promotion made permanent.
type Promoted struct {
	Branch  string
	Added   []memory.Entry // new decisions and mistakes
	Already int            // promoted before, left as they were
}

// promotedUID is the uid of a branch decision's permanent entry, the same
// every time, so promoting twice adds nothing.
func promotedUID(branch, decision string) string {
	sum := sha256.Sum256([]byte(branch + "\x00" + decision))
	return "p" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:10]))
}

// PromoteBranch moves a branch's decisions into permanent memory as
// decision entries (and its resolved errors as mistakes), once each.
func (m *Memory) PromoteBranch(ctx context.Context, name string) (Promoted, error) {
	name, err := m.branchName(name)
	if err != nil {
		return Promoted{}, err
	}
	pr := Promoted{Branch: name}
	now := m.now()
	var added []memory.Entry
	err = m.store.Update(ctx, func(tx store.Tx) error {
		b, ok, err := store.BranchContext(ctx, tx, name)
		if err != nil {
			return err
		}
		if !ok {
			return memory.NotFound("branch context", name)
		}
		for _, d := range b.Decisions {
			uid := promotedUID(name, d.Decision)
			if _, ok, err := store.MemoryByUID(ctx, tx, uid); err != nil {
				return err
			} else if ok {
				pr.Already++
				continue
			}
			e := memory.Entry{UID: uid, Type: memory.Decision, Title: problem.Clip(d.Decision, memory.MaxTitle), Content: d.Decision,
				Rationale: d.Reasoning, Branch: name, SessionID: d.SessionID.String(), Tags: []string{"promoted"}, CreatedAt: now, UpdatedAt: now}
			e.Normalize()
			if err := memory.Validate(e); err != nil {
				return err
			}
			if e, err = tx.PutMemory(ctx, e); err != nil {
				return err
			}
			added = append(added, e)
		}
		for _, r := range b.Errors {
			uid := promotedUID(name, "error\x00"+r.Error)
			if _, ok, err := store.MemoryByUID(ctx, tx, uid); err != nil {
				return err
			} else if ok {
				pr.Already++
				continue
			}
			e := memory.Entry{UID: uid, Type: memory.Mistake, Title: problem.Clip(r.Error, memory.MaxTitle), Content: r.Error, Fix: r.Fix,
				Branch: name, SessionID: r.SessionID.String(), Tags: []string{"promoted"}, Occurrences: 1, CreatedAt: now, UpdatedAt: now}
			e.Normalize()
			// A mistake already in memory is not counted again: promoting
			// twice must change nothing.
			if _, ok, err := store.MistakeByFingerprint(ctx, tx, memory.Fingerprint(e.Title)); err != nil {
				return err
			} else if ok {
				pr.Already++
				continue
			}
			// With its first recording, as Record keeps for every mistake.
			if e, err = tx.PutMemory(ctx, e, memory.OccurrenceOf(e, 1)); err != nil {
				return err
			}
			added = append(added, e)
		}
		b.PromotedAt, b.UpdatedAt = now, now
		return tx.SetBranchContext(ctx, b)
	})
	if err != nil {
		return Promoted{}, fmt.Errorf("promote branch %s: %w", name, err)
	}
	pr.Added = added
	m.embedEntries(ctx, added...)
	return pr, nil
}

// MergeBranch folds one branch's context into another's, as the branch
// itself is merged; the source remembers where it went.
func (m *Memory) MergeBranch(ctx context.Context, from, into string) (memory.BranchContext, error) {
	if strings.TrimSpace(into) == "" {
		return memory.BranchContext{}, &problem.FieldError{Field: "into", Problem: "is required to merge", Fix: "pass the branch it merges into, such as main"}
	}
	from, err := m.branchName(from)
	if err != nil {
		return memory.BranchContext{}, withFieldName(err, "from")
	}
	if into, err = m.branchName(into); err != nil {
		return memory.BranchContext{}, withFieldName(err, "into")
	}
	if from == into {
		return memory.BranchContext{}, &problem.FieldError{Field: "into", Problem: "is the branch being merged", Fix: "pass into: the branch it is merged into, such as main"}
	}
	var out memory.BranchContext
	err = m.store.Update(ctx, func(tx store.Tx) error {
		src, ok, err := store.BranchContext(ctx, tx, from)
		if err != nil {
			return err
		}
		if !ok {
			return memory.NotFound("branch context", from)
		}
		dst, _, err := store.BranchContext(ctx, tx, into)
		if err != nil {
			return err
		}
		dst.Branch = into
		dst = memory.Merge(dst, src)
		now := m.now()
		dst.UpdatedAt, src.MergedInto, src.UpdatedAt = now, into, now
		out = dst
		if err := tx.SetBranchContext(ctx, src); err != nil {
			return err
		}
		return tx.SetBranchContext(ctx, dst)
	})
	if err != nil {
		return memory.BranchContext{}, fmt.Errorf("merge branch %s into %s: %w", from, into, err)
	}
	return out, nil
}

func withFieldName(err error, field string) error {
	if fe, ok := err.(*problem.FieldError); ok {
		c := *fe
		c.Field = field
		return &c
	}
	return err
}
