package bridge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// snapshot is what the bridge knows of the remote: its identity and its
// lists. It is the on-disk cache too, so a bridge started while the remote is
// down can still say what the remote offers. It holds no credentials.
type snapshot struct {
	URL               string                  `json:"url"`
	SavedAt           time.Time               `json:"saved_at"`
	ServerInfo        *mcp.Implementation     `json:"server_info,omitempty"`
	Instructions      string                  `json:"instructions,omitempty"`
	Tools             []*mcp.Tool             `json:"tools"`
	Prompts           []*mcp.Prompt           `json:"prompts"`
	Resources         []*mcp.Resource         `json:"resources"`
	ResourceTemplates []*mcp.ResourceTemplate `json:"resource_templates"`
}

// DefaultCacheDir is where the lists are cached unless --cache-dir says
// otherwise: the user's cache directory, under cairn/bridge.
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the user cache directory: %w (set --cache-dir)", err)
	}
	return filepath.Join(d, "cairn", "bridge"), nil
}

// CachePath is the cache file for url in dir: one file per remote, named by
// a hash of its URL.
func CachePath(dir, url string) string {
	sum := sha256.Sum256([]byte(url))
	return filepath.Join(dir, hex.EncodeToString(sum[:12])+".json")
}

// loadSnapshot reads the cache file; a missing file is (nil, nil).
func loadSnapshot(path, url string) (*snapshot, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read cache %s: %w", path, err)
	}
	var s snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("read cache %s: %w", path, err)
	}
	if s.URL != url {
		return nil, fmt.Errorf("read cache %s: it is for %s, not %s", path, s.URL, url)
	}
	return &s, nil
}

// saveSnapshot writes the cache file atomically: a reader (another bridge
// starting) sees the old file or the new one, never half of one.
func saveSnapshot(path string, s *snapshot) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encode cache: %w", err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create cache directory: %w", err)
	}
	f, err := os.CreateTemp(dir, ".bridge-*.tmp")
	if err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename this fails harmlessly
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("write cache: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write cache: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	return nil
}

// sameLists reports whether two snapshots list the same things.
func sameLists(a, b *snapshot) bool {
	if a == nil || b == nil {
		return a == b
	}
	ja, _ := json.Marshal([]any{a.ServerInfo, a.Instructions, a.Tools, a.Prompts, a.Resources, a.ResourceTemplates})
	jb, _ := json.Marshal([]any{b.ServerInfo, b.Instructions, b.Tools, b.Prompts, b.Resources, b.ResourceTemplates})
	return string(ja) == string(jb)
}
