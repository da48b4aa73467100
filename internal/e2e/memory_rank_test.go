package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestMemorySearchConversation: a conversation stored turn by turn, where
// every turn names the speaker, searched with a question in plain English
// through the real binary over stdio. The answering turn comes first,
// ranked by relevance with a score (never listed by date), and the total
// says it is a lower bound; a question of stopwords alone says so.
func TestMemorySearchConversation(t *testing.T) {
	dir := cairntest.Project(t)
	ctx := context.Background()
	st, err := sqlite.Open(ctx, project.DBPath(dir), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC)
	fillers := []string{"Thanks for the support, it means a lot.", "Our group chat has been so busy lately!",
		"How are you doing? It's been a while.", "I love that, you always make things fun."}
	err = st.Update(ctx, func(tx store.Tx) error {
		for i := range 1100 {
			at := t0.Add(time.Duration(i) * time.Hour)
			e := memory.Entry{Type: memory.Insight, Title: fmt.Sprintf("Caroline · turn %d", i), Content: fillers[i%len(fillers)],
				Tags: []string{"caroline"}, CreatedAt: at, UpdatedAt: at}
			if i == 400 {
				e.Content = "I went to the LGBTQ support group yesterday and it was so powerful."
			}
			if _, err := tx.PutMemory(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()

	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: memoryAll})
	r := s.OK("memory_search", args{"query": "When did Caroline go to the support group?"})
	hits := r.Structured["hits"].([]any)
	if len(hits) != 10 || hits[0].(map[string]any)["id"] != "m401" || r.Str("mode") != "bm25" {
		t.Fatalf("search: %s", r.Text)
	}
	for i, h := range hits {
		if score, _ := h.(map[string]any)["score"].(float64); score <= 0 {
			t.Errorf("hit %d has no score: %v", i, h)
		}
	}
	if r.Structured["total"] != float64(1100) || r.Structured["total_is_lower_bound"] != true {
		t.Errorf("total %v (lower bound %v), want 1100+", r.Structured["total"], r.Structured["total_is_lower_bound"])
	}
	r = s.OK("memory_search", args{"query": "what did they do?"})
	if r.Structured["total"] != float64(0) || r.Str("note") == "" {
		t.Errorf("stopwords: %s", r.Text)
	}
}
