package srv

import (
	"fmt"
	"github.com/acme/app/internal/auth"
	"log/slog"
	"net/http"
)

func Handler(a *auth.Checker) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		slog.Info("request", "path", r.URL.Path)
		fmt.Fprintln(w, a.User(r))
	})
}
