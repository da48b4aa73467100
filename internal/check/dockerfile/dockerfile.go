// Package dockerfile is Cairn's Dockerfile validator (check "dockerfile",
// the MCP tool validate_dockerfile).
//
// It parses with BuildKit's own parser (github.com/moby/buildkit, packages
// frontend/dockerfile/parser and instructions): heredocs, line
// continuations, the escape directive, parser directives and Windows
// Dockerfiles are read as `docker build` reads them, and a file that does
// not parse gives dockerfile/syntax at the parser's line. Each instruction
// is parsed on its own, so every bad instruction is reported, not only the
// first.
//
// Then it reports the checks `docker build --check` reports, with
// BuildKit's rule names (rule id dockerfile/<kebab-case name>, link to
// BuildKit's rule page) and messages. Four of them BuildKit runs while
// parsing (its instructions package, with its linter); the others BuildKit
// runs in its dockerfile2llb package, which is not imported: it brings in
// containerd, gRPC and OpenTelemetry (about 12 MB of binary, against 2.6 MB
// for the parser and instructions) and resolves base images from a
// registry. They are run here on the parsed instructions, the way
// dockerfile2llb dispatches them, with BuildKit's rule values. What image
// resolution would add is not known here: InvalidBaseImagePlatform is not
// checked, and UndefinedVar on a stage built on an image (whose ENV is
// unknown) reports only likely typos. The file's `# check=skip=...;
// experimental=...` directive is honored, as docker build honors it.
// Failures BuildKit raises while building (a blank or invalid FROM, COPY
// --from a later stage, an invalid EXPOSE port, ...) are dockerfile/build-error.
//
// Then best practices, on the parsed instructions and on each RUN's shell
// script (parsed with mvdan.cc/sh): base images unpinned or :latest (a
// digest is pinned; scratch and stages are not images; a tag from an ARG
// is not judged), the final stage running as root (only the final stage
// and the stages it is built on count), apt-get without -y, without
// --no-install-recommends or without removing its lists, apt-get update
// alone, apt instead of apt-get, apk and pip caches, ADD where COPY is
// meant, pipes without pipefail, RUN cd alone, sudo, COPY of several
// sources to a non-directory and COPY --from a mistyped stage. Each names
// the hadolint rule it follows. Cache-only rules look at the final image's
// stages only.
//
// What only Cairn knows: with the project at hand, each COPY/ADD source
// is looked for in the build context (dockerfile/copy-source-missing), and
// the .dockerignore is applied (BuildKit's CopyIgnoredFile).
//
// Not checked: the base image itself (its platform, user, ENV, whether it
// exists), package version pinning (hadolint DL3008 and kin: pins that
// break builds when the distribution drops the version), shell scripts
// inside the RUN's heredoc bodies fed to other programs, ONBUILD triggers,
// and Dockerfiles for other frontends (a # syntax= naming another
// frontend: skipped, with the reason).
//
// Bounds: at most findcap.PerRule findings of a rule per file (one more
// finding counts the rest), 20 parse errors, RUN scripts up to 256 KiB parsed as shell,
// 500 COPY sources looked for (50 of them wildcards).
//
// Params:
//
//	context  the build context, a directory relative to the project root
//	         (default: the Dockerfile's directory, or the nearest directory
//	         above it where its COPY sources are)
//	check    BuildKit check options, as the # check= directive and
//	         BUILDKIT_DOCKERFILE_CHECK take them: "skip=JSONArgsRecommended,
//	         UndefinedVar;experimental=all"
package dockerfile

import (
	"context"
	"path"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/linter"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
)

// Checker validates Dockerfiles.
type Checker struct{}

// New returns the Dockerfile checker.
func New() *Checker { return &Checker{} }

// Name is "dockerfile".
func (*Checker) Name() string { return "dockerfile" }

// Rules lists BuildKit's checks, then this checker's own.
func (*Checker) Rules() []check.Rule { return allRules }

// templateExts mark a Dockerfile.<ext> that is a template or a copy, not
// a Dockerfile.
var templateExts = []string{"j2", "jinja", "jinja2", "tmpl", "tpl", "template", "in", "erb", "mustache", "hbs", "ejs",
	"md", "txt", "orig", "bak", "rej", "swp", "dockerignore", "sh", "yml", "yaml", "json", "toml",
	"go", "py", "js", "ts", "rs", "rb", "java", "c", "h", "cs", "php"}

// Wants takes Dockerfile, Containerfile, Dockerfile.<name>, <name>.Dockerfile
// (any case; also Dockerfile-<name> and Dockerfile_<name>), but not
// templates (Dockerfile.j2, Dockerfile.tmpl), and a Dockerfile.<name> only
// when its first bytes read like a Dockerfile.
func (*Checker) Wants(p string, head []byte) bool {
	name := strings.ToLower(path.Base(p))
	switch {
	case name == "dockerfile" || name == "containerfile":
		return true
	case strings.HasSuffix(name, ".dockerfile") || strings.HasSuffix(name, ".containerfile"):
		return true
	case strings.HasPrefix(name, "dockerfile.") || strings.HasPrefix(name, "containerfile.") ||
		strings.HasPrefix(name, "dockerfile-") || strings.HasPrefix(name, "dockerfile_") || strings.HasPrefix(name, "containerfile-"):
		if i := strings.LastIndex(name, "."); i >= 0 {
			for _, t := range templateExts {
				if name[i+1:] == t {
					return false
				}
			}
		}
		return len(head) == 0 || looksLikeDockerfile(head)
	}
	return false
}

// instructionNames are the Dockerfile's instructions, lowercase.
var instructionNames = []string{"from", "arg", "run", "cmd", "label", "maintainer", "expose", "env", "add", "copy",
	"entrypoint", "volume", "user", "workdir", "onbuild", "stopsignal", "healthcheck", "shell"}

// looksLikeDockerfile reports whether the first line that is not blank or a
// comment starts with an instruction.
func looksLikeDockerfile(head []byte) bool {
	for line := range strings.SplitSeq(string(head), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		word, _, _ := strings.Cut(t, " ")
		word = strings.ToLower(strings.TrimRight(word, "\t"))
		for _, n := range instructionNames {
			if word == n {
				return true
			}
		}
		return false
	}
	return false
}

// options are the checker's params, validated.
type options struct {
	context string
	check   *linter.Config
}

func parseOptions(params map[string]string, src check.Source) (*options, error) {
	o := &options{}
	for k, v := range params {
		switch k {
		case "context":
			c := strings.Trim(path.Clean("/"+strings.ReplaceAll(strings.TrimSpace(v), `\`, "/")), "/")
			if strings.Contains(v, "..") || path.IsAbs(strings.TrimSpace(v)) && c != "" {
				return nil, &problem.FieldError{Field: "context", Problem: problem.Quote(v) + " is not a directory inside the project",
					Fix: "give the build context as a path relative to the project root, like \"docker\" or \".\""}
			}
			if src != nil {
				if files, err := src.Files(c); err != nil || (c != "" && len(files) == 0) {
					return nil, &problem.FieldError{Field: "context", Problem: problem.Quote(v) + " is not a directory with files in the project",
						Fix: "give the directory `docker build` runs with, relative to the project root"}
				}
			}
			o.context = c
		case "check":
			cfg, err := linter.ParseLintOptions(v)
			if err != nil {
				return nil, &problem.FieldError{Field: "check", Problem: problem.Quote(v) + " is not a BuildKit check option: " + err.Error(),
					Fix: "write it as the # check= directive takes it: skip=Rule1,Rule2;experimental=all"}
			}
			o.check = cfg
		default:
			return nil, &problem.FieldError{Field: k, Problem: "is not a param of the dockerfile check",
				Fix: "use context (the build context directory) or check (BuildKit check options, skip=...;experimental=...)"}
		}
	}
	return o, nil
}

// Check validates each Dockerfile of in.
func (c *Checker) Check(ctx context.Context, in *check.Input) (check.Result, error) {
	var res check.Result
	opts, err := parseOptions(in.Params, in.Source)
	if err != nil {
		return res, err
	}
	for _, file := range in.Files {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		f, skip := analyzeFile(file.Path, file.Content, opts)
		if skip != "" {
			res.Skipped = append(res.Skipped, check.Skipped{Path: file.Path, Reason: skip})
			continue
		}
		if f != nil && in.Source != nil && len(f.stages) > 0 {
			if note := f.checkContext(in.Source, opts.context); note != "" {
				res.Notes = append(res.Notes, note)
			}
		}
		if f != nil {
			f.closeCapped()
			res.Findings = append(res.Findings, f.findings...)
		}
	}
	return res, nil
}
