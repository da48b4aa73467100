package e2e

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
	"github.com/cairn-dev/cairn/internal/testing/embedserver"
)

// TestMemoryHybridSearch: with an embedding provider configured (a local
// server speaking /v1/embeddings, reached by the real client), a paraphrase
// that shares no word with its entry is found above entries that share its
// words but not its meaning. A provider failure never loses an entry: it is
// stored, searchable by its words, and embedded later by backfill.
func TestMemoryHybridSearch(t *testing.T) {
	emb := embedserver.Start(t)
	dir := cairntest.Project(t)
	env := []string{"CAIRN_EMBED_URL=" + emb.URL, "CAIRN_EMBED_MODEL=test-embed"}
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: memoryAll, Env: env})
	target := s.OK("memory_add_mistake", args{"title": "Password reset left old sessions valid",
		"content": "Resetting a password kept existing session cookies alive, so a stolen cookie was still accepted.",
		"fix":     "revoke every session of the user on reset"}).Str("id")
	// Distractors that share the query's surface words.
	s.OK("memory_add_convention", args{"title": "Someone picks the release name", "content": "The person on call picks a name for each release."})
	s.OK("observation", args{"type": "insight", "title": "The build keeps working offline", "content": "Vendored modules mean no network is needed."})
	s.OK("observation", args{"type": "pattern", "title": "New hires pick a buddy", "content": "Someone from another team, after the first week."})

	q := args{"query": "hijacked login keeps working after someone picks new credentials"}
	r := s.OK("memory_search", q)
	hits := r.Structured["hits"].([]any)
	if r.Str("mode") != "hybrid" || len(hits) == 0 || hits[0].(map[string]any)["id"] != target {
		t.Fatalf("hybrid search did not put the paraphrased entry first:\n%s", r.Text)
	}
	// The same query by full text alone ranks the distractors, not the target.
	s.Close()
	plain := cairntest.Start(t, cairntest.Options{Dir: dir, Args: memoryAll})
	lr := plain.OK("memory_search", q)
	if lr.Str("mode") != "bm25" {
		t.Fatalf("without a provider: mode %s", lr.Str("mode"))
	}
	if lhits, _ := lr.Structured["hits"].([]any); len(lhits) > 0 && lhits[0].(map[string]any)["id"] == target {
		t.Fatalf("full text alone already finds the target first; the test proves nothing:\n%s", lr.Text)
	}
	plain.Close()

	// The provider fails: the entry is stored anyway, and says so.
	s = cairntest.Start(t, cairntest.Options{Dir: dir, Args: memoryAll, Env: env})
	emb.FailAll(true)
	w := s.OK("memory_add_decision", args{"title": "Invoices are immutable once sent", "content": "Corrections are credit notes, never edits."})
	if !strings.Contains(w.Str("note"), "not embedded yet") || !strings.Contains(w.Text, "backfill") {
		t.Fatalf("a failed embedding is not reported: %s", w.Text)
	}
	// A search still answers, by full text, and says why.
	fr := s.OK("memory_search", args{"query": "credit notes"})
	if fr.Str("mode") != "bm25" || !strings.Contains(fr.Str("note"), "semantic ranking unavailable") || fr.Structured["total"] != float64(1) {
		t.Fatalf("search with the provider down: %s", fr.Text)
	}
	s.Close()
	emb.FailAll(false)
	cmd := exec.Command(cairntest.Binary(t), "memory", "backfill")
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Embedded 1 entry; 0 still without a vector") {
		t.Fatalf("backfill: %v\n%s", err, out)
	}
	s = cairntest.Start(t, cairntest.Options{Dir: dir, Args: memoryAll, Env: env})
	pr := s.OK("memory_search", args{"query": "a sent bill can never be changed afterwards"})
	if pr.Str("mode") != "hybrid" || !strings.Contains(pr.Text, "Invoices are immutable") {
		t.Fatalf("the backfilled entry is not found by meaning: %s", pr.Text)
	}
}
