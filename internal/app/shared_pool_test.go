package app

import (
	"context"
	"fmt"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
	"github.com/cairn-dev/cairn/internal/testing/wait"
)

// TestTeamModeProjectsShareOnePool: an HTTP server of many projects on
// PostgreSQL (DirProjects in team mode) opens one pool for all of them, not
// one per project; each project still sees only its own tasks.
func TestTeamModeProjectsShareOnePool(t *testing.T) {
	ctx := context.Background()
	id := strings.ToLower(pgtest.Project(t))
	id = id[len(id)-12:]
	appName := "cairn-app-" + id
	u, err := neturl.Parse(pgtest.URL(t))
	if err != nil || u.Scheme == "" {
		t.Skipf("the test database URL is not a URL (%v)", err)
	}
	q := u.Query()
	q.Set("application_name", appName)
	u.RawQuery = q.Encode()
	t.Setenv(EnvDatabaseURL, "")
	t.Setenv(EnvProject, "")
	const projects = 8
	named := map[string]string{}
	for i := range projects {
		dir := filepath.Join(t.TempDir(), fmt.Sprint("p", i))
		if err := os.MkdirAll(filepath.Join(dir, ".cairn"), 0o755); err != nil {
			t.Fatal(err)
		}
		named[fmt.Sprintf("p%d-%s", i, id)] = dir
	}
	def := t.TempDir()
	p, err := NewDirProjects(Config{Root: def, Project: "default-" + id, DatabaseURL: u.String()}, named)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for name := range named {
		s, err := p.Get(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Plan.Create(ctx, plan.NewTask{Title: "in " + name}); err != nil {
			t.Fatal(err)
		}
	}
	for name := range named {
		s, _ := p.Get(ctx, name)
		page, err := s.Plan.List(ctx, plan.TaskQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 1 || page.Items[0].Title != "in "+name {
			t.Errorf("project %s lists %+v; want only its own task", name, page.Items)
		}
	}
	admin, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	var n int
	if err := admin.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, appName).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n >= projects {
		t.Errorf("%d projects hold %d connections: a pool per project; want one shared pool", projects, n)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	// The server ends a backend shortly after its client hangs up: poll
	// it, another process.
	gone := wait.For(10*time.Second, func() bool {
		err := admin.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, appName).Scan(&n)
		return err != nil || n == 0
	})
	if !gone {
		t.Errorf("%d connections left 10s after the projects closed", n)
	}
}
