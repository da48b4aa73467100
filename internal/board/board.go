// Package board is Cairn's web board for the people watching the agents:
// the outline with every agent's YOU ARE HERE, the plan by status, loops,
// memory and sessions, live over Server-Sent Events from the project's
// change feed. Like every surface it decodes a request, calls a service and
// renders the result (html/template); edits go through the same services,
// and are refused with the same words, as the MCP tools. Authentication,
// Host and Origin checks are the HTTP server's (internal/httpserver), which
// hands each request over with its Access.
package board

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/service"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets
var assetFS embed.FS

// Options configures a Board.
type Options struct {
	// Services returns the named project's services; required.
	Services func(ctx context.Context, project string) (*service.Set, error)
	// Context ends the live streams when it is done (server shutdown).
	Context context.Context
	Logger  *slog.Logger
}

// Access is who a request is from, as the HTTP server established it.
type Access struct {
	Project string // the project's name in the server's routes ("default" for the one it was started in)
	// Name is what the page calls the project: its directory's name for
	// the default project; empty is Project.
	Name     string
	Base     string // the board's path: "/" or "/p/NAME/"
	ReadOnly bool   // no edit controls, and edits refused
	Login    bool   // the board was opened with a login (offer a logout)
}

// Board serves the web board.
type Board struct {
	opts Options
	log  *slog.Logger
	mux  *http.ServeMux
	tmpl *templates
}

// New returns a Board.
func New(o Options) (*Board, error) {
	if o.Services == nil {
		return nil, errors.New("board: Options.Services is required")
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	t, err := parseTemplates()
	if err != nil {
		return nil, err
	}
	b := &Board{opts: o, log: o.Logger, tmpl: t}
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", b.outline)
	m.HandleFunc("GET /plan", b.plan)
	m.HandleFunc("GET /task/{id}", b.taskPage)
	m.HandleFunc("POST /tasks", b.edit(b.newTask))
	m.HandleFunc("POST /task/{id}", b.edit(b.updateTask))
	m.HandleFunc("POST /task/{id}/subtasks", b.edit(b.addSubtask))
	m.HandleFunc("POST /task/{id}/deps", b.edit(b.changeDeps))
	m.HandleFunc("GET /loops", b.loops)
	m.HandleFunc("GET /loop/{id}", b.loopPage)
	m.HandleFunc("POST /loop/{id}/{op}", b.edit(b.controlLoop))
	m.HandleFunc("GET /memory", b.memory)
	m.HandleFunc("GET /sessions", b.sessions)
	m.HandleFunc("GET /session/{id}", b.sessionPage)
	m.HandleFunc("GET /insight", b.insightPage)
	m.HandleFunc("GET /drafts", b.draftsPage)
	m.HandleFunc("POST /draft/{id}/{op}", b.edit(b.decideDraft))
	m.HandleFunc("GET /events", b.events)
	sub, _ := fs.Sub(assetFS, "assets")
	assets := http.FileServerFS(sub)
	m.Handle("GET /assets/", http.StripPrefix("/assets/", cacheAssets(assets)))
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		b.render(w, r, http.StatusNotFound, "notfound", "Not found", nil)
	})
	b.mux = m
	return b, nil
}

type accessKey struct{}

func access(r *http.Request) Access {
	a, _ := r.Context().Value(accessKey{}).(Access)
	return a
}

// ServeHTTP serves a request for the board at a.Base; path is the part of
// the URL path after the base ("" or "plan", "task/3", …).
func (b *Board) ServeHTTP(w http.ResponseWriter, r *http.Request, a Access, path string) {
	var version uint64
	ctx := context.WithValue(context.WithValue(r.Context(), accessKey{}, a), versionKey{}, &version)
	r2 := r.Clone(ctx)
	r2.URL.Path = "/" + strings.TrimPrefix(path, "/")
	r2.URL.RawPath = ""
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "same-origin")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
	b.mux.ServeHTTP(w, r2)
}

// Login renders the login form for a board at base, with msg (if any) saying
// why the last try failed; status is the HTTP status to answer with.
func (b *Board) Login(w http.ResponseWriter, r *http.Request, base, project, msg string, status int) {
	r2 := r.WithContext(context.WithValue(r.Context(), accessKey{}, Access{Project: project, Base: base, ReadOnly: true}))
	b.renderPage(w, r2, status, "login", "Sign in", nil, msg)
}

func cacheAssets(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		h.ServeHTTP(w, r)
	})
}

type versionKey struct{}

// services returns the request's project services, noting the project's
// version before anything is read: the page carries it, so its script
// knows which change it reflects.
func (b *Board) services(r *http.Request) (*service.Set, error) {
	set, err := b.opts.Services(r.Context(), access(r).Project)
	if err != nil {
		return nil, err
	}
	if v, ok := r.Context().Value(versionKey{}).(*uint64); ok && *v == 0 {
		if n, err := set.Version(r.Context()); err == nil {
			*v = n
		}
	}
	return set, nil
}

// offset reads a paging offset from the query; a bad one is 0.
func offset(r *http.Request, name string) int {
	n, err := strconv.Atoi(r.URL.Query().Get(name))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// fail renders a failure to read what a page shows.
func (b *Board) fail(w http.ResponseWriter, r *http.Request, err error) {
	msg, status, failed := refusal(err)
	if failed {
		b.log.Error("board", "path", r.URL.Path, "error", err)
	}
	if msg == "" {
		msg = "something went wrong reading the project (details are in the server log); reload to retry"
	}
	b.renderPage(w, r, status, "error", "Problem", nil, msg)
}

// edit wraps a handler of a form that changes the project: it refuses it on
// a read-only board, parses the form, and on a refusal renders the page the
// form came from with the service's message.
func (b *Board) edit(fn func(w http.ResponseWriter, r *http.Request, set *service.Set) (redirect string, err error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a := access(r)
		if a.ReadOnly {
			b.renderPage(w, r, http.StatusForbidden, "error", "Read-only", nil,
				"this board is read-only: its token may read the project but not change it; sign in with a read-write token to edit")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
		if err := r.ParseForm(); err != nil {
			b.renderPage(w, r, http.StatusBadRequest, "error", "Problem", nil, "the form could not be read: send it again from the board")
			return
		}
		set, err := b.services(r)
		if err != nil {
			b.fail(w, r, err)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
		defer cancel()
		to, err := fn(w, r.WithContext(ctx), set)
		if err != nil {
			msg, _, failed := refusal(err)
			if failed {
				b.log.Error("board edit", "path", r.URL.Path, "error", err)
			}
			if msg == "" {
				msg = "the change failed (details are in the server log); nothing was changed unless the page shows it"
			}
			b.refused(w, r, msg)
			return
		}
		http.Redirect(w, r, a.Base+strings.TrimPrefix(to, "/"), http.StatusSeeOther)
	}
}

type flashKey struct{}

// refused re-renders the page the form came from (its "back" field) with
// the refusal, answered 422.
func (b *Board) refused(w http.ResponseWriter, r *http.Request, msg string) {
	back := r.PostFormValue("back")
	r2 := r.Clone(context.WithValue(r.Context(), flashKey{}, msg))
	r2.Method = http.MethodGet
	r2.URL.Path, r2.URL.RawQuery, _ = strings.Cut("/"+strings.TrimPrefix(safeBack(back), "/"), "?")
	r2.Form, r2.PostForm = nil, nil
	b.mux.ServeHTTP(w, r2)
}

// safeBack keeps a "back" path inside the board.
func safeBack(p string) string {
	if p == "" || strings.Contains(p, "//") || strings.Contains(p, "\\") || strings.ContainsAny(p, "\r\n") {
		return "/"
	}
	return p
}

func flash(r *http.Request) string {
	s, _ := r.Context().Value(flashKey{}).(string)
	return s
}

func (b *Board) render(w http.ResponseWriter, r *http.Request, status int, name, title string, data any) {
	b.renderPage(w, r, status, name, title, data, "")
}

func (b *Board) renderPage(w http.ResponseWriter, r *http.Request, status int, name, title string, data any, msg string) {
	a := access(r)
	if msg == "" {
		msg = flash(r)
	}
	if msg != "" && status == http.StatusOK {
		status = http.StatusUnprocessableEntity
	}
	p := pageData{Access: a, Title: title, Nav: name, Error: msg, Data: data, Path: r.URL.Path}
	if v, ok := r.Context().Value(versionKey{}).(*uint64); ok && *v != 0 {
		p.Version = strconv.FormatUint(*v, 10)
	}
	var buf strings.Builder
	if err := b.tmpl.execute(&buf, name, p); err != nil {
		b.log.Error("board render", "page", name, "error", err)
		http.Error(w, "could not render the page", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = fmt.Fprint(w, buf.String())
}

// pageData is what every template gets.
type pageData struct {
	Access
	Title string
	Nav   string
	Path  string // the board-relative path, for forms' "back"
	Error string
	Data  any
	// Version is the project's version the page reflects ("" unknown).
	Version string
}
