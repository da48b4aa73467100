package board_test

import (
	"context"
	"html/template"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/board"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/task"
)

func newBoard(t *testing.T) (*board.Board, *app.Services) {
	t.Helper()
	s, err := app.Open(context.Background(), app.Config{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	b, err := board.New(board.Options{Services: func(context.Context, string) (*service.Set, error) { return &s.Set, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return b, s
}

func post(b *board.Board, a board.Access, path string, form url.Values) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", a.Base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	b.ServeHTTP(w, req, a, path)
	return w
}

func TestEdits(t *testing.T) {
	b, s := newBoard(t)
	ctx := context.Background()
	rw := board.Access{Project: "default", Base: "/p/web/"}

	t.Run("read-only refused", func(t *testing.T) {
		w := post(b, board.Access{Project: "default", Base: "/", ReadOnly: true}, "tasks", url.Values{"title": {"sneaky"}})
		if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "read-only") {
			t.Errorf("read-only POST: %d %s", w.Code, w.Body.String())
		}
		if pg, err := s.Plan.List(ctx, plan.TaskQuery{}); err != nil || pg.Total != 0 {
			t.Errorf("a read-only board created a task: %+v %v", pg, err)
		}
	})

	t.Run("created, redirected inside the board", func(t *testing.T) {
		w := post(b, rw, "tasks", url.Values{"title": {"first"}})
		if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/p/web/task/1" {
			t.Errorf("create: %d Location %q", w.Code, w.Header().Get("Location"))
		}
		w = post(b, rw, "task/1", url.Values{"priority": {"high"}, "back": {"//evil.example/x"}})
		if loc := w.Header().Get("Location"); w.Code != http.StatusSeeOther || loc != "/p/web/" {
			t.Errorf("edit with a foreign back: %d Location %q, want /p/web/", w.Code, loc)
		}
		d, err := s.Plan.Get(ctx, "1")
		if err != nil || d.Priority != "high" || d.Title != "first" {
			t.Errorf("after the edit: %+v %v", d.Task, err)
		}
	})

	t.Run("refusal shows the service's words", func(t *testing.T) {
		bad := task.Status("finished")
		_, err := s.Plan.Update(ctx, "1", plan.Change{Status: &bad})
		if err == nil {
			t.Fatal("the service took status finished")
		}
		want := template.HTMLEscapeString(err.Error())
		w := post(b, rw, "task/1", url.Values{"status": {"finished"}, "back": {"/task/1"}})
		body := w.Body.String()
		if w.Code != http.StatusUnprocessableEntity || !strings.Contains(body, `role="alert"`) || !strings.Contains(body, want) {
			t.Errorf("refused edit: %d %s", w.Code, body)
		}
		if !strings.Contains(body, `id="edit-task"`) {
			t.Error("the refusal is not shown on the task's page")
		}
	})
}
