package commitmsg

import "github.com/cairn-dev/cairn/internal/check"

// The rule ids of Lint's findings.
const (
	RuleEmpty              = "commitmsg/empty"
	RuleHeaderFormat       = "commitmsg/header-format"
	RuleHeaderMax          = "commitmsg/header-max-length"
	RuleTypeEnum           = "commitmsg/type-enum"
	RuleTypeCase           = "commitmsg/type-case"
	RuleScopeCase          = "commitmsg/scope-case"
	RuleScopeEmpty         = "commitmsg/scope-empty-parens"
	RuleSubjectEmpty       = "commitmsg/subject-empty"
	RuleSubjectFullStop    = "commitmsg/subject-full-stop"
	RuleSubjectCase        = "commitmsg/subject-case"
	RuleBodyLeadingBlank   = "commitmsg/body-leading-blank"
	RuleFooterLeadingBlank = "commitmsg/footer-leading-blank"
	RuleBodyLineMax        = "commitmsg/body-max-line-length"
	RuleFooterLineMax      = "commitmsg/footer-max-line-length"
	RuleBreakingFooter     = "commitmsg/breaking-change-format"
)

const commitlintRules = "https://commitlint.js.org/reference/rules.html"

// Rules lists every rule Lint's findings may name.
func Rules() []check.Rule {
	return []check.Rule{
		{ID: RuleEmpty, Severity: check.Error, Title: "empty message", Why: "Git refuses an empty message; a commit without one says nothing in the history.", Fix: "Write a conventional header.", Bad: "", Good: "fix(parser): handle empty input"},
		{ID: RuleHeaderFormat, Severity: check.Error, Title: "header is not type(scope): subject", Why: "Changelog and release tools read the type and scope from the header; a header of another shape is skipped.", Fix: "Write \"type(scope): subject\".", Bad: "Fixed the parser", Good: "fix(parser): handle empty input", Link: "https://www.conventionalcommits.org/en/v1.0.0/#specification"},
		{ID: RuleHeaderMax, Severity: check.Error, Title: "header too long", Why: "Git log, GitHub and mail clients cut a header past about 72 characters.", Fix: "Shorten the subject; put detail in the body.", Bad: "feat(store): add a new way to store the memory entries of agents together with their embeddings and tags", Good: "feat(store): store memory embeddings with their tags", Link: commitlintRules + "#header-max-length"},
		{ID: RuleTypeEnum, Severity: check.Error, Title: "unknown type", Why: "Release tools map types to version bumps and changelog sections; an unknown type is lost.", Fix: "Use one of build, chore, ci, docs, feat, fix, perf, refactor, revert, style, test.", Bad: "feature: add export", Good: "feat: add export", Link: commitlintRules + "#type-enum"},
		{ID: RuleTypeCase, Severity: check.Error, Title: "type not lower case", Why: "Types are matched case-sensitively by release tools.", Fix: "Write the type in lower case.", Bad: "Fix: handle nil", Good: "fix: handle nil", Link: commitlintRules + "#type-case"},
		{ID: RuleScopeCase, Severity: check.Error, Title: "scope not lower case", Why: "Scopes group changelog entries; \"API\" and \"api\" would be two groups.", Fix: "Write the scope in lower case, kebab-case for several words.", Bad: "fix(API): ...", Good: "fix(api): ...", Link: commitlintRules + "#scope-case"},
		{ID: RuleScopeEmpty, Severity: check.Warning, Title: "empty scope parentheses", Why: "\"()\" says nothing and some parsers read it as no header.", Fix: "Remove the parentheses or name the scope.", Bad: "fix(): ...", Good: "fix: ..."},
		{ID: RuleSubjectEmpty, Severity: check.Error, Title: "empty subject", Why: "The subject is the one line people read in the log.", Fix: "Say what the commit does.", Bad: "fix: ", Good: "fix: handle empty input", Link: commitlintRules + "#subject-empty"},
		{ID: RuleSubjectFullStop, Severity: check.Error, Title: "subject ends with a period", Why: "A header is a title, not a sentence; changelogs append their own punctuation.", Fix: "Drop the period.", Bad: "fix: handle empty input.", Good: "fix: handle empty input", Link: commitlintRules + "#subject-full-stop"},
		{ID: RuleSubjectCase, Severity: check.Error, Title: "subject in sentence, start or upper case", Why: "config-conventional wants the subject to continue the type in lower case, in the imperative.", Fix: "Start in lower case: \"add ...\", \"fix ...\".", Bad: "feat: Add export", Good: "feat: add export", Link: commitlintRules + "#subject-case"},
		{ID: RuleBodyLeadingBlank, Severity: check.Warning, Title: "no blank line before the body", Why: "Git takes everything up to the first blank line as the subject: the body joins the title in git log --oneline and in e-mail.", Fix: "Leave line 2 empty.", Bad: "fix: x\nbecause y", Good: "fix: x\n\nbecause y", Link: commitlintRules + "#body-leading-blank"},
		{ID: RuleFooterLeadingBlank, Severity: check.Warning, Title: "no blank line before the footers", Why: "Trailers (Refs:, BREAKING CHANGE:) are read only as the last paragraph.", Fix: "Leave a blank line before the footers.", Bad: "body\nRefs: #12", Good: "body\n\nRefs: #12", Link: commitlintRules + "#footer-leading-blank"},
		{ID: RuleBodyLineMax, Severity: check.Error, Title: "body line too long", Why: "Long lines wrap badly in git log and review tools.", Fix: "Wrap at 72 characters.", Bad: "one line of 140 characters", Good: "the same text wrapped", Link: commitlintRules + "#body-max-line-length"},
		{ID: RuleFooterLineMax, Severity: check.Error, Title: "footer line too long", Why: "Long lines wrap badly in git log and review tools.", Fix: "Wrap at 72 characters.", Bad: "BREAKING CHANGE: a 140-character line", Good: "the same text wrapped", Link: commitlintRules + "#footer-max-line-length"},
		{ID: RuleBreakingFooter, Severity: check.Error, Title: "breaking change not spelled as the specification reads it", Why: "Only \"BREAKING CHANGE:\" (or BREAKING-CHANGE:) as a footer, or \"!\" before the colon, makes release tools bump the major version.", Fix: "Write \"BREAKING CHANGE: what breaks and how to migrate\" as a footer.", Bad: "BREAKING CHANGES: Open takes a context", Good: "BREAKING CHANGE: Open takes a context", Link: "https://www.conventionalcommits.org/en/v1.0.0/#specification"},
	}
}

func ruleByID(id string) check.Rule {
	for _, r := range Rules() {
		if r.ID == id {
			return r
		}
	}
	return check.Rule{ID: id, Severity: check.Error}
}
