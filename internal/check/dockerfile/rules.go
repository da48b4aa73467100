package dockerfile

import (
	"strings"
	"sync"
	"unicode"

	"github.com/moby/buildkit/frontend/dockerfile/linter"

	"github.com/cairn-dev/cairn/internal/check"
)

// The rules of this checker that are not BuildKit's.
const (
	RuleSyntax             = "dockerfile/syntax"
	RuleBuildError         = "dockerfile/build-error"
	RuleImageNoTag         = "dockerfile/image-no-tag"
	RuleImageLatest        = "dockerfile/image-latest"
	RuleUserRoot           = "dockerfile/user-root"
	RuleUserMissing        = "dockerfile/user-missing"
	RuleAptMissingYes      = "dockerfile/apt-missing-yes"
	RuleAptNoRecommends    = "dockerfile/apt-no-install-recommends"
	RuleAptListsNotCleaned = "dockerfile/apt-lists-not-cleaned"
	RuleAptUpdateAlone     = "dockerfile/apt-update-alone"
	RuleAptInteractive     = "dockerfile/apt-not-apt-get"
	RuleApkNoCache         = "dockerfile/apk-no-cache"
	RulePipNoCacheDir      = "dockerfile/pip-no-cache-dir"
	RuleAddForCopy         = "dockerfile/add-instead-of-copy"
	RulePipefail           = "dockerfile/pipefail"
	RuleCdAlone            = "dockerfile/cd-alone"
	RuleSudo               = "dockerfile/sudo"
	RuleCopyDestNotDir     = "dockerfile/copy-dest-not-dir"
	RuleCopyFromTypo       = "dockerfile/copy-from-unknown-stage"
	RuleCopySourceMissing  = "dockerfile/copy-source-missing"
)

// kebab turns a BuildKit rule name into the tail of its rule id and of its
// documentation link: "JSONArgsRecommended" is "json-args-recommended".
func kebab(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				b.WriteByte('-')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// buildkitID is the rule id of a BuildKit check: "dockerfile/<kebab>".
func buildkitID(name string) string { return "dockerfile/" + kebab(name) }

// buildkitLink is the documentation page of a BuildKit check.
func buildkitLink(name string) string {
	return "https://docs.docker.com/go/dockerfile/rule/" + kebab(name) + "/"
}

// buildkitRule describes one of the checks `docker build --check` runs.
type buildkitRule struct {
	rule     linter.LinterRuleI
	severity check.Severity
	title    string
	why      string
	fix      string
	bad      string
	good     string
}

// buildkitRules are BuildKit's own checks, by BuildKit name. The four that
// BuildKit runs while parsing (MaintainerDeprecated, StageNameCasing,
// FromAsCasing, InvalidDefinitionDescription) come from its instructions
// package; the others are run here on the parsed instructions with
// BuildKit's own rule values (names, messages), the way its dockerfile2llb
// package runs them, which is not imported (see the package doc).
var buildkitRules = sync.OnceValue(func() []buildkitRule {
	return []buildkitRule{
		{&linter.RuleStageNameCasing, check.Warning, "Stage name not lowercase",
			"BuildKit lowercases stage names; a mixed-case name reads like an image and is easy to mistype in COPY --from.",
			"Write the stage name in lowercase.",
			"FROM golang:1.23 AS Builder", "FROM golang:1.23 AS builder"},
		{&linter.RuleFromAsCasing, check.Warning, "FROM and AS in different case",
			"Mixing the case of FROM and AS in one instruction hurts readability.",
			"Write AS in the case FROM is written in.",
			"FROM debian:12 as build", "FROM debian:12 AS build"},
		{&linter.RuleNoEmptyContinuation, check.Warning, "Empty continuation line",
			"An empty line inside a line continuation is deprecated and will be an error in a future Dockerfile syntax.",
			"Remove the empty line, or make it a comment.",
			"RUN apk add \\\n\n    curl", "RUN apk add \\\n    curl"},
		{&linter.RuleConsistentInstructionCasing, check.Warning, "Inconsistent instruction casing",
			"Instructions should all be uppercase or all lowercase; a mixed style hurts readability.",
			"Write the instruction in the case most of the file uses.",
			"FROM alpine:3.20\nrun echo hi", "FROM alpine:3.20\nRUN echo hi"},
		{&linter.RuleDuplicateStageName, check.Error, "Duplicate stage name",
			"Two stages with one name make FROM and COPY --from references ambiguous: the later stage silently wins.",
			"Give each stage its own name.",
			"FROM alpine:3.20 AS build\nFROM debian:12 AS build", "FROM alpine:3.20 AS build-alpine\nFROM debian:12 AS build-debian"},
		{&linter.RuleReservedStageName, check.Warning, "Reserved stage name",
			"\"scratch\" and \"context\" have a meaning of their own to the builder and cannot name a stage usefully.",
			"Rename the stage.",
			"FROM alpine:3.20 AS scratch", "FROM alpine:3.20 AS base"},
		{&linter.RuleJSONArgsRecommended, check.Warning, "Shell form CMD or ENTRYPOINT",
			"In shell form the program runs under /bin/sh -c, which does not pass on signals: `docker stop` waits and then kills it.",
			"Use the exec (JSON) form, or an entrypoint script that ends in exec.",
			"CMD node server.js", "CMD [\"node\", \"server.js\"]"},
		{&linter.RuleMaintainerDeprecated, check.Warning, "MAINTAINER is deprecated",
			"MAINTAINER is deprecated; the author belongs in a label.",
			"Use LABEL org.opencontainers.image.authors=\"...\".",
			"MAINTAINER Jane <jane@example.com>", "LABEL org.opencontainers.image.authors=\"jane@example.com\""},
		{&linter.RuleUndefinedArgInFrom, check.Warning, "Undeclared ARG in FROM",
			"A variable in FROM must be declared by an ARG before the first FROM; an undeclared one expands to nothing, and --build-arg cannot set it.",
			"Declare it with ARG before the first FROM (with a default), or fix the name.",
			"FROM node:${NODE_VERSION}", "ARG NODE_VERSION=22\nFROM node:${NODE_VERSION}"},
		{&linter.RuleWorkdirRelativePath, check.Warning, "Relative WORKDIR",
			"A relative WORKDIR, before any absolute one in the build, lands wherever the base image's working directory is, which can change upstream.",
			"Use an absolute path.",
			"WORKDIR app", "WORKDIR /app"},
		{&linter.RuleUndefinedVar, check.Warning, "Undefined variable",
			"A variable used before any ARG or ENV defines it expands to an empty string, often from a typo. The base image's own ENV is not known here, so for a stage on an external image only a likely typo (a near match of a defined name) is reported.",
			"Define it with ARG or ENV before the use, or fix the name.",
			"ENV PATH=$PAHT:/app/bin", "ENV PATH=$PATH:/app/bin"},
		{&linter.RuleMultipleInstructionsDisallowed, check.Warning, "Repeated CMD, ENTRYPOINT or HEALTHCHECK",
			"A stage has only one CMD, ENTRYPOINT and HEALTHCHECK: every earlier one is ignored.",
			"Keep only the last one.",
			"CMD [\"a\"]\nCMD [\"b\"]", "CMD [\"b\"]"},
		{&linter.RuleLegacyKeyValueFormat, check.Warning, "Legacy key value format",
			"`ENV key value` (a space, not =) is deprecated and sets one variable with the rest of the line as its value.",
			"Write key=value.",
			"ENV NODE_ENV production", "ENV NODE_ENV=production"},
		{&linter.RuleRedundantTargetPlatform, check.Warning, "Redundant --platform=$TARGETPLATFORM",
			"A stage is built for the target platform by default; saying so adds nothing.",
			"Remove the --platform flag.",
			"FROM --platform=$TARGETPLATFORM alpine:3.20", "FROM alpine:3.20"},
		{&linter.RuleSecretsUsedInArgOrEnv, check.Warning, "Secret in ARG or ENV",
			"ARG and ENV values stay in the image's metadata and history, where anyone with the image can read them.",
			"Pass the secret with a secret mount: RUN --mount=type=secret,id=token ..., and docker build --secret.",
			"ARG NPM_TOKEN\nRUN npm ci", "RUN --mount=type=secret,id=npm_token,env=NPM_TOKEN npm ci"},
		{&linter.RuleInvalidDefaultArgInFrom, check.Warning, "FROM invalid with default ARGs",
			"With the ARGs' default values the FROM image reference is empty or invalid, so the build fails unless --build-arg is given.",
			"Give the ARG a default that makes a valid image reference.",
			"ARG TAG\nFROM alpine:$TAG", "ARG TAG=3.20\nFROM alpine:$TAG"},
		{&linter.RuleFromPlatformFlagConstDisallowed, check.Warning, "Constant FROM --platform",
			"A constant --platform pins the stage to one platform and defeats multi-platform builds.",
			"Drop the flag, or use $BUILDPLATFORM; or name the stage after the platform if it is meant to be platform-specific.",
			"FROM --platform=linux/amd64 golang:1.23 AS build", "FROM --platform=$BUILDPLATFORM golang:1.23 AS build"},
		{&linter.RuleCopyIgnoredFile, check.Error, "COPY of a .dockerignore'd file",
			"A file the .dockerignore excludes is not in the build context, so COPY or ADD of it fails.",
			"Remove the pattern from .dockerignore, or stop copying the file.",
			".dockerignore: *.md\nCOPY README.md /app/", "COPY docs/ /app/docs/"},
		{&linter.RuleExposeProtoCasing, check.Warning, "EXPOSE protocol not lowercase",
			"Protocols in EXPOSE are lowercase (tcp, udp, sctp).",
			"Write the protocol in lowercase.",
			"EXPOSE 80/TCP", "EXPOSE 80/tcp"},
		{&linter.RuleExposeInvalidFormat, check.Warning, "EXPOSE with an IP or host port",
			"EXPOSE documents a container port; an IP address or host-port mapping belongs to docker run -p, and will be an error in a future release.",
			"Keep only the container port (and protocol).",
			"EXPOSE 127.0.0.1:8080:80", "EXPOSE 80"},
		{&linter.RuleInvalidDefinitionDescription, check.Info, "Comment not a description (experimental)",
			"A comment right above FROM or ARG is taken as its description by `docker build --call=outline` when it starts with the name; this experimental check runs only when the Dockerfile enables it (# check=experimental=...).",
			"Start the comment with the stage or argument name, or put an empty line between.",
			"# the build stage\nFROM alpine:3.20 AS build", "# build compiles the program\nFROM alpine:3.20 AS build"},
	}
})

// ownRules are the rules of this checker that BuildKit does not have.
var ownRules = []check.Rule{
	{ID: RuleSyntax, Severity: check.Error, Title: "Dockerfile does not parse",
		Why: "BuildKit's parser refuses the file, so the build fails before it starts.",
		Fix: "Fix the instruction the message names.",
		Bad: "FROM alpine:3.20\nCOPY app", Good: "FROM alpine:3.20\nCOPY app /app/",
		Link: "https://docs.docker.com/reference/dockerfile/"},
	{ID: RuleBuildError, Severity: check.Error, Title: "The build fails here",
		Why: "The file parses, but BuildKit refuses this instruction when it builds: a blank or invalid image reference, COPY --from a stage defined later or of itself, a variable in --from, an invalid EXPOSE port or platform.",
		Fix: "Fix the instruction as the message says.",
		Bad: "FROM alpine:3.20 AS app\nCOPY --from=app /x /y", Good: "FROM alpine:3.20 AS build\nFROM alpine:3.20 AS app\nCOPY --from=build /x /y",
		Link: "https://docs.docker.com/reference/dockerfile/"},
	{ID: RuleImageNoTag, Severity: check.Warning, Title: "Base image without a tag",
		Why: "An image without a tag or digest is :latest, which moves: the same Dockerfile builds different images over time. (hadolint DL3006)",
		Fix: "Pin a version tag, or a digest (image@sha256:...).",
		Bad: "FROM python", Good: "FROM python:3.12-slim",
		Link: "https://github.com/hadolint/hadolint/wiki/DL3006"},
	{ID: RuleImageLatest, Severity: check.Warning, Title: "Base image :latest",
		Why: ":latest moves: the same Dockerfile builds different images over time, and a rebuild can break without a change here. (hadolint DL3007)",
		Fix: "Pin a version tag, or a digest (image@sha256:...).",
		Bad: "FROM node:latest", Good: "FROM node:22-bookworm-slim",
		Link: "https://github.com/hadolint/hadolint/wiki/DL3007"},
	{ID: RuleUserRoot, Severity: check.Warning, Title: "Final USER is root",
		Why: "The container runs as root: a compromise of the process is root in the container, and closer to the host. Only the final stage's user matters; build stages may run as root. (hadolint DL3002)",
		Fix: "Switch to an unprivileged user at the end: USER 10001 (create it first if the image lacks one).",
		Bad: "USER root\nCMD [\"./app\"]", Good: "USER 10001\nCMD [\"./app\"]",
		Link: "https://github.com/hadolint/hadolint/wiki/DL3002"},
	{ID: RuleUserMissing, Severity: check.Warning, Title: "Final stage runs as root",
		Why: "No USER is set in the final stage (nor in a stage it is built on), so the container runs as the base image's user, root for nearly every image. (Trivy DS002, Checkov CKV_DOCKER_3)",
		Fix: "Add a USER with an unprivileged user before CMD/ENTRYPOINT, or build on a non-root base (e.g. a distroless :nonroot image).",
		Bad: "FROM node:22-slim\nCMD [\"node\", \"server.js\"]", Good: "FROM node:22-slim\nUSER node\nCMD [\"node\", \"server.js\"]",
		Link: "https://docs.docker.com/build/building/best-practices/#user"},
	{ID: RuleAptMissingYes, Severity: check.Warning, Title: "apt-get install without -y",
		Why: "Without -y apt-get asks for confirmation, and with no terminal during the build it aborts when it has anything extra to install. (hadolint DL3014)",
		Fix: "Add -y (or --yes).",
		Bad: "RUN apt-get update && apt-get install curl", Good: "RUN apt-get update && apt-get install -y curl",
		Link: "https://github.com/hadolint/hadolint/wiki/DL3014"},
	{ID: RuleAptNoRecommends, Severity: check.Info, Title: "apt-get install without --no-install-recommends",
		Why: "Recommended packages are installed by default, often tens of MB the image does not need. (hadolint DL3015)",
		Fix: "Add --no-install-recommends.",
		Bad: "RUN apt-get install -y curl", Good: "RUN apt-get install -y --no-install-recommends curl",
		Link: "https://github.com/hadolint/hadolint/wiki/DL3015"},
	{ID: RuleAptListsNotCleaned, Severity: check.Info, Title: "apt lists left in the image",
		Why: "apt-get update downloads package lists (tens of MB) that stay in the layer unless removed in the same RUN; removing them later does not shrink the image. Checked in the final stage and the stages it is built on. (hadolint DL3009)",
		Fix: "End the RUN with && rm -rf /var/lib/apt/lists/* (or use a cache mount for /var/lib/apt).",
		Bad: "RUN apt-get update && apt-get install -y curl", Good: "RUN apt-get update && apt-get install -y curl \\\n && rm -rf /var/lib/apt/lists/*",
		Link: "https://github.com/hadolint/hadolint/wiki/DL3009"},
	{ID: RuleAptUpdateAlone, Severity: check.Warning, Title: "apt-get update in a RUN of its own",
		Why: "The layer of a lone `apt-get update` is cached: a later change to the install line reuses stale lists and can fail to find packages.",
		Fix: "Run apt-get update and apt-get install in the same RUN.",
		Bad: "RUN apt-get update\nRUN apt-get install -y curl", Good: "RUN apt-get update && apt-get install -y curl",
		Link: "https://docs.docker.com/build/building/best-practices/#apt-get"},
	{ID: RuleAptInteractive, Severity: check.Warning, Title: "apt instead of apt-get",
		Why: "apt is for interactive use; its command-line interface is not stable and it warns so in scripts. (hadolint DL3027)",
		Fix: "Use apt-get (or apt-cache).",
		Bad: "RUN apt install -y curl", Good: "RUN apt-get install -y curl",
		Link: "https://github.com/hadolint/hadolint/wiki/DL3027"},
	{ID: RuleApkNoCache, Severity: check.Info, Title: "apk add without --no-cache",
		Why: "apk keeps its index in /var/cache/apk unless told not to; it stays in the layer. Checked in the final stage and the stages it is built on. (hadolint DL3019)",
		Fix: "Use apk add --no-cache.",
		Bad: "RUN apk add curl", Good: "RUN apk add --no-cache curl",
		Link: "https://github.com/hadolint/hadolint/wiki/DL3019"},
	{ID: RulePipNoCacheDir, Severity: check.Info, Title: "pip install without --no-cache-dir",
		Why: "pip keeps downloaded wheels in ~/.cache/pip; they stay in the layer. Checked in the final stage and the stages it is built on. (hadolint DL3042)",
		Fix: "Add --no-cache-dir, set ENV PIP_NO_CACHE_DIR=1, or use a cache mount for /root/.cache/pip.",
		Bad: "RUN pip install -r requirements.txt", Good: "RUN pip install --no-cache-dir -r requirements.txt",
		Link: "https://github.com/hadolint/hadolint/wiki/DL3042"},
	{ID: RuleAddForCopy, Severity: check.Warning, Title: "ADD where COPY is meant",
		Why: "ADD of a local file or directory does what COPY does, plus surprises: a local tar archive is unpacked. COPY says what is meant. (hadolint DL3020)",
		Fix: "Use COPY; keep ADD for URLs, git sources and archives to unpack.",
		Bad: "ADD . /app", Good: "COPY . /app",
		Link: "https://github.com/hadolint/hadolint/wiki/DL3020"},
	{ID: RulePipefail, Severity: check.Warning, Title: "Pipe without pipefail",
		Why: "A RUN's status is the status of the last command of a pipe: in `curl -fsSL url | sh` a failed download still passes, and the build goes on without what it needed. (hadolint DL4006)",
		Fix: "Start the RUN with set -o pipefail &&, or set SHELL [\"/bin/bash\", \"-o\", \"pipefail\", \"-c\"] before it.",
		Bad: "RUN curl -fsSL https://example.com/install.sh | sh", Good: "SHELL [\"/bin/bash\", \"-o\", \"pipefail\", \"-c\"]\nRUN curl -fsSL https://example.com/install.sh | sh",
		Link: "https://github.com/hadolint/hadolint/wiki/DL4006"},
	{ID: RuleCdAlone, Severity: check.Warning, Title: "RUN cd does nothing",
		Why: "Each RUN starts a new shell: a RUN that only changes directory has no effect on the instructions after it. (see hadolint DL3003)",
		Fix: "Use WORKDIR.",
		Bad: "RUN cd /app\nRUN make", Good: "WORKDIR /app\nRUN make",
		Link: "https://github.com/hadolint/hadolint/wiki/DL3003"},
	{ID: RuleSudo, Severity: check.Warning, Title: "sudo in RUN",
		Why: "RUN already runs as the current USER; sudo is usually not installed, asks for a password, or hides which user does what. (hadolint DL3004)",
		Fix: "Switch with USER root for the commands that need it, then back.",
		Bad: "RUN sudo apt-get install -y curl", Good: "USER root\nRUN apt-get install -y curl\nUSER app",
		Link: "https://github.com/hadolint/hadolint/wiki/DL3004"},
	{ID: RuleCopyDestNotDir, Severity: check.Warning, Title: "COPY of several sources to a non-directory",
		Why: "With more than one source the destination must be a directory; without a trailing / a path that does not exist yet is created as a file, each source overwriting the last (the classic builder refuses it). (hadolint DL3021)",
		Fix: "End the destination with /.",
		Bad: "COPY package.json package-lock.json /app", Good: "COPY package.json package-lock.json /app/",
		Link: "https://github.com/hadolint/hadolint/wiki/DL3021"},
	{ID: RuleCopyFromTypo, Severity: check.Warning, Title: "COPY --from names no stage",
		Why: "A --from that names no stage is pulled as an image: a mistyped stage name becomes a pull of an image that does not exist, or worse, one that does. (see hadolint DL3022)",
		Fix: "Use the stage's name as its FROM ... AS line spells it.",
		Bad: "FROM golang:1.23 AS build\nFROM alpine:3.20\nCOPY --from=biuld /out/app /app", Good: "COPY --from=build /out/app /app",
		Link: "https://github.com/hadolint/hadolint/wiki/DL3022"},
	{ID: RuleCopySourceMissing, Severity: check.Warning, Title: "COPY source not in the project",
		Why: "COPY and ADD fail when a source is not in the build context. The build context is the `context` param, else the Dockerfile's directory or the nearest directory above it where its sources are; a source that is gitignored (built before docker build) is not reported.",
		Fix: "Fix the path, or create the file; check which directory the build context is.",
		Bad: "COPY pakage.json /app/", Good: "COPY package.json /app/",
		Link: "https://docs.docker.com/build/concepts/context/"},
}

// ruleByName maps BuildKit's rule names to their entry.
var ruleByName = func() map[string]*buildkitRule {
	m := make(map[string]*buildkitRule, len(buildkitRules()))
	for i := range buildkitRules() {
		m[buildkitRules()[i].rule.RuleName()] = &buildkitRules()[i]
	}
	return m
}()

// allRules is Rules(): BuildKit's checks, then this checker's own.
var allRules = func() []check.Rule {
	var out []check.Rule
	for _, r := range buildkitRules() {
		name := r.rule.RuleName()
		out = append(out, check.Rule{
			ID: buildkitID(name), Severity: r.severity, Title: r.title,
			Why: r.why + " (BuildKit's " + name + ", reported by docker build --check.)",
			Fix: r.fix, Bad: r.bad, Good: r.good, Link: buildkitLink(name),
		})
	}
	return append(out, ownRules...)
}()
