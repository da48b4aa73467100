package dockerfile

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/moby/buildkit/frontend/dockerfile/instructions"
)

// This file holds the best-practice rules of this checker, on the parsed
// instructions and, for RUN, on the shell script parsed by mvdan.cc/sh.
// hadolint's rule is named in each rule's Why where one applies.

// fromPractices checks a stage's base image reference: pinned, not latest.
func (f *file) fromPractices(st *stage) {
	if st.broken || st.base != nil || st.scratch {
		return
	}
	raw := st.ins.BaseName
	ref, err := f.parseRef(st.baseName)
	if err != nil {
		return
	}
	if ref.digest != "" {
		return
	}
	from := &command{node: st.node}
	line, col := f.word(from, raw)
	if ref.tag != "" {
		if ref.tag == "latest" && !strings.Contains(raw, "$") {
			f.add(RuleImageLatest, line, col, fmt.Sprintf("The base image %s is :latest, which moves.", raw),
				"Pin a version tag, or a digest (image@sha256:...).")
		}
		return
	}
	what := raw
	if strings.Contains(raw, "$") {
		if res, err := f.shlex.ProcessWordWithMatches(raw, f.globalArgs); err != nil || len(res.Unmatched) > 0 {
			return // the tag may come with the value given at build time
		}
		what = fmt.Sprintf("%s (%s with the ARG defaults)", raw, st.baseName)
	}
	f.add(RuleImageNoTag, line, col, fmt.Sprintf("The base image %s has no tag, so it is :latest, which moves.", what),
		"Pin a version tag, or a digest (image@sha256:...).")
}

// copySource is a source of a COPY or ADD from the build context, to look
// for there.
type copySource struct {
	st   *stage
	c    *command
	raw  string
	path string // expanded; "" when it uses a variable not defined here
	add  bool
}

// beforeExpand checks an instruction as written, before BuildKit expands its
// variables.
func (f *file) beforeExpand(st *stage, c *command) {
	switch x := c.c.(type) {
	case *instructions.AddCommand:
		f.addPractices(st, c, x)
		f.copyDest(st, c, &x.SourcesAndDest)
		f.collectSources(st, c, x.SourcePaths, true)
	case *instructions.CopyCommand:
		f.copyDest(st, c, &x.SourcesAndDest)
		if x.From == "" {
			f.collectSources(st, c, x.SourcePaths, false)
		}
	}
}

// afterExpand checks an instruction after its expansion.
func (f *file) afterExpand(st *stage, c *command) {
	if run, ok := c.c.(*instructions.RunCommand); ok {
		f.runPractices(st, c, run)
	}
}

// archiveExts are what ADD unpacks from the build context.
var archiveExts = []string{".tar", ".tgz", ".tbz", ".tbz2", ".txz", ".tzst", ".gz", ".bz2", ".xz", ".zst", ".lz4"}

func isURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

func isGitSource(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "git@") || strings.HasPrefix(l, "git://") || strings.HasPrefix(l, "ssh://") ||
		(isURL(l) && (strings.Contains(l, ".git#") || strings.HasSuffix(l, ".git")))
}

// addPractices is hadolint's DL3020: ADD of a local file or directory that
// is no archive is a COPY.
func (f *file) addPractices(st *stage, c *command, x *instructions.AddCommand) {
	for _, raw := range x.SourcePaths {
		src, ok := f.wordValue(st, raw)
		if !ok || isURL(src) || isGitSource(src) || strings.Contains(raw, "$") {
			continue
		}
		l := strings.ToLower(src)
		if slices.ContainsFunc(archiveExts, func(e string) bool { return strings.HasSuffix(l, e) }) {
			continue
		}
		line, col := f.word(c, raw)
		f.add(RuleAddForCopy, line, col, fmt.Sprintf("ADD copies the local %s, which is what COPY does.", src),
			"Use COPY; keep ADD for URLs, git sources and archives to unpack.")
		return
	}
}

// copyDest is hadolint's DL3021: several sources need a directory.
func (f *file) copyDest(st *stage, c *command, sd *instructions.SourcesAndDest) {
	n := len(sd.SourcePaths) + len(sd.SourceContents)
	dest := sd.DestPath
	if n < 2 || strings.Contains(dest, "$") || strings.HasSuffix(dest, "/") || (st.windows && strings.HasSuffix(dest, `\`)) {
		return
	}
	if base := path.Base(dest); base == "." || base == ".." {
		return
	}
	line, col := f.word(c, dest)
	f.add(RuleCopyDestNotDir, line, col,
		fmt.Sprintf("%s has %d sources but its destination %s does not end with /.", strings.ToUpper(c.c.Name()), n, dest),
		"End the destination with / to make it a directory: "+dest+"/.")
}

func (f *file) collectSources(st *stage, c *command, srcs []string, add bool) {
	for _, raw := range srcs {
		v, ok := f.wordValue(st, raw)
		if add && (isURL(v) || isGitSource(v)) {
			continue
		}
		cs := copySource{st: st, c: c, raw: raw, add: add}
		if ok {
			cs.path = v
		}
		f.copies = append(f.copies, cs)
	}
}

// wordValue is a word of an instruction as BuildKit expands it: quotes
// removed, variables replaced. ok is false when it uses a variable the
// stage does not define, or does not expand.
func (f *file) wordValue(st *stage, raw string) (string, bool) {
	v, unmatched, err := f.shlex.ProcessWord(raw, st.env)
	return v, err == nil && len(unmatched) == 0
}

// copyFromUnknown is a COPY --from that names no stage: pulled as an
// image. Reported when it is close to a stage's name (a typo).
func (f *file) copyFromUnknown(st *stage, c *command, from string) {
	var names []string
	for _, s := range f.stages {
		if s.ins.Name != "" {
			names = append(names, s.ins.Name)
		}
	}
	s, _ := search(strings.ToLower(from), names)
	if s == "" {
		return
	}
	line, col := f.word(c, "--from")
	f.add(RuleCopyFromTypo, line, col,
		fmt.Sprintf("COPY --from=%s names no stage, so it is pulled as an image; did you mean the stage %s?", from, s),
		fmt.Sprintf("Write --from=%s.", s))
}

// practices runs the checks that look at the whole file once dispatched.
func (f *file) practices() {
	f.userPractices()
}

// userPractices checks who the final image runs as: hadolint's DL3002 for
// an explicit USER root, Trivy's DS002 for no USER at all.
func (f *file) userPractices() {
	final := f.stages[len(f.stages)-1]
	if final.broken || final.windows {
		return
	}
	if u := final.user; u != nil {
		user := u.c.(*instructions.UserCommand).User
		name, _, _ := strings.Cut(user, ":")
		if (name == "root" || name == "0") && !slices.ContainsFunc(rawWords(u), func(w string) bool { return strings.Contains(w, "$") }) {
			line, col := f.start(u.node)
			f.add(RuleUserRoot, line, col, fmt.Sprintf("The final stage's last USER is %s, so the container runs as root.", user),
				"Switch to an unprivileged user after the steps that need root: USER 10001.")
		}
		return
	}
	root, runs := final, false
	for st := final; st != nil; st = st.base {
		root = st
		for _, c := range st.cmds {
			switch c.c.(type) {
			case *instructions.CmdCommand, *instructions.EntrypointCommand, *instructions.RunCommand:
				runs = true
			}
		}
	}
	if root.broken || (root.scratch && !runs) || nonRootImage(root.baseName) {
		return // an image exported as files, or one made to run as non-root
	}
	line, col := f.start(final.node)
	msg := "The final stage is built on scratch and sets no USER, so the container runs as root (uid 0)."
	if !root.scratch {
		msg = fmt.Sprintf("The final stage sets no USER, so the container runs as %s's user, root unless that image sets another.", root.baseName)
	}
	f.add(RuleUserMissing, line, col, msg, "Add USER with an unprivileged user (create it if the image has none) before CMD/ENTRYPOINT.")
}

// nonRootImage reports whether an image is known to run as a non-root
// user by default.
func nonRootImage(ref string) bool {
	r := strings.ToLower(ref)
	return strings.Contains(r, "nonroot") || strings.Contains(r, "rootless") ||
		strings.HasPrefix(r, "cgr.dev/chainguard/") || strings.HasPrefix(r, "bitnami/") || strings.Contains(r, "/bitnami/")
}

var (
	rePip    = check.LazyRegexp(`^pip[0-9]*(\.[0-9]+)?$`)
	rePython = check.LazyRegexp(`^python[0-9]*(\.[0-9]+)?$`)
)

// aptArgs splits apt-get's arguments into its subcommand, its flags and
// the values of its -o options.
func aptArgs(args []string) (sub string, flags, configs []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-o" || a == "--option":
			if i+1 < len(args) {
				configs = append(configs, args[i+1])
				i++
			}
		case strings.HasPrefix(a, "-o") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			configs = append(configs, a[2:])
		case strings.HasPrefix(a, "--option="):
			configs = append(configs, strings.TrimPrefix(a, "--option="))
		case slices.Contains([]string{"-c", "--config-file", "-t", "--target-release", "--default-release"}, a):
			i++
		case strings.HasPrefix(a, "-"):
			flags = append(flags, a)
		case sub == "":
			sub = a
		}
	}
	return sub, flags, configs
}

// aptConfigIs reports whether one of the -o values sets key (case
// insensitive) to one of vals.
func aptConfigIs(configs []string, key string, vals ...string) bool {
	for _, c := range configs {
		k, v, ok := strings.Cut(c, "=")
		if ok && strings.EqualFold(k, key) && slices.Contains(vals, strings.ToLower(strings.Trim(v, `"'`))) {
			return true
		}
	}
	return false
}

var reShortFlags = check.LazyRegexp(`^-[a-zA-Z]+$`)

// aptAssumesYes reports whether apt-get's flags answer its prompt.
func aptAssumesYes(flags, configs []string) bool {
	for _, fl := range flags {
		switch {
		case slices.Contains([]string{"-y", "--yes", "--assume-yes", "--force-yes", "-q=2", "--quiet=2"}, fl):
			return true
		case reShortFlags().MatchString(fl) && (strings.Contains(fl, "y") || strings.Count(fl, "q") >= 2):
			return true
		}
	}
	if slices.Contains(flags, "-q") && strings.Count(strings.Join(flags, " "), "-q") >= 2 {
		return true
	}
	return aptConfigIs(configs, "APT::Get::Assume-Yes", "true", "1", "yes")
}

// pipInstall reports whether c is pip install (or python -m pip install),
// and its arguments after install.
func pipInstall(c simpleCmd) (bool, []string) {
	args := c.args
	switch {
	case rePip().MatchString(c.name):
	case rePython().MatchString(c.name) && len(args) >= 2 && args[0] == "-m" && rePip().MatchString(args[1]):
		args = args[2:]
	default:
		return false, nil
	}
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a == "install", args[i+1:]
		}
	}
	return false, nil
}

// runPractices checks a RUN's shell script.
func (f *file) runPractices(st *stage, c *command, run *instructions.RunCommand) {
	text := strings.Join(run.CmdLine, " ")
	for _, h := range run.Files {
		text += "\n" + h.Data
	}
	defer func() {
		// An apt configuration written here applies to the RUNs after it.
		l := strings.ToLower(text)
		st.aptYes = st.aptYes || strings.Contains(l, "apt::get::assume-yes")
		st.aptNoRec = st.aptNoRec || strings.Contains(l, "apt::install-recommends")
	}()
	s := f.runScript(st, c, run)
	facts := analyzeScript(s)
	if facts == nil {
		return
	}
	mounts := instructions.GetMounts(run)
	cached := func(prefixes ...string) bool {
		return slices.ContainsFunc(mounts, func(m *instructions.Mount) bool {
			if m.Type != instructions.MountTypeCache && m.Type != instructions.MountTypeTmpfs {
				return false
			}
			return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(m.Target, p) || strings.Contains(m.Target, p) })
		})
	}
	var rmAptLists, rmApkCache bool
	for _, x := range facts.cmds {
		if x.name == "rm" {
			for _, a := range x.args {
				rmAptLists = rmAptLists || strings.Contains(a, "/var/lib/apt/lists")
				rmApkCache = rmApkCache || strings.Contains(a, "/var/cache/apk")
			}
		}
	}
	var update, install *simpleCmd
	sudoSeen := false
	for i := range facts.cmds {
		x := &facts.cmds[i]
		if x.sudo && !sudoSeen {
			sudoSeen = true
			line, col := s.pos(x.sudoOff)
			f.add(RuleSudo, line, col, fmt.Sprintf("RUN uses sudo to run %s; RUN already runs as the stage's USER.", x.name),
				"Switch with USER root for the commands that need it, then back to the unprivileged user.")
		}
		switch x.name {
		case "apt-get":
			sub, flags, configs := aptArgs(x.args)
			switch sub {
			case "update":
				if update == nil {
					update = x
				}
			case "install":
				if install == nil {
					install = x
				}
				line, col := s.pos(x.off)
				// An argument that expands ($APT_OPTS) may hold the -y.
				if !aptAssumesYes(flags, configs) && !facts.yes && !st.aptYes && !slices.Contains(x.args, "") {
					f.add(RuleAptMissingYes, line, col, "apt-get install has no -y, so it stops at its confirmation prompt with no one to answer.",
						"Add -y: apt-get install -y ...")
				}
				if !slices.Contains(flags, "--no-install-recommends") && !aptConfigIs(configs, "APT::Install-Recommends", "false", "0", "no") && !st.aptNoRec {
					f.add(RuleAptNoRecommends, line, col, "apt-get install without --no-install-recommends also installs the recommended packages.",
						"Add --no-install-recommends.")
				}
			}
		case "apt":
			sub, _, _ := aptArgs(x.args)
			if slices.Contains([]string{"install", "update", "upgrade", "full-upgrade", "dist-upgrade", "remove", "purge", "autoremove"}, sub) {
				line, col := s.pos(x.off)
				f.add(RuleAptInteractive, line, col, fmt.Sprintf("apt %s in a script: apt is for interactive use and its interface is not stable.", sub),
					fmt.Sprintf("Use apt-get %s.", sub))
			}
		case "apk":
			if st.final && len(x.args) > 0 && slices.Index(x.args, "add") >= 0 && !x.hasArg("--no-cache") &&
				!cached("/var/cache/apk", "/etc/apk/cache") && !rmApkCache {
				line, col := s.pos(x.off)
				f.add(RuleApkNoCache, line, col, "apk add without --no-cache leaves its package index in the image.", "Use apk add --no-cache.")
			}
		default:
			if ok, rest := pipInstall(*x); ok && st.final && !slices.ContainsFunc(rest, func(a string) bool { return strings.HasPrefix(a, "--no-cache-dir") }) &&
				!cached(".cache/pip", "/root/.cache", ".cache") && !hasEnv(st, "PIP_NO_CACHE_DIR") {
				line, col := s.pos(x.off)
				f.add(RulePipNoCacheDir, line, col, fmt.Sprintf("%s install without --no-cache-dir leaves pip's download cache in the image.", x.name),
					"Add --no-cache-dir, or set ENV PIP_NO_CACHE_DIR=1.")
			}
		}
	}
	if update != nil && st.final && !rmAptLists && !cached("/var/lib/apt") {
		line, col := s.pos(update.off)
		f.add(RuleAptListsNotCleaned, line, col, "apt-get update's package lists stay in the image: this RUN does not remove /var/lib/apt/lists.",
			"End the RUN with && rm -rf /var/lib/apt/lists/*.")
	}
	if update != nil && install == nil {
		line, col := s.pos(update.off)
		st.updateAlone = &position{line, col}
	} else if install != nil && update == nil && st.updateAlone != nil {
		p := st.updateAlone
		f.add(RuleAptUpdateAlone, p.line, p.col, "apt-get update runs in a RUN of its own, and a later RUN installs from its cached lists.",
			"Run apt-get update && apt-get install -y ... in one RUN.")
		st.updateAlone = nil
	}
	if facts.onlyCd {
		line, col := s.pos(0)
		f.add(RuleCdAlone, line, col, "This RUN only changes directory, which does not carry over to the next instruction.", "Use WORKDIR.")
	}
	if !shellHasPipefail(st.shell) {
		for _, p := range facts.pipes {
			if p.feeder || (facts.pipefail >= 0 && facts.pipefail < p.off) {
				continue
			}
			line, col := s.pos(p.off)
			f.add(RulePipefail, line, col, "A failure before this | is hidden: the RUN's status is the last command's, and the shell has no pipefail.",
				"Start the RUN with set -o pipefail && ..., or set SHELL [\"/bin/bash\", \"-o\", \"pipefail\", \"-c\"].")
			break
		}
	}
}

type position struct{ line, col int }

func hasEnv(st *stage, key string) bool {
	_, ok := st.env.Get(key)
	return ok || st.buildArgs[key]
}

// shellHasPipefail reports whether a SHELL turns pipefail on.
func shellHasPipefail(sh []string) bool {
	return slices.Contains(sh, "pipefail")
}
