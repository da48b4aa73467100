// Package report writes a list of findings for the places CI shows them:
// SARIF 2.1.0 (GitHub code scanning and other viewers), GitHub Actions
// workflow commands (annotations on the pull request's lines) and
// Markdown (a pull request comment).
//
// SARIF follows the OASIS 2.1.0 schema (the test validates against the
// schema the SARIF project publishes): one run, the rules that the
// findings name in tool.driver.rules, each result pointing at its rule by
// id and index, paths relative to %SRCROOT%, regions 1-based with an
// exclusive end column as SARIF counts them. Annotations escape data and
// properties as GitHub's toolkit does (% CR LF in both; : and , in
// properties too).
package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

// Tool names the producer in a SARIF log.
type Tool struct {
	Name           string // "cairn"
	Version        string // "" when unknown
	InformationURI string
}

// SARIF schema and version written in every log.
const (
	SARIFVersion = "2.1.0"
	SARIFSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	Results    []sarifResult `json:"results"`
	ColumnKind string        `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string        `json:"id"`
	Name                 string        `json:"name,omitempty"`
	ShortDescription     *sarifText    `json:"shortDescription,omitempty"`
	FullDescription      *sarifText    `json:"fullDescription,omitempty"`
	Help                 *sarifText    `json:"help,omitempty"`
	HelpURI              string        `json:"helpUri,omitempty"`
	DefaultConfiguration *sarifRuleCfg `json:"defaultConfiguration,omitempty"`
}

type sarifRuleCfg struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           *sarifRegion     `json:"region,omitempty"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri,omitempty"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// sarifLevel maps a severity to SARIF's level.
func sarifLevel(s check.Severity) string {
	switch s {
	case check.Error:
		return "error"
	case check.Warning:
		return "warning"
	}
	return "note"
}

// SARIF writes findings as a SARIF 2.1.0 log. rules describe the rule ids
// the findings name (a finding whose rule is not among them gets a rule
// entry with its id only).
func SARIF(w io.Writer, tool Tool, rules []check.Rule, findings []check.Finding) error {
	byID := map[string]check.Rule{}
	for _, r := range rules {
		byID[r.ID] = r
	}
	var ids []string
	for _, f := range findings {
		if !slices.Contains(ids, f.Rule) {
			ids = append(ids, f.Rule)
		}
	}
	slices.Sort(ids)
	index := map[string]int{}
	driver := sarifDriver{Name: cmp.Or(tool.Name, "cairn"), Version: tool.Version, InformationURI: tool.InformationURI, Rules: []sarifRule{}}
	for i, id := range ids {
		index[id] = i
		r, ok := byID[id]
		sr := sarifRule{ID: id}
		if ok {
			sr.Name = ruleName(r)
			if r.Title != "" {
				sr.ShortDescription = &sarifText{Text: r.Title}
			}
			if r.Why != "" {
				sr.FullDescription = &sarifText{Text: r.Why}
			}
			if help := ruleHelp(r); help != "" {
				sr.Help = &sarifText{Text: help, Markdown: ruleHelpMarkdown(r)}
			}
			if strings.HasPrefix(r.Link, "http") {
				sr.HelpURI = r.Link
			}
			if r.Severity != "" {
				sr.DefaultConfiguration = &sarifRuleCfg{Level: sarifLevel(r.Severity)}
			}
		}
		driver.Rules = append(driver.Rules, sr)
	}
	results := []sarifResult{}
	for _, f := range findings {
		msg := f.Message
		if f.Fix != "" {
			msg += " Fix: " + f.Fix
		}
		res := sarifResult{RuleID: f.Rule, RuleIndex: index[f.Rule], Level: sarifLevel(f.Severity), Message: sarifText{Text: cmp.Or(msg, f.Rule)}}
		if f.File != "" {
			loc := sarifPhysical{ArtifactLocation: sarifArtifactLoc{URI: uriPath(f.File), URIBaseID: "%SRCROOT%"}}
			if f.Line > 0 {
				rg := &sarifRegion{StartLine: f.Line}
				if f.Col > 0 {
					rg.StartColumn = f.Col
				}
				if f.EndLine >= f.Line {
					rg.EndLine = f.EndLine
					// SARIF's endColumn is the column after the region.
					if f.EndCol > 0 && (f.EndLine > f.Line || f.EndCol >= f.Col) {
						rg.EndColumn = f.EndCol + 1
					}
				}
				loc.Region = rg
			}
			res.Locations = []sarifLocation{{PhysicalLocation: loc}}
		}
		results = append(results, res)
	}
	// Column kind: check.Finding counts bytes; SARIF has no byte kind and
	// viewers read utf16CodeUnits. On ASCII lines they agree.
	log := sarifLog{Schema: SARIFSchema, Version: SARIFVersion, Runs: []sarifRun{{
		Tool: sarifTool{Driver: driver}, Results: results, ColumnKind: "utf16CodeUnits",
	}}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}

// uriPath makes a slash path a relative URI reference: percent-encodes
// what a URI cannot hold raw.
func uriPath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("-._~/!$&'()*+,;=:@", c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// ruleName is SARIF's PascalCase rule name from the id's last part.
func ruleName(r check.Rule) string {
	id := r.ID
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	var b strings.Builder
	for _, part := range strings.FieldsFunc(id, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

func ruleHelp(r check.Rule) string {
	var parts []string
	if r.Fix != "" {
		parts = append(parts, "Fix: "+r.Fix)
	}
	if r.Bad != "" {
		parts = append(parts, "Bad: "+r.Bad)
	}
	if r.Good != "" {
		parts = append(parts, "Good: "+r.Good)
	}
	return strings.Join(parts, "\n")
}

func ruleHelpMarkdown(r check.Rule) string {
	var b strings.Builder
	if r.Why != "" {
		b.WriteString(r.Why + "\n\n")
	}
	if r.Fix != "" {
		b.WriteString("**Fix:** " + r.Fix + "\n\n")
	}
	if r.Bad != "" {
		b.WriteString("Bad:\n\n" + fence(r.Bad) + "\n\n")
	}
	if r.Good != "" {
		b.WriteString("Good:\n\n" + fence(r.Good) + "\n")
	}
	return strings.TrimSpace(b.String())
}

// fence wraps code in a backtick fence longer than any run inside it.
func fence(code string) string {
	n := 3
	for run, i := 0, 0; i < len(code); i++ {
		if code[i] == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	return f + "\n" + code + "\n" + f
}
