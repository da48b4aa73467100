package cli

import (
	"runtime/debug"
	"testing"
)

func TestVersionLine(t *testing.T) {
	vcs := func(rev, at, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "-compiler", Value: "gc"}, {Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: at}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "3f2a9c1d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b"
	for _, c := range []struct {
		name    string
		version string
		bi      *debug.BuildInfo
		want    string
	}{
		{"no build info", "", nil, "cairn dev"},
		{"go build, vcs stamping off", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "cairn dev"},
		{"go build in a clean checkout", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261129085824-3f2a9c1d5e6f"},
			Settings: vcs(rev, "2026-11-29T08:58:24Z", "false")}, "cairn dev (3f2a9c1, 2026-11-29)"},
		{"go build with local changes", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.1-0.20261129085824-3f2a9c1d5e6f+dirty"},
			Settings: vcs(rev, "2026-11-29T23:58:24-02:00", "true")}, "cairn dev (3f2a9c1-dirty, 2026-11-30)"},
		{"go install …@v1.2.0", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "cairn v1.2.0"},
		{"-ldflags -X main.version", "v1.3.0-rc1", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: vcs(rev, "2026-11-29T08:58:24Z", "false")}, "cairn v1.3.0-rc1 (3f2a9c1, 2026-11-29)"},
		{"a revision without a time", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}}, "cairn dev (abc)"},
	} {
		if got := VersionLine(c.version, c.bi); got != c.want {
			t.Errorf("%s: VersionLine = %q, want %q", c.name, got, c.want)
		}
	}
}
