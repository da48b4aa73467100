package memories

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/redact"
	"github.com/cairn-dev/cairn/internal/store"
)

// maxHookEdits bounds the edits of one tool call kept, and editHistory the
// earlier edits of a session an edit is compared with.
const (
	maxHookEdits = 32
	editHistory  = 500
)

// editDigest is an edit as the session keeps it: the file (relative,
// redacted) and digests of the text replaced and put in; never the text.
type editDigest struct{ path, old, new string }

func editHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// editDigests are the edits in the project, digested.
func (m *Memory) editDigests(es []Edit) []editDigest {
	var out []editDigest
	for _, e := range es {
		if len(out) == maxHookEdits {
			break
		}
		rel, ok := m.relative(e.Path)
		if !ok || e.Old == "" || e.Old == e.New {
			continue
		}
		rel, _ = redact.Redact(rel)
		out = append(out, editDigest{path: problem.Clip(rel, maxHookPath), old: editHash(e.Old), new: editHash(e.New)})
	}
	return out
}

// recordEdits keeps the edits' digests in the session and records as a
// revert each edit that puts back the text an earlier edit of the same
// file replaced; it returns what was undone.
func recordEdits(ctx context.Context, tx store.Tx, id memory.SessionID, edits []editDigest, now time.Time) ([]string, error) {
	if len(edits) == 0 {
		return nil, nil
	}
	earlier, _, err := tx.Events(ctx, store.EventQuery{Sessions: []memory.SessionID{id}, Kinds: []memory.EventKind{memory.EventEdit}, Limit: editHistory})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range edits {
		for _, x := range earlier {
			old, _, _ := strings.Cut(x.Detail, ">")
			if x.Subject != e.path || old != e.new {
				continue
			}
			detail := "an edit put back the text an edit of " + x.FirstAt.UTC().Format("15:04") + " replaced"
			if err := tx.RecordEvent(ctx, memory.Event{Session: id, Kind: memory.EventRevert, Key: memory.RevertEdit + ":" + e.path + ":" + e.new,
				Subject: e.path, Detail: detail, At: now}); err != nil {
				return nil, err
			}
			out = append(out, "edit of "+e.path)
			break
		}
		if err := tx.RecordEvent(ctx, memory.Event{Session: id, Kind: memory.EventEdit, Key: e.path + "\n" + e.old + ">" + e.new,
			Subject: e.path, Detail: e.old + ">" + e.new, At: now}); err != nil {
			return nil, err
		}
	}
	return out, nil
}
