package lifecycle

// DefaultName is the definition used when none is named: the eight phases
// of the agent-driven development lifecycle (ASDD).
const DefaultName = "asdd"

func c(id, text string) Criterion    { return Criterion{ID: id, Text: text} }
func gate(id, text string) Criterion { return Criterion{ID: id, Text: text, Gate: true} }

// Builtins returns the built-in definitions: asdd (eight phases) and
// asdd6, the newer six.
func Builtins() []Definition {
	return []Definition{
		{Name: DefaultName, Source: "built-in",
			Description: "Agent-driven development: sync, story, plan, commit the spec, execute, test, verify, commit the implementation.",
			Phases: []Phase{
				{Name: "SYNC", Goal: "Know where the project stands before changing it.",
					Exit: []Criterion{
						c("context_loaded", "Project memory, conventions and open work read (decisions, mistakes, the plan)."),
						c("branch_synced", "Working branch up to date with the main branch; name the commit."),
					}},
				{Name: "STORY", Goal: "Say what is wanted and how to tell it is done.",
					Exit: []Criterion{
						c("story_written", "User story: who wants what, and why."),
						c("acceptance_criteria", "Acceptance criteria, each one testable."),
					}},
				{Name: "PLAN", Goal: "Decide how to build it.",
					Exit: []Criterion{
						c("plan_written", "Implementation plan: files to change, steps, risks."),
						c("tasks_created", "The plan broken into tasks in Cairn; list their ids."),
					}},
				{Name: "COMMIT_SPEC", Goal: "Fix the spec before writing code.",
					Entry: []string{"The plan is agreed."},
					Exit: []Criterion{
						c("spec_committed", "Story, criteria and plan committed; give the commit id."),
						c("spec_approved", "The spec approved by the user or a reviewer."),
					}},
				{Name: "EXECUTE", Goal: "Build what the spec says.",
					Exit: []Criterion{
						c("implemented", "Every planned task done; list the commits or files."),
						c("conventions_followed", "The change checked against the project's conventions."),
					}},
				{Name: "TEST", Goal: "Prove it works.",
					Exit: []Criterion{
						c("tests_written", "Tests cover each acceptance criterion; name them."),
						gate("tests_pass", "The test suite passes: report the command and its exit code."),
					}},
				{Name: "VERIFY", Goal: "Check the result against the story, not just the tests.",
					Exit: []Criterion{
						c("acceptance_met", "Each acceptance criterion checked against the working result."),
						c("no_divergence", "The implementation matches the spec; divergences resolved or sent back."),
						gate("quality_gates", "Linters and quality gates pass: report the command and its exit code."),
					}},
				{Name: "COMMIT_IMPL", Goal: "Land it and remember what was learned.",
					Exit: []Criterion{
						c("committed", "Implementation committed; give the commit id."),
						c("memory_updated", "Decisions and mistakes recorded in project memory."),
					}},
			}},
		{Name: "asdd6", Source: "built-in",
			Description: "The newer six phases: understand, plan, spec, build, verify, ship.",
			Phases: []Phase{
				{Name: "UNDERSTAND", Goal: "Know the problem and the project.",
					Exit: []Criterion{
						c("context_loaded", "Project memory, conventions and open work read."),
						c("problem_stated", "The problem and who has it, in a few sentences."),
					}},
				{Name: "PLAN", Goal: "Decide how to solve it.",
					Exit: []Criterion{
						c("plan_written", "Implementation plan: files to change, steps, risks."),
						c("tasks_created", "The plan broken into tasks in Cairn; list their ids."),
					}},
				{Name: "SPEC", Goal: "Fix what done means.",
					Exit: []Criterion{
						c("acceptance_criteria", "Acceptance criteria, each one testable."),
						c("spec_approved", "The spec approved by the user or a reviewer."),
					}},
				{Name: "BUILD", Goal: "Build it with its tests.",
					Exit: []Criterion{
						c("implemented", "Every planned task done; list the commits or files."),
						c("tests_written", "Tests cover each acceptance criterion."),
					}},
				{Name: "VERIFY", Goal: "Prove it.",
					Exit: []Criterion{
						gate("tests_pass", "The test suite passes: report the command and its exit code."),
						c("acceptance_met", "Each acceptance criterion checked against the working result."),
					}},
				{Name: "SHIP", Goal: "Land it and remember.",
					Exit: []Criterion{
						c("committed", "Change committed; give the commit id."),
						c("memory_updated", "Decisions and mistakes recorded in project memory."),
					}},
			}},
	}
}
