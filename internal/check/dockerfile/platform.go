package dockerfile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

// platform is an os/arch[/variant], as FROM --platform gives it.
type platform struct{ os, arch, variant string }

var (
	knownOS = []string{"aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js", "linux",
		"nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos"}
	knownArch = []string{"386", "amd64", "amd64p32", "arm", "armbe", "arm64", "arm64be", "loong64", "mips", "mipsle",
		"mips64", "mips64le", "mips64p32", "mips64p32le", "ppc", "ppc64", "ppc64le", "riscv", "riscv64", "s390", "s390x",
		"sparc", "sparc64", "wasm"}
	rePlatformPart = check.LazyRegexp(`^[A-Za-z0-9_.-]+$`)
)

// parsePlatform parses a platform as containerd's platforms.Parse does
// (which BuildKit uses), for the checks that need its OS and architecture;
// a lone OS or architecture takes linux/amd64 for the rest.
func parsePlatform(s string) (platform, error) {
	if strings.Contains(s, "*") {
		return platform{}, fmt.Errorf("%q: wildcards not yet supported", s)
	}
	osPart, _, _ := strings.Cut(s, "(") // windows(10.0.17763)/amd64
	if i := strings.Index(s, ")"); i >= 0 {
		s = osPart + s[i+1:]
	}
	parts := strings.Split(s, "/")
	for _, p := range parts {
		if !rePlatformPart().MatchString(p) {
			return platform{}, fmt.Errorf("%q is an invalid component of %q: platform specifier component must match %q", p, s, rePlatformPart().String())
		}
	}
	switch len(parts) {
	case 1:
		if o := normalizeOS(parts[0]); slices.Contains(knownOS, o) {
			return platform{os: o, arch: defaultArch}, nil
		}
		if a, v := normalizeArch(parts[0], ""); slices.Contains(knownArch, a) {
			return platform{os: defaultOS, arch: a, variant: v}, nil
		}
		return platform{}, fmt.Errorf("%q: unknown operating system or architecture", s)
	case 2:
		a, v := normalizeArch(parts[1], "")
		return platform{os: normalizeOS(parts[0]), arch: a, variant: v}, nil
	case 3:
		a, v := normalizeArch(parts[1], parts[2])
		return platform{os: normalizeOS(parts[0]), arch: a, variant: v}, nil
	}
	return platform{}, fmt.Errorf("%q: cannot parse platform specifier", s)
}

func normalizeOS(os string) string {
	os = strings.ToLower(os)
	if os == "macos" {
		return "darwin"
	}
	return os
}

func normalizeArch(arch, variant string) (string, string) {
	arch, variant = strings.ToLower(arch), strings.ToLower(variant)
	switch arch {
	case "i386":
		return "386", ""
	case "x86_64", "x86-64", "amd64":
		if variant == "v1" {
			variant = ""
		}
		return "amd64", variant
	case "aarch64", "arm64":
		if variant == "8" || variant == "v8" {
			variant = ""
		}
		return "arm64", variant
	case "armhf":
		return "arm", "v7"
	case "armel":
		return "arm", "v6"
	case "arm":
		switch variant {
		case "", "7":
			variant = "v7"
		case "5", "6", "8":
			variant = "v" + variant
		}
		return "arm", variant
	}
	return arch, variant
}
