package dockerfile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

// lint checks content given inline as a Dockerfile.
func lint(t testing.TB, content string, params map[string]string) []check.Finding {
	t.Helper()
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{
		Inline: &check.File{Path: "Dockerfile", Content: []byte(content)},
		Params: map[string]map[string]string{"dockerfile": params},
	})
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	if tt, ok := t.(*testing.T); ok {
		checktest.Declared(tt, New(), rep.Findings)
	}
	return rep.Findings
}

// at is a finding's rule and line, as the tests compare them.
func at(fs []check.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%d %s", f.Line, strings.TrimPrefix(f.Rule, "dockerfile/")))
	}
	return out
}

func TestWants(t *testing.T) {
	df := []byte("# syntax=docker/dockerfile:1\nFROM alpine:3.20\n")
	for _, tc := range []struct {
		path string
		head []byte
		want bool
	}{
		{"Dockerfile", nil, true},
		{"docker/DOCKERFILE", nil, true},
		{"Containerfile", nil, true},
		{"api.Dockerfile", nil, true},
		{"build/web.dockerfile", nil, true},
		{"Dockerfile.dev", df, true},
		{"Dockerfile.prod", []byte("\n# comment\narg X=1\n"), true},
		{"Dockerfile-alpine", df, true},
		{"Dockerfile_windows", df, true},
		{"Dockerfile.dev", []byte("This is not a Dockerfile\n"), false},
		{"Dockerfile.j2", df, false},
		{"Dockerfile.tmpl", df, false},
		{"Dockerfile.dockerignore", []byte("node_modules\n"), false},
		{".dockerignore", nil, false},
		{"Dockerfile.md", df, false},
		{"dockerfile.go", nil, false},
		{"README.md", nil, false},
		{"docker-compose.yml", nil, false},
	} {
		if got := New().Wants(tc.path, tc.head); got != tc.want {
			t.Errorf("Wants(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

func TestParams(t *testing.T) {
	for _, tc := range []struct {
		params map[string]string
		field  string // "" when valid
	}{
		{map[string]string{"check": "skip=JSONArgsRecommended,UndefinedVar;experimental=all"}, ""},
		{map[string]string{"check": "skip=all"}, ""},
		{map[string]string{"check": "skipp=all"}, "check"},
		{map[string]string{"check": "error=maybe"}, "check"},
		{map[string]string{"context": "../elsewhere"}, "context"},
		{map[string]string{"context": "/etc"}, "context"},
		{map[string]string{"target": "prod"}, "target"},
	} {
		_, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{
			Inline: &check.File{Path: "Dockerfile", Content: []byte("FROM alpine:3.20\n")},
			Params: map[string]map[string]string{"dockerfile": tc.params},
		})
		var fe *problem.FieldError
		switch {
		case tc.field == "" && err != nil:
			t.Errorf("%v: %v", tc.params, err)
		case tc.field != "" && !errors.As(err, &fe):
			t.Errorf("%v: want a FieldError on %s, got %v", tc.params, tc.field, err)
		case tc.field != "" && (fe.Field != tc.field || fe.Fix == ""):
			t.Errorf("%v: FieldError %+v, want field %s with a fix", tc.params, fe, tc.field)
		}
	}
}

// TestRules checks each rule's semantics on small Dockerfiles: what it
// reports, at which line, and what it must not report.
func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []string // "LINE rule" of every finding, in order
	}{
		{"clean multi-stage", `FROM golang:1.23 AS build
WORKDIR /src
COPY . .
RUN go build -o /out/app .
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/app /app
ENTRYPOINT ["/app"]
`, []string{}},
		{"digest pin, scratch, stage base and ARG tags are pinned", `ARG TAG=latest
ARG IMAGE
FROM alpine@sha256:4bcff63911fcb4448bd4fdacec207030997caf25e9bea4045fa6c8c44de311d1 AS a
FROM scratch AS b
FROM a AS c
FROM node:${TAG} AS d
FROM $IMAGE AS e
FROM c
USER 10001
`, []string{"7 invalid-default-arg-in-from"}},
		{"untagged and latest images", `FROM ubuntu AS a
FROM docker.io/library/debian:latest
USER 1000
`, []string{"1 image-no-tag", "2 image-latest"}},
		{"root only matters in the final stage", `FROM alpine:3.20 AS build
USER root
RUN echo build
FROM alpine:3.20
USER 1000
`, []string{}},
		{"the final stage inherits USER from its base stage", `FROM alpine:3.20 AS base
USER app
FROM base
CMD ["true"]
`, []string{}},
		{"USER root last", `FROM alpine:3.20
USER 1000
RUN echo
USER 0:0
`, []string{"4 user-root"}},
		{"no USER; an exported scratch stage is not run", `FROM alpine:3.20 AS build
RUN echo > /out
FROM scratch
COPY --from=build /out /
`, []string{}},
		{"apt-get done right", `FROM debian:12
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/*
RUN apt-get -qq update && apt-get -qq install --no-install-recommends git && rm -rf /var/lib/apt/lists/*
RUN --mount=type=cache,target=/var/lib/apt,sharing=locked apt-get update && apt-get -o APT::Install-Recommends=false install -yq jq
USER 1000
`, []string{}},
		{"apt-get problems, each at its continuation line", `FROM debian:12
RUN set -eux; \
    apt-get update; \
    apt-get install \
        curl; \
    echo done
USER 1000
`, []string{"3 apt-lists-not-cleaned", "4 apt-missing-yes", "4 apt-no-install-recommends"}},
		{"an apt config file answers for the later RUNs", `FROM debian:12
RUN printf 'APT::Get::Assume-Yes "true";\nAPT::Install-Recommends "false";\n' > /etc/apt/apt.conf.d/99docker
RUN apt-get update && apt-get install curl && rm -rf /var/lib/apt/lists/*
USER 1000
`, []string{}},
		{"options from a variable may hold -y", `FROM debian:12
ARG APT_OPTS="-y --no-install-recommends"
RUN apt-get update && apt-get install $APT_OPTS curl && rm -rf /var/lib/apt/lists/*
USER 1000
`, []string{"3 apt-no-install-recommends"}},
		{"yes feeding apt-get", `FROM debian:12
RUN apt-get update && yes | apt-get install --no-install-recommends curl && rm -rf /var/lib/apt/lists/*
USER 1000
`, []string{}},
		{"apt lists in a build stage are not in the image", `FROM debian:12 AS build
RUN apt-get update && apt-get install -y --no-install-recommends gcc
FROM debian:12
COPY --from=build /usr/bin/gcc /usr/bin/gcc
USER 1000
`, []string{}},
		{"pipefail", `FROM alpine:3.20
RUN wget -qO- https://example.com/x | tar xz
RUN set -o pipefail && wget -qO- https://example.com/x | tar xz
RUN echo "abc  file" | sha256sum -c -
RUN printf '%s\n' a b | sort
USER 1000
`, []string{"2 pipefail"}},
		{"SHELL with pipefail", `FROM debian:12
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
RUN curl -fsSL https://example.com/x | bash
USER 1000
`, []string{}},
		{"a Windows stage runs no POSIX shell", "# escape=`\nFROM mcr.microsoft.com/windows/servercore:ltsc2022\nRUN Get-Content x | Out-Null; `\n    apt-get install curl\nWORKDIR C:\\app\n", []string{}},
		{"heredoc script checked at its lines", `FROM debian:12
RUN <<EOF
set -e
apt-get update
apt-get install -y --no-install-recommends curl
EOF
USER 1000
`, []string{"4 apt-lists-not-cleaned"}},
		{"heredoc with another interpreter is not shell", `FROM python:3.12-slim
RUN <<EOF
#!/usr/bin/env python3
import subprocess
subprocess.run("apt-get install curl | cat", shell=True)
EOF
USER 1000
`, []string{}},
		{"ADD and COPY", `FROM alpine:3.20
ADD rootfs.tar.xz /
ADD https://example.com/tool.tgz /opt/
ADD --checksum=sha256:24454f830cdb571e2c4ad15481119c43b3cafd48dd869a9b2945d1036d1dc68d https://example.com/a.txt /a.txt
ADD git@github.com:moby/buildkit.git#v0.14.0 /src
ADD config/ /etc/app/
COPY a.txt b.txt ./
COPY a.txt b.txt /opt/app
USER 1000
`, []string{"6 add-instead-of-copy", "8 copy-dest-not-dir"}},
		{"COPY --from", `FROM golang:1.23 AS builder
FROM alpine:3.20
COPY --from=0 /a /a
COPY --from=builder /b /b
COPY --from=nginx:1.27 /etc/nginx/nginx.conf /c
COPY --from=buidler /d /d
USER 1000
`, []string{"6 copy-from-unknown-stage"}},
		{"sudo, cd, apt, apk, pip", `FROM python:3.12-alpine
RUN sudo -u app echo hi
RUN cd /tmp
RUN cd /tmp && make
RUN apt update
RUN apk add --no-cache git && apk add curl
RUN pip3 install --no-cache-dir flask && python -m pip install requests
USER 1000
`, []string{"2 sudo", "3 cd-alone", "5 apt-not-apt-get", "6 apk-no-cache", "7 pip-no-cache-dir"}},
		{"PIP_NO_CACHE_DIR and a pip cache mount", `FROM python:3.12-slim
ENV PIP_NO_CACHE_DIR=1
RUN pip install flask
RUN --mount=type=cache,target=/root/.cache/pip pip install requests
USER 1000
`, []string{}},
		{"UndefinedVar knows official images' ENV and stage ENV", `FROM golang:1.23 AS build
ENV PATH=$GOPATH/bin:$PATH
COPY $NOPE /x
FROM build
ARG VERSION
ENV V=$VERSION
WORKDIR $HOME
USER 1000
`, []string{"3 undefined-var", "7 undefined-var"}},
		{"UndefinedVar on an unknown image reports only typos", `FROM example.com/base:1
ARG APP_VERSION=1
ENV A=$JAVA_HOME B=$APP_VERSON
USER 1000
`, []string{"3 undefined-var"}},
		{"an undeclared FROM variable with a default is a warning", `FROM ${BASE:-alpine:3.20}
USER 1000
`, []string{"1 undefined-arg-in-from"}},
		{"build errors", `FROM alpine:3.20 AS a
COPY --from=$X /a /a
COPY --from=7 /b /b
EXPOSE 80/icmp
STOPSIGNAL SIGRTMIN+3
FROM --platform=linux/amd64/v2/x alpine:3.20
USER 1000
`, []string{"2 build-error", "3 build-error", "4 build-error", "6 build-error"}},
		{"parse errors are all reported", `FROM alpine:3.20
ENV A
COPY x
ONBUILD ONBUILD RUN x
CMD ["a", 1]
USER 1000
`, []string{"2 syntax", "3 syntax", "4 syntax", "5 syntax"}},
		{"no FROM", "ARG A=1\n", []string{"1 syntax"}},
		{"# check=skip applies to BuildKit's rules", `# check=skip=JSONArgsRecommended,MaintainerDeprecated
FROM alpine:3.20
MAINTAINER me
USER 1000
CMD echo hi
`, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := at(lint(t, tc.src, nil))
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSeverity checks the severities that depend on the finding.
func TestSeverity(t *testing.T) {
	fs := lint(t, "FROM node:${NODE_VERSION}\nFROM ${BASE:-alpine}\nUSER 1\n", nil)
	var got []string
	for _, f := range fs {
		if f.Rule == buildkitID("UndefinedArgInFrom") {
			got = append(got, fmt.Sprintf("%d %s", f.Line, f.Severity))
		}
	}
	if diff := cmp.Diff([]string{"1 error", "2 warning"}, got); diff != "" {
		t.Errorf("UndefinedArgInFrom severities (-want +got):\n%s", diff)
	}
}

// TestPositions checks lines and columns in the original file through
// continuations, comment lines inside them, heredocs, a BOM, CRLF line
// ends and the backtick escape.
func TestPositions(t *testing.T) {
	for _, tc := range []struct {
		name, src, rule string
		line, col       int
	}{
		{"continuation", "FROM debian:12\nRUN true && \\\n    true && \\\n    apt-get install -y --no-install-recommends x\nUSER 1\n", RuleAptListsNotCleaned, 0, 0},
		{"install on its continuation line", "FROM debian:12\nRUN true && \\\n  # a comment\n\n  true && \\\n      apt-get install curl\nUSER 1\n", RuleAptMissingYes, 6, 7},
		{"pipe column", "FROM alpine:3.20\nRUN \\\n  wget -O- x | sh\nUSER 1\n", RulePipefail, 3, 14},
		{"heredoc body", "FROM debian:12\nRUN <<EOF\napt-get update\n  apt-get install -y --no-install-recommends x\nEOF\nUSER 1\n", RuleAptListsNotCleaned, 3, 1},
		{"second heredoc", "FROM debian:12\nCOPY <<A <<B /x/\na\nA\nb\nB\nRUN cat <<C | sh\necho\nC\nUSER 1\n", RulePipefail, 7, 13},
		{"byte-order mark", "\uFEFFFROM alpine\nUSER 1\n", RuleImageNoTag, 1, 9},
		{"CRLF", "FROM alpine:3.20\r\nRUN cd /x\r\nUSER 1\r\n", RuleCdAlone, 2, 5},
		{"backtick escape", "# escape=`\nFROM alpine:3.20\nRUN echo a && `\n    apt-get install curl\nUSER 1\n", RuleAptMissingYes, 4, 5},
		{"indented instruction", "FROM alpine:3.20\n   ADD app.py /app/\nUSER 1\n", RuleAddForCopy, 2, 8},
		{"image word", "FROM --platform=$BUILDPLATFORM   ubuntu AS b\nFROM b\nUSER 1\n", RuleImageNoTag, 1, 34},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := lint(t, tc.src, nil)
			i := slices.IndexFunc(fs, func(f check.Finding) bool { return f.Rule == tc.rule })
			if tc.line == 0 {
				if i >= 0 {
					t.Errorf("unexpected %s", fs[i])
				}
				return
			}
			if i < 0 {
				t.Fatalf("no %s in %v", tc.rule, fs)
			}
			if fs[i].Line != tc.line || fs[i].Col != tc.col {
				t.Errorf("%s at %d:%d, want %d:%d", tc.rule, fs[i].Line, fs[i].Col, tc.line, tc.col)
			}
		})
	}
}

// TestSuppression checks Cairn's inline suppression on a shell finding.
func TestSuppression(t *testing.T) {
	src := "FROM alpine:3.20\n# cairn:ignore dockerfile/cd-alone the next RUN runs there by design\nRUN cd /x\nUSER 1\n"
	if fs := lint(t, src, nil); len(fs) != 0 {
		t.Errorf("suppressed finding reported: %v", fs)
	}
}

// TestCheckParam checks the check param: BuildKit options that replace
// the file's # check= directive.
func TestCheckParam(t *testing.T) {
	src := "# check=skip=MaintainerDeprecated\nFROM alpine:3.20\nMAINTAINER me\nCMD echo\nUSER 1\n"
	got := at(lint(t, src, map[string]string{"check": "skip=JSONArgsRecommended"}))
	if diff := cmp.Diff([]string{"3 maintainer-deprecated"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestBuildContext checks the COPY sources against a project: the
// context guessed from where the sources are, the context param, the
// .dockerignore and a gitignored build output.
func TestBuildContext(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gitignore", "dist/\n")
	write("go.mod", "module x\n")
	write("cmd/app/main.go", "package main\n")
	write("web/package.json", "{}\n")
	write("docker/app/Dockerfile", `FROM golang:1.23
COPY go.mod ./
COPY cmd/ ./cmd/
COPY dist/ /dist/
COPY ["vendor", "/vendor/"]
COPY web/*.json /web/
COPY --from=golang:1.23 /usr/local/go /go
USER 1
`)
	write("docker/app/Dockerfile.dockerignore", "web\n")
	run := func(params map[string]string) ([]string, []string) {
		rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: root,
			Params: map[string]map[string]string{"dockerfile": params}})
		if err != nil {
			t.Fatal(err)
		}
		return at(rep.Findings), rep.Notes
	}
	got, notes := run(nil)
	if diff := cmp.Diff([]string{"5 copy-source-missing", "6 copy-ignored-file"}, got); diff != "" {
		t.Errorf("guessed context (-want +got):\n%s", diff)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "the project root") {
		t.Errorf("notes %q, want the guessed context", notes)
	}
	got, _ = run(map[string]string{"context": "docker/app"})
	if diff := cmp.Diff([]string{"2 copy-source-missing", "3 copy-source-missing", "5 copy-source-missing", "6 copy-ignored-file"}, got); diff != "" {
		t.Errorf("context param (-want +got):\n%s", diff)
	}
	_, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: root,
		Params: map[string]map[string]string{"dockerfile": {"context": "nowhere"}}})
	if fe, ok := errors.AsType[*problem.FieldError](err); !ok || fe.Field != "context" {
		t.Errorf("context of a missing directory: %v", err)
	}
}

// TestOtherFrontend checks that a Dockerfile for another frontend is
// skipped with the reason.
func TestOtherFrontend(t *testing.T) {
	res, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: "Dockerfile",
		Content: []byte("# syntax=devthefuture/dockerfile-x\nINCLUDE ./base.dockerfile\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 0 || len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Reason, "devthefuture/dockerfile-x") {
		t.Errorf("got %+v", res)
	}
	res, _ = New().Check(context.Background(), &check.Input{Files: []check.File{{Path: "Dockerfile",
		Content: []byte("# syntax=docker/dockerfile:1.7-labs\nFROM alpine:3.20\nCOPY --parents a/./b /x/\nUSER 1\n")}}})
	if len(res.Skipped) != 0 || len(res.Findings) != 0 {
		t.Errorf("docker/dockerfile:1.7-labs: %+v", res)
	}
}

// TestCancel checks that Check stops on a cancelled context.
func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New().Check(ctx, &check.Input{Files: []check.File{{Path: "Dockerfile", Content: []byte("FROM alpine\n")}}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestKebab(t *testing.T) {
	for in, want := range map[string]string{
		"JSONArgsRecommended":             "json-args-recommended",
		"SecretsUsedInArgOrEnv":           "secrets-used-in-arg-or-env",
		"FromPlatformFlagConstDisallowed": "from-platform-flag-const-disallowed",
		"UndefinedArgInFrom":              "undefined-arg-in-from",
	} {
		if got := kebab(in); got != want {
			t.Errorf("kebab(%s) = %s, want %s", in, got, want)
		}
	}
	// BuildKit's own links are the kebab of the name.
	for _, r := range buildkitRules() {
		if l := buildkitLink(r.rule.RuleName()); r.rule.RuleName() != "InvalidBaseImagePlatform" && !strings.HasSuffix(l, "/"+kebab(r.rule.RuleName())+"/") {
			t.Errorf("link %s", l)
		}
	}
}
