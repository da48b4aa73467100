package state

import (
	"encoding/json"
	"os"
)

// State is what the daemon remembers between runs.
type State struct {
	LastRun string   `json:"last_run"`
	Seen    []string `json:"seen"`
}

// Load reads the state file; a missing file is an empty state.
func Load(path string) (*State, error) {
	var s State
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return &s, nil
	}
	if err != nil {
		return nil, err
	}
	json.Unmarshal(b, &s)
	return &s, nil
}
