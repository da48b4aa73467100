package versions

import (
	"context"
	"testing"
	"testing/fstest"
)

func TestPEP440Order(t *testing.T) {
	// Each version sorts before the next, as PEP 440's examples order them.
	order := []string{"1.0.dev456", "1.0a1", "1.0a2.dev456", "1.0a12", "1.0b1.dev456", "1.0b2", "1.0b2.post345", "1.0rc1",
		"1.0", "1.0+abc.5", "1.0.post456.dev34", "1.0.post456", "1.1.dev1", "1!0.1"}
	for i := 0; i+1 < len(order); i++ {
		a, err := parsePEP440(order[i])
		if err != nil {
			t.Fatal(err)
		}
		b, err := parsePEP440(order[i+1])
		if err != nil {
			t.Fatal(err)
		}
		if a.compare(b) >= 0 || b.compare(a) <= 0 {
			t.Errorf("%s should sort before %s", order[i], order[i+1])
		}
	}
}

func TestSpecifiers(t *testing.T) {
	tests := []struct {
		spec, v string
		want    bool
	}{
		{"~=2.7", "2.9.2", true},
		{"~=2.7", "3.0.0", false},
		{"~=1.4.5", "1.4.9", true},
		{"~=1.4.5", "1.5.0", false},
		{"==1.2.*", "1.2.9", true},
		{"==1.2.*", "1.3", false},
		{"!=1.2.*", "1.3", true},
		{"==2.0", "2.0.0", true},
		{">=0.110,<0.116", "0.115.6", true},
		{">=0.110,<0.116", "0.116.0", false},
		{"<2.0", "2.0rc1", false},
		{">1.7", "1.7.post2", false},
		{">1.7", "1.7.1", true},
		{"==1.0", "1.0+local.7", true},
		{"===1.0", "1.0", true},
		{"^2.31", "2.32.3", true},
		{"^2.31", "3.0.0", false},
		{"^0.2.3", "0.2.9", true},
		{"^0.2.3", "0.3.0", false},
		{"~4.2", "4.2.16", true},
		{"~4.2", "4.3.0", false},
		{"~1", "1.9", true},
		{"23.2.0", "23.2.0", true},
		{"23.2.0", "23.1.0", false},
		{">= 1.2, < 2.0", "1.5", true},
		{">=1.2 <2.0", "2.1", false},
		{"^1.0 || ^2.0", "2.4", true},
		{"*", "0.0.1", true},
	}
	for _, tt := range tests {
		got, err := poetrySatisfies(tt.spec, tt.v)
		if err != nil || got != tt.want {
			t.Errorf("%q satisfies %q = %v, %v; want %v", tt.v, tt.spec, got, err, tt.want)
		}
	}
	if _, err := poetrySatisfies("git+https://x", "1.0"); err == nil {
		t.Error("a URL is not a specifier: want an error")
	}
}

func TestNPMRanges(t *testing.T) {
	tests := []struct {
		rng, v string
		want   bool
	}{
		{"^18.2.0", "18.3.1", true},
		{"^18.2.0", "19.0.0", false},
		{"~5.28.0", "5.28.4", true},
		{"~5.28.0", "5.29.0", false},
		{">=5.0.0 <6", "5.4.1", true},
		{"1.x", "1.9.0", true},
		{"1.2 - 1.4", "1.4.2", true},
		{"^1 || ^2", "2.0.1", true},
		{"npm:string-width@^4.2.0", "4.2.3", true},
		{"workspace:^1.0.0", "1.2.0", true},
		{"", "3.0.0", true},
	}
	for _, tt := range tests {
		got, err := npmSatisfies(tt.rng, tt.v)
		if err != nil || got != tt.want {
			t.Errorf("%q satisfies %q = %v, %v; want %v", tt.v, tt.rng, got, err, tt.want)
		}
	}
	for _, c := range []string{"latest", "next", "file:../ui", "github:user/repo", "user/repo", "git+ssh://git@host/x.git"} {
		if _, err := npmSatisfies(c, "1.0.0"); err == nil {
			t.Errorf("%q is not a range: want an error", c)
		}
	}
}

func TestSameVersion(t *testing.T) {
	tests := []struct {
		believed, v string
		want        bool
	}{
		{"1.6.0", "v1.6.0", true},
		{"v1.6", "v1.6.0", true},
		{"1", "1.4.0", true},
		{"1.1", "1.10.0", false},
		{"2.0", "2.0.0", true},
		{"18.3.1", "18.3.10", false},
	}
	for _, tt := range tests {
		if got := sameVersion(tt.believed, tt.v); got != tt.want {
			t.Errorf("sameVersion(%q, %q) = %v, want %v", tt.believed, tt.v, got, tt.want)
		}
	}
}

// FuzzVerify feeds arbitrary bytes to every manifest and lock reader: the
// answer may be findings, never a panic.
func FuzzVerify(f *testing.F) {
	f.Add([]byte(packageJSON), []byte(yarnLockV1("18.3.1")), "react")
	f.Add([]byte(pyprojectPoetry), []byte(poetryLock("2.32.3", "4.2.16")), "requests")
	f.Add([]byte(cargoToml), []byte(cargoLock("1.38.0", "0.8.5")), "rand")
	f.Add([]byte(goMod), []byte(pnpmLock9("18.3.1")), "react")
	f.Add([]byte("a: &a [*a, *a, *a]\nb: &b [*a, *a, *a]\n"), []byte(yarnBerry("1.0.0")), "lodash")
	f.Fuzz(func(t *testing.T, manifest, lock []byte, name string) {
		fsys := fstest.MapFS{}
		for _, m := range []string{"package.json", "pyproject.toml", "Cargo.toml", "go.mod", "requirements.txt"} {
			fsys[m] = &fstest.MapFile{Data: manifest}
		}
		for _, l := range []string{"package-lock.json", "pnpm-lock.yaml", "yarn.lock", "poetry.lock", "uv.lock", "Cargo.lock", "go.sum"} {
			fsys[l] = &fstest.MapFile{Data: lock}
		}
		_, _ = Verify(context.Background(), fsys, name, "1.0", noEnv)
	})
}
