package syntax

import "github.com/cairn-dev/cairn/internal/check"

// The rule ids.
const (
	RuleSyntax          = "mermaid/syntax"
	RuleUnknownDiagram  = "mermaid/unknown-diagram"
	RuleFrontMatter     = "mermaid/front-matter"
	RuleFrontMatterKey  = "mermaid/front-matter-key"
	RuleDirective       = "mermaid/directive"
	RuleSizeLimit       = "mermaid/size-limit"
	RuleUnknownShape    = "mermaid/unknown-shape"
	RuleLinkStyleIndex  = "mermaid/link-style-index"
	RuleUndefinedNode   = "mermaid/undefined-node"
	RuleUndefinedClass  = "mermaid/undefined-class"
	RuleDuplicate       = "mermaid/duplicate-definition"
	RuleGanttUnknownRef = "mermaid/gantt-unknown-task"
	RuleGanttDate       = "mermaid/gantt-date"
	RulePieValue        = "mermaid/pie-value"
	RuleActivation      = "mermaid/sequence-activation"
	RuleGitGraph        = "mermaid/git-graph"
	RuleParticipant     = "mermaid/sequence-participant"
	RuleValue           = "mermaid/invalid-value"
)

const syntaxDocs = "https://mermaid.js.org/intro/syntax-reference.html"

var Rules = []check.Rule{
	{ID: RuleSyntax, Severity: check.Error, Title: "Mermaid cannot parse the diagram",
		Why:  "Mermaid refuses a diagram with a syntax error and draws an error box instead of it.",
		Fix:  "Fix the statement at the line and column given; the message says what Mermaid expected there.",
		Bad:  "flowchart TD\n    A -> B",
		Good: "flowchart TD\n    A --> B",
		Link: syntaxDocs},
	{ID: RuleUnknownDiagram, Severity: check.Error, Title: "No diagram type Mermaid knows",
		Why:  "Mermaid picks the parser from the first word of the diagram; a misspelt or missing type means no diagram at all.",
		Fix:  "Start the diagram with a type keyword: flowchart, sequenceDiagram, classDiagram, stateDiagram-v2, erDiagram, gantt, pie, ...",
		Bad:  "flowchar TD\n    A --> B",
		Good: "flowchart TD\n    A --> B",
		Link: syntaxDocs},
	{ID: RuleFrontMatter, Severity: check.Error, Title: "Broken front matter",
		Why:  "Mermaid parses the YAML between the --- lines and refuses the diagram when it is not valid YAML or not closed.",
		Fix:  "Close the block with an unindented --- line and write valid YAML in it.",
		Bad:  "---\ntitle: [Order flow\n---\nflowchart TD\n    A --> B",
		Good: "---\ntitle: Order flow\n---\nflowchart TD\n    A --> B",
		Link: "https://mermaid.js.org/config/configuration.html#frontmatter-config"},
	{ID: RuleFrontMatterKey, Severity: check.Warning, Title: "Front matter key Mermaid ignores",
		Why:  "Mermaid reads only title, displayMode and config from front matter; a setting elsewhere (theme: dark at the top level) does nothing.",
		Fix:  "Move the setting under config:.",
		Bad:  "---\ntheme: dark\n---\nflowchart TD\n    A --> B",
		Good: "---\nconfig:\n  theme: dark\n---\nflowchart TD\n    A --> B",
		Link: "https://mermaid.js.org/config/configuration.html#frontmatter-config"},
	{ID: RuleDirective, Severity: check.Warning, Title: "Directive Mermaid ignores",
		Why:  "An %%{init: ...}%% directive whose argument is not JSON, or a directive of a type Mermaid does not know, is dropped without a word, so the settings silently do not apply.",
		Fix:  "Write the argument as JSON (quoted keys), or use front matter config: instead.",
		Bad:  "%%{init: {theme: dark}}%%\nflowchart TD\n    A --> B",
		Good: "%%{init: {\"theme\": \"dark\"}}%%\nflowchart TD\n    A --> B",
		Link: "https://mermaid.js.org/config/directives.html"},
	{ID: RuleSizeLimit, Severity: check.Error, Title: "Over Mermaid's default size limits",
		Why:  "By default Mermaid refuses diagrams over 50,000 characters (maxTextSize) and flowcharts over 500 edges (maxEdges); a diagram cannot raise these itself, so every site that keeps the defaults (GitHub, GitLab, most docs sites) shows an error instead of the diagram.",
		Fix:  "Split the diagram, or make sure every place that renders it raises maxTextSize/maxEdges in mermaid.initialize.",
		Bad:  "flowchart TD\n    %% 501 edges ...",
		Good: "flowchart TD\n    %% two diagrams of 250 edges each",
		Link: "https://mermaid.js.org/config/schema-docs/config.html#maxtextsize"},
	{ID: RuleUnknownShape, Severity: check.Error, Title: "Unknown node shape",
		Why:  "Mermaid refuses a node whose @{ shape: ... } names no shape it has, and a shape data block that is not valid YAML.",
		Fix:  "Use one of the shape names Mermaid documents (rect, rounded, stadium, diam, cyl, ...), in lowercase.",
		Bad:  "flowchart TD\n    A@{ shape: cylinder3d }",
		Good: "flowchart TD\n    A@{ shape: cyl }",
		Link: "https://mermaid.js.org/syntax/flowchart.html#complete-list-of-new-shapes"},
	{ID: RuleLinkStyleIndex, Severity: check.Error, Title: "linkStyle index past the last link",
		Why:  "Mermaid numbers links from 0 in the order they are written and refuses a linkStyle whose index has no link.",
		Fix:  "Count the links (A & B --> C is two) and use an index below that count.",
		Bad:  "flowchart TD\n    A --> B\n    linkStyle 1 stroke:red",
		Good: "flowchart TD\n    A --> B\n    linkStyle 0 stroke:red",
		Link: "https://mermaid.js.org/syntax/flowchart.html#styling-links"},
	{ID: RuleUndefinedNode, Severity: check.Warning, Title: "Reference to a node that is not drawn",
		Why:  "A style, class or click statement naming an id that no statement draws creates a new, unconnected node, which is almost always a typo.",
		Fix:  "Use the id of a node the diagram draws (ids are case-sensitive).",
		Bad:  "flowchart TD\n    Start --> Stop\n    style start fill:#f9f",
		Good: "flowchart TD\n    Start --> Stop\n    style Start fill:#f9f",
		Link: "https://mermaid.js.org/syntax/flowchart.html#styling-a-node"},
	{ID: RuleUndefinedClass, Severity: check.Warning, Title: "Class applied but never defined",
		Why:  "A class attached with class or ::: that no classDef defines has no style, so the node renders plain.",
		Fix:  "Define it with classDef, or fix the class name.",
		Bad:  "flowchart TD\n    A:::warn --> B\n    classDef warning fill:#f96",
		Good: "flowchart TD\n    A:::warning --> B\n    classDef warning fill:#f96",
		Link: "https://mermaid.js.org/syntax/flowchart.html#classes"},
	{ID: RuleDuplicate, Severity: check.Warning, Title: "Defined twice",
		Why:  "A second definition of the same name merges into or overrides the first, which is rarely meant.",
		Fix:  "Keep one definition, or rename one of them.",
		Bad:  "flowchart TD\n    classDef hot fill:#f00\n    classDef hot fill:#f96",
		Good: "flowchart TD\n    classDef hot fill:#f96",
		Link: syntaxDocs},
	{ID: RuleGanttUnknownRef, Severity: check.Error, Title: "Gantt task after an unknown task",
		Why:  "A task that starts (after x) or ends (until x) at a task id that no task has is placed at today's date instead.",
		Fix:  "Use the id of a task in the chart (the name after the colon: Task :a1, 2024-01-01, 3d).",
		Bad:  "gantt\n    dateFormat YYYY-MM-DD\n    Design :a1, 2024-01-01, 3d\n    Build  :after a2, 5d",
		Good: "gantt\n    dateFormat YYYY-MM-DD\n    Design :a1, 2024-01-01, 3d\n    Build  :after a1, 5d",
		Link: "https://mermaid.js.org/syntax/gantt.html#syntax"},
	{ID: RuleGanttDate, Severity: check.Error, Title: "Gantt date that does not match dateFormat",
		Why:  "Mermaid reads task dates with the chart's dateFormat; a date in another form is read loosely or not at all, and the task lands in the wrong place or the chart fails.",
		Fix:  "Write the date in the dateFormat, or change dateFormat to the form the dates use.",
		Bad:  "gantt\n    dateFormat YYYY-MM-DD\n    Design :a1, 01/02/2024, 3d",
		Good: "gantt\n    dateFormat YYYY-MM-DD\n    Design :a1, 2024-01-02, 3d",
		Link: "https://mermaid.js.org/syntax/gantt.html#input-date-format"},
	{ID: RulePieValue, Severity: check.Error, Title: "Pie slice value that is not positive",
		Why:  "Mermaid refuses a negative slice value; a zero value draws no slice at all.",
		Fix:  "Give each slice a positive number, or remove the slice.",
		Bad:  "pie\n    \"Dogs\" : -3\n    \"Cats\" : 5",
		Good: "pie\n    \"Dogs\" : 3\n    \"Cats\" : 5",
		Link: "https://mermaid.js.org/syntax/pie.html"},
	{ID: RuleActivation, Severity: check.Error, Title: "Deactivating a participant that is not active",
		Why:  "Mermaid refuses a sequence diagram that deactivates (deactivate X, or a -x/- suffix) a participant with no open activation.",
		Fix:  "Activate it first (activate X or ->>+), or remove the deactivation.",
		Bad:  "sequenceDiagram\n    A->>B: hi\n    deactivate B",
		Good: "sequenceDiagram\n    A->>+B: hi\n    deactivate B",
		Link: "https://mermaid.js.org/syntax/sequenceDiagram.html#activations"},
	{ID: RuleParticipant, Severity: check.Error, Title: "Participant created, destroyed or boxed wrongly",
		Why:  "Mermaid refuses a sequence diagram that creates a participant that already exists, creates or destroys one without a message to or from it right after, or puts one participant in two boxes.",
		Fix:  "Follow create participant X with a message to X and destroy X with a message from or to X; declare each participant in one box.",
		Bad:  "sequenceDiagram\n    A->>B: hi\n    create participant B\n    A->>B: again",
		Good: "sequenceDiagram\n    A->>C: hi\n    create participant B\n    A->>B: again",
		Link: "https://mermaid.js.org/syntax/sequenceDiagram.html#actor-creation-and-destruction-v10-3-0"},
	{ID: RuleGitGraph, Severity: check.Error, Title: "Impossible gitGraph operation",
		Why:  "Mermaid refuses a gitGraph that checks out or merges a branch that does not exist, creates a branch twice, merges a branch into itself or cherry-picks a commit that is not there.",
		Fix:  "Create the branch before using it, and name existing branches and commit ids.",
		Bad:  "gitGraph\n    commit\n    checkout develop",
		Good: "gitGraph\n    commit\n    branch develop\n    checkout develop",
		Link: "https://mermaid.js.org/syntax/gitgraph.html"},
	{ID: RuleValue, Severity: check.Error, Title: "Value Mermaid refuses",
		Why:  "Some statements parse but carry a value Mermaid's code then refuses or cannot draw: a quadrant point style it does not know, a gantt task with too many parts, a journey score that is not a number.",
		Fix:  "Use a value of the kind the diagram type takes; the message names it.",
		Bad:  "quadrantChart\n    Point A: [0.4, 0.3] radius: big",
		Good: "quadrantChart\n    Point A: [0.4, 0.3] radius: 10",
		Link: syntaxDocs},
}

var ruleByID = func() map[string]check.Rule {
	m := map[string]check.Rule{}
	for _, r := range Rules {
		m[r.ID] = r
	}
	return m
}()
