package tkb

import "github.com/cairn-dev/cairn/internal/check"

const (
	ruleSyntax        = "tkb/syntax"
	ruleNoFrontMatter = "tkb/no-front-matter"
	ruleMissingField  = "tkb/missing-field"
	ruleFieldType     = "tkb/field-type"
	ruleIgnoredField  = "tkb/ignored-field"
	ruleVocabulary    = "tkb/vocabulary"
	ruleDuplicateName = "tkb/duplicate-name"
	ruleBrokenLink    = "tkb/broken-link"
	ruleTruncated     = "tkb/truncated"
	ruleNotIndexed    = "tkb/not-indexed"
)

var rules = []check.Rule{
	{ID: ruleSyntax, Severity: check.Error, Title: "Front matter does not parse",
		Why: "When an entry's YAML front matter does not parse (a syntax error, a key given twice, a list instead of a mapping, no closing ---), the context tools read none of it: the entry loses its category, maturity, use cases and description, and query_tkb's filters never find it.",
		Fix: "Fix the YAML at the line given; close the front matter with a line of ---.",
		Bad: "---\ntitle: Caching\ncategory: backend\ncategory: performance\n---", Good: "---\ntitle: Caching\ncategory: performance\n---"},
	{ID: ruleNoFrontMatter, Severity: check.Warning, Title: "Entry without front matter",
		Why: "An entry without front matter has no category, maturity or use cases: query_tkb lists it only when nothing is filtered.",
		Fix: "Start the file with front matter: title, category, maturity, use_cases, description.",
		Bad: "# Caching\nUse Redis.", Good: "---\ntitle: Caching\ncategory: performance\nmaturity: stable\nuse_cases: [api, sessions]\ndescription: Where and how we cache.\n---\n# Caching"},
	{ID: ruleMissingField, Severity: check.Warning, Title: "Field the knowledge tools read is missing",
		Why: "query_tkb filters on category, maturity and use_cases and shows the title and description; an entry without them is missed by filters and listed without a summary.",
		Fix: "Add the field to the front matter.",
		Bad: "---\ntitle: Caching\n---", Good: "---\ntitle: Caching\ncategory: performance\nmaturity: stable\ndescription: Where and how we cache.\n---"},
	{ID: ruleFieldType, Severity: check.Error, Title: "Field of a kind the tools ignore",
		Why: "The knowledge tools read title, name, description, category and maturity as strings, and use_cases, tags, triggers and expertise as lists of strings (or a comma-separated string); a value of another kind (a number, a list for category, a mapping) is dropped without a word.",
		Fix: "Write the field as a string (or a list of strings).",
		Bad: "category: [backend, performance]\nmaturity: 2", Good: "category: performance\nmaturity: stable"},
	{ID: ruleIgnoredField, Severity: check.Warning, Title: "Field hidden by its synonym",
		Why: "The tools read the first of name and id, description and summary, maturity and status that is a string: the other is ignored, and two values that disagree make the entry say something else than its author meant.",
		Fix: "Keep one of the two.",
		Bad: "maturity: stable\nstatus: draft", Good: "maturity: stable"},
	{ID: ruleVocabulary, Severity: check.Warning, Title: "Category or maturity outside the vocabulary",
		Why: "query_tkb filters category and maturity by exact value (ignoring case): an entry spelled differently from its siblings (back-end beside backend, draft beside drafts) or outside the project's vocabulary (params categories, maturities) is missed by the filter.",
		Fix: "Use the spelling the other entries use, or one of the vocabulary's values.",
		Bad: "category: back-end   # the others say backend", Good: "category: backend"},
	{ID: ruleDuplicateName, Severity: check.Error, Title: "Two entries with the same name",
		Why: "get_tkb_entry finds an entry by name (its name or id, else its file name), case-insensitively, and returns the first in path order: the second can only be reached by its path, and a reference by name reaches the wrong one.",
		Fix: "Give the entry a name (or id) of its own.",
		Bad: "knowledge/api/caching.md and knowledge/web/caching.md, neither with a name", Good: "name: api-caching / name: web-caching"},
	{ID: ruleBrokenLink, Severity: check.Error, Title: "Link to an entry or file that does not exist",
		Why: "A Markdown link, wiki link ([[name]]) or front-matter reference (related, see_also, depends_on, supersedes, ...) that resolves to no entry and no file leaves the reader (or the agent following it) at a dead end.",
		Fix: "Point it at an existing entry (its path or name) or file, or remove it.",
		Bad: "related: [caching-strategy]   # no such entry", Good: "related: [caching]"},
	{ID: ruleTruncated, Severity: check.Warning, Title: "Entry longer than the tools read",
		Why: "The context tools read the first 256 KiB of an entry: the rest is neither searched by query_tkb nor shown by get_tkb_entry.",
		Fix: "Split the entry, or move the bulk to files it links to.",
		Bad: "knowledge/all-of-it.md (400 KiB)", Good: "knowledge/topic-a.md, knowledge/topic-b.md"},
	{ID: ruleNotIndexed, Severity: check.Warning, Title: "Entry the knowledge tools do not read",
		Why: "query_tkb and get_tkb_entry read Markdown files under knowledge/, at most six folders deep, that are not empty: an entry elsewhere is invisible to them.",
		Fix: "Move it under knowledge/, less deep, or give it content.",
		Bad: "docs/kb/caching.md", Good: "knowledge/caching.md"},
}
