package brief

import (
	"context"
	"os"

	"github.com/cairn-dev/cairn/internal/words"
)

// Setting is one configuration value in force and where it came from.
type Setting struct {
	Name   string
	Value  string
	Source string // a flag, an environment variable, "default", "detected" …
}

// Config returns the configuration in force: the surface's settings (its
// flags), then the project's (root, store, branch, embeddings, budgets),
// and, while an upgrade's re-index runs, how far it has come.
func (b *Service) Config(ctx context.Context, surface []Setting) []Setting {
	out := append([]Setting(nil), surface...)
	out = append(out, b.opts.Settings...)
	if p, err := b.memory.IndexProgress(ctx); err != nil {
		out = append(out, Setting{"memory index", "unknown: " + err.Error(), "store"})
	} else if p.Rebuilding {
		out = append(out, Setting{"memory index", p.String(), "store (re-indexed in the background after an upgrade)"})
	}
	if br := b.memory.Branch(); br != "" {
		out = append(out, Setting{"branch", br, "detected (.git/HEAD)"})
	}
	emb := Setting{"embeddings", "off: memory search is BM25 only", "default (CAIRN_EMBED_URL unset)"}
	if b.memory.Semantic() {
		emb = Setting{"embeddings", "on: " + b.memory.Model(), "env CAIRN_EMBED_URL, CAIRN_EMBED_MODEL"}
	}
	out = append(out, emb,
		Setting{"hook session-start cap", "9500 bytes", "built in (Claude Code cuts added context above 10,000 characters)"})
	if ins := b.knowledge.Project().Instructions; len(ins) > 0 {
		out = append(out, Setting{"agent instructions", words.List(ins, 6), "detected"})
	}
	return out
}

// EnvSource says where a value set by flag or environment came from.
func EnvSource(flagChanged bool, flag, env string) string {
	switch {
	case flagChanged:
		return "flag --" + flag
	case env != "" && os.Getenv(env) != "":
		return "env " + env
	}
	return "default"
}
