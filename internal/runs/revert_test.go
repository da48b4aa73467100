package runs

import (
	"reflect"
	"testing"
)

func TestReverts(t *testing.T) {
	for cmd, want := range map[string][]Revert{
		"git revert abc123":                                  {{What: "abc123", How: "git revert"}},
		"git revert --no-edit HEAD~1 HEAD":                   {{What: "HEAD~1 HEAD", How: "git revert"}},
		"cd repo && git -C sub revert -m 1 deadbeef":         {{What: "deadbeef", How: "git revert"}},
		`git commit -m 'Revert "add cache"'`:                 {{What: `Revert "add cache"`, How: "commit message"}},
		`git commit -am 'Revert the retry loop' && git push`: {{What: "Revert the retry loop", How: "commit message"}},
		"GIT_EDITOR=true git revert --continue":              nil,
		"git revert --abort":                                 nil,
		`git commit -m "Reverting is not a revert prefix"`:   nil,
		`git commit -m "fix: revert nothing"`:                nil,
		"go test ./...":                                      nil,
		"echo git revert abc":                                nil,
		`bash -c "git log"`:                                  nil,
	} {
		if got := Reverts(cmd); !reflect.DeepEqual(got, want) {
			t.Errorf("Reverts(%q) = %+v, want %+v", cmd, got, want)
		}
	}
}
