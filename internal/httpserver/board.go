package httpserver

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/board"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service"
)

// BoardCookie holds a board visitor's token: HttpOnly (no script reads it),
// SameSite=Strict (no other site's page sends it), never in a URL.
const BoardCookie = "cairn_board"

const boardCookieAge = 7 * 24 * time.Hour

func (s *Server) newBoard() (*board.Board, error) {
	return board.New(board.Options{
		Services: func(ctx context.Context, project string) (*service.Set, error) {
			p, err := s.cfg.Projects.Get(ctx, project)
			if err != nil {
				return nil, err
			}
			return &p.Set, nil
		},
		Context: s.streamsCtx,
		Logger:  s.log.With("surface", "board"),
	})
}

// serveBoard checks a request to the web board as serveMCP checks one to
// /mcp (Host, Origin, token, project), with a cookie as well as the
// Authorization header, and a login form for a browser without either.
// Forms that change anything must come from the board's own origin.
func (s *Server) serveBoard(w http.ResponseWriter, r *http.Request, pathProject, rest string) {
	base := "/"
	if pathProject != "" {
		base = "/p/" + pathProject + "/"
	}
	if s.draining.Load() {
		w.Header().Set("Connection", "close")
		writeProblem(w, *answerFor("shutting_down", &problem.Error{Kind: problem.Unavailable,
			Problem: "the server is shutting down", Fix: "reload after the restart"}))
		return
	}
	if p := s.checkHost(r); p != nil {
		writeProblem(w, *p)
		return
	}
	if p := s.checkOrigin(r); p != nil {
		writeProblem(w, *p)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if p := s.checkSameOrigin(r); p != nil {
			writeProblem(w, *p)
			return
		}
	}
	// Static assets carry no project data; the login page needs them.
	if strings.HasPrefix(rest, "assets/") && r.Method == http.MethodGet {
		s.board.ServeHTTP(w, r, board.Access{Base: base}, rest)
		return
	}
	switch {
	case rest == "login" && r.Method == http.MethodPost:
		s.boardLogin(w, r, base, pathProject)
		return
	case rest == "logout" && r.Method == http.MethodPost:
		http.SetCookie(w, &http.Cookie{Name: BoardCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
		http.Redirect(w, r, base, http.StatusSeeOther)
		return
	}
	tok, viaCookie, p := s.boardToken(r)
	if p != nil {
		if viaCookie {
			// A stale cookie (a token since removed): forget it.
			http.SetCookie(w, &http.Cookie{Name: BoardCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
		}
		if r.Method == http.MethodGet && rest != "events" {
			s.board.Login(w, r, base, pathProject, p.Problem, http.StatusUnauthorized)
			return
		}
		writeProblem(w, *p)
		return
	}
	name, p := s.project(r, pathProject, tok)
	if p != nil {
		writeProblem(w, *p)
		return
	}
	if rest == "events" {
		release, p := s.admitStream(tok)
		if p != nil {
			writeProblem(w, *p)
			return
		}
		defer release()
		// The event stream stays open: lift the read deadline ReadTimeout
		// set, as for MCP's streams, or the server would cut it.
		_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
	}
	a := board.Access{Project: name, Name: s.projectName(r.Context(), name), Base: base, ReadOnly: s.cfg.ReadOnly || (tok != nil && tok.ReadOnly), Login: viaCookie}
	start := time.Now()
	s.board.ServeHTTP(w, r, a, rest)
	if rest != "events" {
		s.log.Debug("board request", "method", r.Method, "path", r.URL.Path, "project", name, "took", time.Since(start))
	}
}

// boardToken finds the token of a board request: the Authorization header,
// else the board cookie. With no tokens configured every request passes.
func (s *Server) boardToken(r *http.Request) (tok *Token, viaCookie bool, p *answer) {
	if !s.AuthRequired() {
		return nil, false, nil
	}
	if r.Header.Get("Authorization") != "" {
		t, p := s.authenticate(discard{}, r)
		return t, false, p
	}
	c, err := r.Cookie(BoardCookie)
	if err != nil || c.Value == "" {
		return nil, false, answerFor("missing_token", &problem.Error{Kind: problem.Unauthorized,
			Problem: "this board needs a token", Fix: "sign in with a token (the same as for /mcp)"})
	}
	t, ok := s.tokens.find(c.Value)
	if !ok {
		s.log.Warn("rejected an unknown board cookie", "remote", r.RemoteAddr, "path", r.URL.Path)
		return nil, true, answerFor("invalid_token", &problem.Error{Kind: problem.Unauthorized,
			Problem: "the token you signed in with is no longer valid; sign in again", Fix: "sign in again"})
	}
	return &t, true, nil
}

// boardLogin trades a token posted from the login form (or the page's
// script, from the URL fragment) for the board cookie.
func (s *Server) boardLogin(w http.ResponseWriter, r *http.Request, base, pathProject string) {
	if !s.AuthRequired() {
		http.Redirect(w, r, base, http.StatusSeeOther)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	if err := r.ParseForm(); err != nil {
		s.board.Login(w, r, base, pathProject, "the form could not be read; send it again", http.StatusBadRequest)
		return
	}
	secret := strings.TrimSpace(r.PostForm.Get("token"))
	tok, ok := s.tokens.find(secret)
	if !ok {
		s.log.Warn("rejected an unknown token at the board's login", "remote", r.RemoteAddr, "path", r.URL.Path)
		s.board.Login(w, r, base, pathProject, "that token is not one this server knows: check it for typos, or ask the server's operator for one", http.StatusUnauthorized)
		return
	}
	if pathProject != "" && !tok.allows(pathProject) {
		s.board.Login(w, r, base, pathProject, fmt.Sprintf("token %s may not use project %q; use a token for it", tok.Name, pathProject), http.StatusForbidden)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: BoardCookie, Value: secret, Path: "/", MaxAge: int(boardCookieAge / time.Second),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	s.log.Info("board login", "token", tok.Name, "remote", r.RemoteAddr)
	http.Redirect(w, r, base, http.StatusSeeOther)
}

// checkSameOrigin is the board's defence against cross-site requests: a
// form that changes anything must name the board's own origin (Origin, or
// Sec-Fetch-Site: same-origin for a browser that omits it). A request that
// carries its token in the Authorization header is no browser's doing.
func (s *Server) checkSameOrigin(r *http.Request) *answer {
	if r.Header.Get("Authorization") != "" {
		return nil
	}
	if o := r.Header.Get("Origin"); o != "" {
		if u, err := url.Parse(o); err == nil && u.Host != "" {
			return nil // checkOrigin has accepted it
		}
	}
	if r.Header.Get("Sec-Fetch-Site") == "same-origin" {
		return nil
	}
	return answerFor("origin_not_allowed", &problem.Error{Kind: problem.Forbidden,
		Problem: "a change to the board must come from the board's own page (no Origin header was sent)",
		Fix:     "submit the form on the board; a script sends Authorization: Bearer <token> instead"})
}

// discard is a ResponseWriter for authenticate's challenge header, which
// the board does not send.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}

// projectName is what the board calls a project: a named one by its name,
// the default one (the directory the server was started in) by its
// directory's name, as the bootstrap does, never "default".
func (s *Server) projectName(ctx context.Context, name string) string {
	if name != app.DefaultProject {
		return name
	}
	p, err := s.cfg.Projects.Get(ctx, name)
	if err != nil || p.Root == "" {
		return name // the page's own request reports the error
	}
	return filepath.Base(p.Root)
}
