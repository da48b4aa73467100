package dockerfile

import (
	"fmt"
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/linter"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"github.com/moby/buildkit/frontend/dockerfile/shell"
	"github.com/moby/buildkit/util/suggest"
	"github.com/moby/buildkit/util/system"

	"github.com/cairn-dev/cairn/internal/check"
)

// This file runs the checks of `docker build --check` that BuildKit makes
// in its dockerfile2llb package, on the parsed instructions, the way
// dockerfile2llb dispatches them. dockerfile2llb is not imported: it
// brings in containerd, gRPC and OpenTelemetry (12 MB of binary), and it
// resolves base images from a registry. What that resolution would tell
// (the base image's ENV, WORKDIR, platform) is unknown here, and the checks
// say so where it matters.

// The build platform assumed for BuildKit's default ARGs.
const (
	defaultOS   = "linux"
	defaultArch = "amd64"
)

// maxCloned bounds the variables copied from stage to stage.
const maxCloned = 1 << 20

// nonEnvArgs are ARGs BuildKit does not put in the environment.
var nonEnvArgs = map[string]bool{"BUILDKIT_SBOM_SCAN_CONTEXT": true, "BUILDKIT_SBOM_SCAN_STAGE": true}

// reservedStageNames cannot name a stage usefully.
var reservedStageNames = map[string]bool{"context": true, "scratch": true}

// defaultArgs are the ARGs BuildKit defines before any meta ARG.
func defaultArgs(target string) *envList {
	if target == "" {
		target = "default"
	}
	e := newEnv(false)
	for _, kv := range [][2]string{
		{"BUILDPLATFORM", defaultOS + "/" + defaultArch}, {"BUILDOS", defaultOS}, {"BUILDOSVERSION", ""},
		{"BUILDARCH", defaultArch}, {"BUILDVARIANT", ""},
		{"TARGETPLATFORM", defaultOS + "/" + defaultArch}, {"TARGETOS", defaultOS}, {"TARGETOSVERSION", ""},
		{"TARGETARCH", defaultArch}, {"TARGETVARIANT", ""}, {"TARGETSTAGE", target},
	} {
		e.set(kv[0], kv[1])
	}
	return e
}

func (f *file) validateStageNames() {
	seen := map[string]bool{}
	for _, st := range f.stages {
		name := st.ins.Name
		if name == "" {
			continue
		}
		if reservedStageNames[name] {
			f.run(f.lint, &linter.RuleReservedStageName, st.ins.Location, "", linter.RuleReservedStageName.Format(name))
		}
		if seen[name] {
			f.run(f.lint, &linter.RuleDuplicateStageName, st.ins.Location, "", linter.RuleDuplicateStageName.Format(name))
		}
		seen[name] = true
	}
}

func selfConsistentCase(s string) bool { return s == strings.ToLower(s) || s == strings.ToUpper(s) }

func (f *file) validateCommandCasing() {
	var lower, upper int
	count := func(name string) {
		if selfConsistentCase(name) {
			if strings.ToLower(name) == name {
				lower++
			} else {
				upper++
			}
		}
	}
	for _, st := range f.stages {
		count(st.ins.OrigCmd)
		for _, c := range st.cmds {
			count(c.c.Name())
		}
	}
	majorityLower := lower > upper
	check := func(name string, loc []parser.Range) {
		want := ""
		if majorityLower && strings.ToLower(name) != name {
			want = "lowercase"
		} else if !majorityLower && strings.ToUpper(name) != name {
			want = "uppercase"
		}
		if want != "" {
			f.run(f.lint, &linter.RuleConsistentInstructionCasing, loc, "", linter.RuleConsistentInstructionCasing.Format(name, want))
		}
	}
	for _, st := range f.stages {
		check(st.ins.OrigCmd, st.ins.Location)
		for _, c := range st.cmds {
			check(c.c.Name(), c.c.Location())
		}
	}
}

// buildError records a failure BuildKit would stop the build with.
func (f *file) buildError(n *parser.Node, msg, fix string) {
	line, col := f.start(n)
	f.add(RuleBuildError, line, col, sentence(upperFirst(msg)), fix)
}

// metaArgs evaluates the ARGs before the first FROM over BuildKit's default
// ARGs, with no --build-arg, as `docker build --check` does.
func (f *file) evalMetaArgs() {
	target := f.stages[len(f.stages)-1].ins.Name
	args := defaultArgs(target)
	for _, c := range f.metaArgs {
		for _, kv := range c.c.(*instructions.ArgCommand).Args {
			f.allArgs[kv.Key] = true
			if kv.Value == nil {
				continue
			}
			res, err := f.shlex.ProcessWordWithMatches(*kv.Value, args)
			if err != nil {
				f.buildError(c.node, err.Error(), "Fix the variable expansion in the ARG's default.")
				continue
			}
			args.set(kv.Key, res.Result)
		}
	}
	f.globalArgs = args
}

// dispatch resolves each stage's FROM, then runs each stage's instructions
// through the checks BuildKit makes when it dispatches them.
func (f *file) dispatch() {
	f.evalMetaArgs()
	f.validateBaseImagesWithDefaultArgs()
	for _, st := range f.stages {
		f.resolveStage(st)
	}
	f.markFinal()
	for _, st := range f.stages {
		f.resolveCopyFrom(st)
	}
	for _, st := range f.stages {
		f.dispatchStage(st)
	}
}

// validateBaseImagesWithDefaultArgs is BuildKit's InvalidDefaultArgInFrom.
func (f *file) validateBaseImagesWithDefaultArgs() {
	for _, st := range f.stages {
		if !strings.Contains(st.ins.BaseName, "$") {
			continue // a plain reference: an invalid one is a build error below
		}
		res, err := f.shlex.ProcessWordWithMatches(st.ins.BaseName, f.globalArgs)
		if err != nil {
			return
		}
		if _, err := f.parseRef(res.Result); err != nil {
			f.run(f.lint, &linter.RuleInvalidDefaultArgInFrom, st.ins.Location, "", linter.RuleInvalidDefaultArgInFrom.Format(st.ins.BaseName))
		}
	}
}

// fromArgKeys are the names a FROM may use: the meta ARGs and defaults,
// sorted.
func (f *file) fromArgKeys() []string {
	if f.fromKeys == nil {
		keys := slices.Clone(f.globalArgs.Keys())
		for k := range f.allArgs {
			if _, ok := f.globalArgs.Get(k); !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		f.fromKeys = keys
	}
	return f.fromKeys
}

// reportUnusedFromArgs is BuildKit's UndefinedArgInFrom: an error when the
// variable is used bare (it always expands to nothing), a warning when it
// has a default (${X:-alpine}).
func (f *file) reportUnusedFromArgs(lint *linter.Linter, word string, unmatched map[string]struct{}, loc []parser.Range) {
	keys := f.fromArgKeys()
	for _, arg := range sortedKeys(unmatched) {
		if _, found := slices.BinarySearch(keys, arg); found || f.skip(buildkitID(linter.RuleUndefinedArgInFrom.Name)) {
			continue
		}
		s, _ := search(arg, keys)
		sev := check.Error
		if hasDefaultModifier(word, arg) {
			sev = check.Warning
		}
		f.run(lint, &linter.RuleUndefinedArgInFrom, loc, sev, linter.RuleUndefinedArgInFrom.Format(arg, s))
	}
}

// hasDefaultModifier reports whether word uses name only as ${name-x},
// ${name:-x}, ${name+x} or ${name:+x}.
func hasDefaultModifier(word, name string) bool {
	for _, m := range []string{"${" + name + "}", "$" + name} {
		rest := word
		for {
			i := strings.Index(rest, m)
			if i < 0 {
				break
			}
			after := rest[i+len(m):]
			if m[1] != '{' && after != "" && (isNameChar(after[0])) {
				rest = after
				continue // $NAMEX: another variable
			}
			return false
		}
	}
	return strings.Contains(word, "${"+name)
}

func isNameChar(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// search suggests a close name, as BuildKit does, within bounds: names
// this long are no typos, and the distance is quadratic in their length.
func search(name string, options []string) (string, bool) {
	if len(name) > 64 {
		return "", false
	}
	var short []string
	for _, o := range options {
		if len(o) <= 64 {
			short = append(short, o)
		}
		if len(short) == 500 {
			break
		}
	}
	return suggest.Search(name, short, true)
}

func sortedKeys(m map[string]struct{}) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// resolveStage expands a stage's FROM and platform with the meta ARGs and
// finds what it is built on, as BuildKit's buildDispatchStates does.
func (f *file) resolveStage(st *stage) {
	lint := f.lint.WithMergedConfigFromComments(st.ins.Comments)
	res, err := f.shlex.ProcessWordWithMatches(st.ins.BaseName, f.globalArgs)
	f.reportUnusedFromArgs(lint, st.ins.BaseName, res.Unmatched, st.ins.Location)
	switch {
	case err != nil:
		f.buildError(st.node, err.Error(), "Fix the variable expansion in FROM.")
		st.broken = true
	case res.Result == "":
		declared := true
		for k := range res.Unmatched {
			declared = declared && f.allArgs[k]
		}
		if !declared || !strings.Contains(st.ins.BaseName, "$") {
			// a declared ARG without a default is InvalidDefaultArgInFrom's
			f.buildError(st.node, fmt.Sprintf("base name (%s) should not be blank", st.ins.BaseName), "Give the ARG a default, or name the image.")
		}
		st.broken = true
	}
	st.baseName = res.Result
	if p := st.ins.Platform; p != "" {
		pm, err := f.shlex.ProcessWordWithMatches(p, f.globalArgs)
		f.reportUnusedFromArgs(lint, p, pm.Unmatched, st.ins.Location)
		f.reportRedundantTargetPlatform(lint, p, pm, st.ins.Location)
		f.reportConstPlatformDisallowed(lint, st.ins.Name, pm, st.ins.Location)
		switch plat, perr := parsePlatform(pm.Result); {
		case err != nil:
			f.buildError(st.node, fmt.Sprintf("failed to process arguments for platform %s: %v", pm.Result, err), "Fix the variable expansion in --platform.")
		case pm.Result == "":
			f.buildError(st.node, "empty platform value from expression "+p, "Give the ARG a default, or remove --platform.")
		case perr != nil:
			f.buildError(st.node, fmt.Sprintf("failed to parse platform %s: %v", p, perr), "Use os/arch[/variant], like linux/arm64.")
		default:
			st.windows = plat.os == "windows"
		}
	}
	if !st.broken {
		if b, ok := f.byName[st.baseName]; ok {
			st.base = b
		} else if st.baseName == "scratch" {
			st.scratch = true
		} else if _, err := f.parseRef(st.baseName); err != nil {
			// With a variable, InvalidDefaultArgInFrom says it: the build
			// fails only without --build-arg.
			if !strings.Contains(st.ins.BaseName, "$") {
				f.buildError(st.node, fmt.Sprintf("failed to parse stage name %q: %v", st.baseName, err), imageRefFix(st.baseName, f))
			}
			st.broken = true
		}
	}
	if st.base != nil {
		st.windows = st.windows || st.base.windows
	} else if !st.broken && !st.scratch {
		st.windows = st.windows || windowsImage(st.baseName)
	}
	if st.ins.Name != "" {
		f.byName[strings.ToLower(st.ins.Name)] = st
	}
}

// parseRef parses an image reference as BuildKit does, once per distinct
// reference of the file.
func (f *file) parseRef(s string) (imageRef, error) {
	if r, ok := f.refs[s]; ok {
		return r.named, r.err
	}
	n, err := parseImageRef(s)
	if f.refs == nil {
		f.refs = map[string]parsedRef{}
	}
	f.refs[s] = parsedRef{n, err}
	return n, err
}

type parsedRef struct {
	named imageRef
	err   error
}

// imageRefFix is the fix for an invalid image reference: a stage name in
// the wrong case, or the reference rules.
func imageRefFix(name string, f *file) string {
	if _, ok := f.byName[strings.ToLower(name)]; ok {
		return fmt.Sprintf("Stage names are lowercase: write FROM %s.", strings.ToLower(name))
	}
	return "An image reference is [registry/]name[:tag][@digest], in lowercase."
}

// windowsImage reports whether an image reference names a Windows image.
func windowsImage(ref string) bool {
	r := strings.ToLower(ref)
	for _, s := range []string{"mcr.microsoft.com/windows", "servercore", "nanoserver", "windows/", "windowsservercore", "-windows", "windows-"} {
		if strings.Contains(r, s) {
			return true
		}
	}
	return false
}

func (f *file) reportRedundantTargetPlatform(lint *linter.Linter, p string, m shell.ProcessWordResult, loc []parser.Range) {
	if len(m.Matched) != 1 || len(m.Unmatched) != 0 {
		return
	}
	if _, ok := m.Matched["TARGETPLATFORM"]; !ok {
		return
	}
	if v, _ := f.globalArgs.Get("TARGETPLATFORM"); m.Result == v {
		f.run(lint, &linter.RuleRedundantTargetPlatform, loc, "", linter.RuleRedundantTargetPlatform.Format(p))
	}
}

func (f *file) reportConstPlatformDisallowed(lint *linter.Linter, stageName string, m shell.ProcessWordResult, loc []parser.Range) {
	if len(m.Matched) > 0 || len(m.Unmatched) > 0 {
		return
	}
	p, err := parsePlatform(m.Result)
	if err != nil {
		return
	}
	if strings.Contains(stageName, p.os) || strings.Contains(stageName, p.arch) {
		return
	}
	f.run(lint, &linter.RuleFromPlatformFlagConstDisallowed, loc, "", linter.RuleFromPlatformFlagConstDisallowed.Format(m.Result))
}

// markFinal marks the final stage and the stages it is built on: what they
// leave is in the image.
func (f *file) markFinal() {
	for st := f.stages[len(f.stages)-1]; st != nil && !st.final; st = st.base {
		st.final = true
	}
}

// resolveCopyFrom checks the stage each COPY --from names, as BuildKit's
// toCommand and dispatch do.
func (f *file) resolveCopyFrom(st *stage) {
	empty := newEnv(false)
	for _, c := range st.cmds {
		cp, ok := c.c.(*instructions.CopyCommand)
		if !ok || cp.From == "" {
			continue
		}
		res, err := f.shlex.ProcessWordWithMatches(cp.From, empty)
		if err != nil || res.Result != cp.From {
			f.buildError(c.node, "variable expansion is not supported for --from, define a new stage with FROM using ARG from global scope as a workaround",
				"Add a stage FROM ${VAR} AS name after declaring the ARG before the first FROM, and COPY --from=name.")
			continue
		}
		var src *stage
		if i, err := strconv.Atoi(cp.From); err == nil {
			if i < 0 || i >= len(f.stages) {
				f.buildError(c.node, fmt.Sprintf("invalid stage index %d", i), fmt.Sprintf("Stages are numbered from 0 to %d; better, name the stage.", len(f.stages)-1))
				continue
			}
			src = f.stages[i]
		} else {
			src = f.stageNamed(cp.From)
		}
		switch {
		case src == nil:
			f.copyFromUnknown(st, c, cp.From)
		case src == st:
			f.buildError(c.node, "circular dependency detected on stage: "+stageLabel(st), "COPY --from another stage, not the one it is in.")
		case src.index > st.index:
			f.buildError(c.node, fmt.Sprintf("cannot copy from stage %q, it needs to be defined before current stage %q", stageLabel(src), stageLabel(st)),
				"Move the stage it copies from above this one.")
		}
	}
}

// stageNamed finds a stage by name, as COPY --from does (case-insensitive;
// the last of a duplicated name, as BuildKit registers them).
func (f *file) stageNamed(name string) *stage {
	return f.byName[strings.ToLower(name)]
}

func stageLabel(st *stage) string {
	if st.ins.Name != "" {
		return st.ins.Name
	}
	return fmt.Sprintf("stage-%d", st.index)
}

// dispatchStage runs a stage's instructions through BuildKit's dispatch
// checks and this checker's own.
func (f *file) dispatchStage(st *stage) {
	if b := st.base; b != nil && f.cloned < maxCloned {
		// A stage built on another starts with its environment. The copies
		// are bounded: a file of thousands of stages each built on the one
		// before, each with thousands of ENV, would be quadratic.
		f.cloned += len(b.env.keys) + len(b.buildArgs)
		st.env, st.envKnown = b.env.clone(), b.envKnown
		st.buildArgs = maps.Clone(b.buildArgs)
		st.workdirSet, st.shell, st.user = b.workdirSet, b.shell, b.user
		st.aptYes, st.aptNoRec = b.aptYes, b.aptNoRec
	} else {
		if b != nil {
			st.workdirSet, st.shell, st.user = b.workdirSet, b.shell, b.user
		}
		st.env = newEnv(st.windows)
		st.envKnown = st.scratch
		st.buildArgs = map[string]bool{}
		if !st.windows {
			st.env.set("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
			if keys, ok := f.knownImageEnv(st.baseName); ok && !st.broken && !st.scratch {
				st.envKnown = true
				for _, k := range keys {
					st.env.set(k, "")
				}
			}
		}
	}
	stageLint := f.lint.WithMergedConfigFromComments(st.ins.Comments)
	f.fromPractices(st)
	for _, c := range st.cmds {
		lint := stageLint.WithMergedConfigFromComments(c.c.Comments())
		f.beforeExpand(st, c)
		if !f.expand(st, c, lint) {
			continue
		}
		switch x := c.c.(type) {
		case *instructions.EnvCommand:
			for _, kv := range x.Env {
				if kv.NoDelim {
					f.run(lint, &linter.RuleLegacyKeyValueFormat, x.Location(), "", linter.RuleLegacyKeyValueFormat.Format(x.Name()))
				}
				f.validateNoSecretKey(lint, "ENV", kv.Key, x.Location())
				st.env.set(kv.Key, kv.Value)
			}
		case *instructions.LabelCommand:
			for _, kv := range x.Labels {
				if kv.NoDelim {
					f.run(lint, &linter.RuleLegacyKeyValueFormat, x.Location(), "", linter.RuleLegacyKeyValueFormat.Format(x.Name()))
				}
			}
		case *instructions.CmdCommand:
			f.validateUsedOnce(lint, c, &st.cmd)
			if x.PrependShell && len(st.shell) == 0 {
				f.run(lint, &linter.RuleJSONArgsRecommended, x.Location(), "", linter.RuleJSONArgsRecommended.Format(x.Name()))
			}
		case *instructions.EntrypointCommand:
			f.validateUsedOnce(lint, c, &st.entrypoint)
			if x.PrependShell && len(st.shell) == 0 {
				f.run(lint, &linter.RuleJSONArgsRecommended, x.Location(), "", linter.RuleJSONArgsRecommended.Format(x.Name()))
			}
		case *instructions.HealthCheckCommand:
			f.validateUsedOnce(lint, c, &st.healthcheck)
		case *instructions.WorkdirCommand:
			os := "linux"
			if st.windows {
				os = "windows"
			}
			if !st.workdirSet && !system.IsAbs(x.Path, os) && !f.unresolved(st, c) {
				f.run(lint, &linter.RuleWorkdirRelativePath, x.Location(), "", linter.RuleWorkdirRelativePath.Format(x.Path))
			}
			st.workdirSet = true
		case *instructions.ExposeCommand:
			f.dispatchExpose(st, c, x, lint)
		case *instructions.UserCommand:
			st.user = c
		case *instructions.ShellCommand:
			st.shell = x.Shell
		case *instructions.StopSignalCommand:
			if !strings.Contains(x.Signal, "$") && !validSignal(x.Signal) {
				f.buildError(c.node, "invalid signal: "+x.Signal, "Use a signal name (SIGTERM) or number.")
			}
		case *instructions.ArgCommand:
			f.dispatchArg(st, c, x, lint)
		}
		f.afterExpand(st, c)
	}
}

// imageEnv is the ENV (beside PATH) of official images whose Dockerfiles
// are well known, so that UndefinedVar judges a stage built on one as
// docker build --check does, knowing the image's config. Other images'
// ENV is not known here.
var imageEnv = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"alpine": nil, "busybox": nil, "debian": nil, "ubuntu": nil,
		"golang": {"GOLANG_VERSION", "GOPATH", "GOTOOLCHAIN"},
		"node":   {"NODE_VERSION", "YARN_VERSION"},
		"python": {"LANG", "GPG_KEY", "PYTHON_VERSION", "PYTHON_SHA256", "PYTHON_PIP_VERSION", "PYTHON_SETUPTOOLS_VERSION",
			"PYTHON_GET_PIP_URL", "PYTHON_GET_PIP_SHA256"},
	}
})

// knownImageEnv returns the ENV of an official image of imageEnv.
func (f *file) knownImageEnv(ref string) ([]string, bool) {
	named, err := f.parseRef(ref)
	if err != nil || named.domain != defaultRegistry {
		return nil, false
	}
	path := named.path
	name, ok := strings.CutPrefix(path, "library/")
	if !ok {
		return nil, false
	}
	keys, ok := imageEnv()[name]
	return keys, ok
}

// expand expands an instruction's words as BuildKit does before dispatch,
// reporting UndefinedVar; false when the expansion fails the build.
func (f *file) expand(st *stage, c *command, lint *linter.Linter) bool {
	var err error
	if ex, ok := c.c.(instructions.SupportsSingleWordExpansion); ok {
		if _, isArg := c.c.(*instructions.ArgCommand); !isArg {
			err = ex.Expand(func(word string) (string, error) {
				w, unmatched, err := f.shlex.ProcessWord(word, st.env)
				f.reportUnmatchedVariables(st, c, lint, unmatched)
				return w, err
			})
		}
	}
	if ex, ok := c.c.(instructions.SupportsSingleWordExpansionRaw); ok && err == nil {
		err = ex.ExpandRaw(func(word string) (string, error) {
			lex := shell.NewLex('\\')
			lex.SkipProcessQuotes = true
			w, unmatched, err := lex.ProcessWord(word, st.env)
			f.reportUnmatchedVariables(st, c, lint, unmatched)
			return w, err
		})
	}
	if err != nil {
		f.buildError(c.node, err.Error(), "Fix the variable expansion.")
		return false
	}
	return true
}

// reportUnmatchedVariables is BuildKit's UndefinedVar. On a stage built on
// an image, whose ENV is not known here, only a likely typo (a name close
// to a defined one) is reported.
func (f *file) reportUnmatchedVariables(st *stage, c *command, lint *linter.Linter, unmatched map[string]struct{}) {
	for _, name := range sortedKeys(unmatched) {
		if st.buildArgs[name] || nonEnvArgs[name] {
			continue
		}
		if id := buildkitID(linter.RuleUndefinedVar.Name); f.perRule[id] >= maxPerRule {
			if st.envKnown {
				f.skip(id) // counted; on an unknown image it might not have been reported
			}
			continue
		}
		s, _ := search(name, st.env.Keys())
		if s == "" && !st.envKnown {
			continue
		}
		f.run(lint, &linter.RuleUndefinedVar, c.c.Location(), "", linter.RuleUndefinedVar.Format(name, s))
	}
}

// unresolved reports whether c's raw text uses a variable the stage does
// not define, so that its expanded values are not to be judged.
func (f *file) unresolved(st *stage, c *command) bool {
	for _, w := range rawWords(c) {
		if !strings.Contains(w, "$") {
			continue
		}
		if _, unmatched, err := f.shlex.ProcessWord(w, st.env); err != nil || len(unmatched) > 0 {
			return true
		}
	}
	return false
}

// rawWords are an instruction's words as written (after the keyword).
func rawWords(c *command) []string {
	var out []string
	for n := c.node.Next; n != nil; n = n.Next {
		out = append(out, n.Value)
	}
	return out
}

func (f *file) validateUsedOnce(lint *linter.Linter, c *command, prev **command) {
	if *prev != nil {
		f.run(lint, &linter.RuleMultipleInstructionsDisallowed, (*prev).c.Location(), "", linter.RuleMultipleInstructionsDisallowed.Format(c.c.Name()))
	}
	*prev = c
}

func (f *file) dispatchArg(st *stage, c *command, x *instructions.ArgCommand, lint *linter.Linter) {
	for _, kv := range x.Args {
		f.validateNoSecretKey(lint, "ARG", kv.Key, x.Location())
		var value *string
		if kv.Value == nil {
			if v, ok := f.globalArgs.Get(kv.Key); ok {
				value = &v
			}
		} else {
			v, unmatched, err := f.shlex.ProcessWord(*kv.Value, st.env)
			f.reportUnmatchedVariables(st, c, lint, unmatched)
			if err != nil {
				f.buildError(c.node, err.Error(), "Fix the variable expansion in the ARG's default.")
				continue
			}
			value = &v
		}
		if value != nil && !nonEnvArgs[kv.Key] {
			st.env.set(kv.Key, *value)
		}
		st.buildArgs[kv.Key] = true
	}
}

// The secret-name patterns of BuildKit's SecretsUsedInArgOrEnv.
var (
	secretTokens = []string{"apikey", "auth", "credential", "credentials", "key", "password", "pword", "passwd", "secret", "token"}
	allowTokens  = []string{"public", "file", "version"}
)

// hasToken reports whether key, split at underscores, starts or ends with
// (or is) one of tokens, case-insensitive, as BuildKit's pattern
// (?i)(?:_|^)(?:tokens)(?:_|$) does.
func hasToken(key string, tokens []string) bool {
	for p := range strings.SplitSeq(strings.ToLower(key), "_") {
		if slices.Contains(tokens, p) {
			return true
		}
	}
	return false
}

func (f *file) validateNoSecretKey(lint *linter.Linter, instruction, key string, loc []parser.Range) {
	if hasToken(key, secretTokens) && !hasToken(key, allowTokens) {
		f.run(lint, &linter.RuleSecretsUsedInArgOrEnv, loc, "", linter.RuleSecretsUsedInArgOrEnv.Format(instruction, key))
	}
}

// dispatchExpose expands and parses EXPOSE's ports as BuildKit does.
func (f *file) dispatchExpose(st *stage, c *command, x *instructions.ExposeCommand, lint *linter.Linter) {
	for _, p := range x.Ports {
		words, err := f.shlex.ProcessWords(p, st.env)
		if err != nil {
			f.buildError(c.node, err.Error(), "Fix the variable expansion in EXPOSE.")
			return
		}
		for _, w := range words {
			if strings.Contains(p, "$") && w == "" {
				continue
			}
			ip, hostPort, containerPort := splitPortParts(w)
			proto, port, err := splitProtoPort(containerPort)
			if err != nil {
				f.buildError(c.node, fmt.Sprintf("invalid port %q: %v", w, err), "Use port[/tcp|udp|sctp], like 8080/tcp.")
				continue
			}
			if proto != strings.ToLower(proto) {
				f.run(lint, &linter.RuleExposeProtoCasing, x.Location(), "", linter.RuleExposeProtoCasing.Format(w))
			}
			if ip != "" || hostPort != "" {
				f.run(lint, &linter.RuleExposeInvalidFormat, x.Location(), "", linter.RuleExposeInvalidFormat.Format(w))
			}
			if ip != "" && ip[0] == '[' {
				if h, _, err := net.SplitHostPort(ip + ":"); err == nil {
					ip = h
				}
			}
			msg := ""
			if ip != "" && net.ParseIP(ip) == nil {
				msg = "invalid IP address: " + ip
			} else if s, e, err := parsePortRange(port); err != nil {
				msg = "invalid containerPort: " + port
			} else if hostPort != "" {
				hs, he, err := parsePortRange(hostPort)
				if err != nil {
					msg = "invalid hostPort: " + hostPort
				} else if e-s != he-hs && e != s {
					msg = fmt.Sprintf("invalid ranges specified for container and host Ports: %s and %s", port, hostPort)
				}
			}
			if msg != "" {
				f.buildError(c.node, msg, "Use port[/tcp|udp|sctp] with a port from 0 to 65535, like 8080/tcp.")
			}
		}
	}
}

func splitPortParts(raw string) (ip, hostPort, containerPort string) {
	parts := strings.Split(raw, ":")
	n := len(parts)
	switch n {
	case 1:
		return "", "", parts[0]
	case 2:
		return "", parts[0], parts[1]
	case 3:
		return parts[0], parts[1], parts[2]
	default:
		return strings.Join(parts[:n-2], ":"), parts[n-2], parts[n-1]
	}
}

func splitProtoPort(raw string) (proto, port string, err error) {
	port, proto, _ = strings.Cut(raw, "/")
	if port == "" {
		return "", "", fmt.Errorf("no port specified")
	}
	switch strings.ToLower(proto) {
	case "":
		return "tcp", port, nil
	case "tcp", "udp", "sctp":
		return proto, port, nil
	}
	return "", "", fmt.Errorf("invalid proto: %s", proto)
}

func parsePortRange(ports string) (start, end int, err error) {
	if ports == "" {
		return 0, 0, fmt.Errorf("empty string specified for ports")
	}
	a, b, ok := strings.Cut(ports, "-")
	if start, err = parsePortNumber(a); err != nil {
		return 0, 0, err
	}
	if !ok || a == b {
		return start, start, nil
	}
	if end, err = parsePortNumber(b); err != nil {
		return 0, 0, err
	}
	if end < start {
		return 0, 0, fmt.Errorf("invalid port range: %s", ports)
	}
	return start, end, nil
}

func parsePortNumber(s string) (int, error) {
	n, err := strconv.ParseInt(s, 10, 0)
	if err != nil {
		return 0, err
	}
	if n < 0 || n > 65535 {
		return 0, fmt.Errorf("value out of range (0–65535)")
	}
	return int(n), nil
}

// linuxSignals are the names STOPSIGNAL accepts (without SIG).
var linuxSignals = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"ABRT": true, "ALRM": true, "BUS": true, "CHLD": true, "CLD": true, "CONT": true, "FPE": true, "HUP": true,
		"ILL": true, "INT": true, "IO": true, "IOT": true, "KILL": true, "PIPE": true, "POLL": true, "PROF": true,
		"PWR": true, "QUIT": true, "SEGV": true, "STKFLT": true, "STOP": true, "SYS": true, "TERM": true, "TRAP": true,
		"TSTP": true, "TTIN": true, "TTOU": true, "URG": true, "USR1": true, "USR2": true, "VTALRM": true, "WINCH": true,
		"XCPU": true, "XFSZ": true, "UNUSED": true,
	}
})

// validSignal reports whether s is a signal STOPSIGNAL accepts: a number,
// a name, or RTMIN/RTMAX with an offset.
func validSignal(s string) bool {
	if n, err := strconv.Atoi(s); err == nil {
		return n > 0
	}
	name := strings.TrimPrefix(strings.ToUpper(s), "SIG")
	if linuxSignals()[name] {
		return true
	}
	for _, rt := range []string{"RTMIN", "RTMAX"} {
		if rest, ok := strings.CutPrefix(name, rt); ok {
			if rest == "" {
				return true
			}
			if _, err := strconv.Atoi(rest); err == nil {
				return true
			}
		}
	}
	return false
}
