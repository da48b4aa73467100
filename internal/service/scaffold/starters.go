package scaffold

// The starter files: short, about working with Cairn, meant to be edited
// or replaced by the project's own.

const knowledgeEntry = `---
title: Working with Cairn
category: process
maturity: draft
use_cases: [onboarding, session start]
description: How this project keeps its working memory, and where to look first.
---
Cairn keeps the plan, the focus stack and the project's memory in .cairn/.

- Start a session with bootstrap (or get_current_task): it says where you are.
- Before designing, search memory (memory_search) for past decisions.
- After fixing a failure, record it (memory_add_mistake) with its root cause.
- Add entries to this folder for knowledge that outlives a task: one topic a
  file, with front matter (title, category, maturity, use_cases, description).
`

const testingEntry = `---
title: How we test
category: quality
maturity: draft
use_cases: [testing, review]
description: What a change must show before it is committed.
---
Replace this with the project's own rules. A starting point:

- Every change comes with a test that fails without it.
- Run the whole suite before committing; a flaky test is a bug to file.
- Name the command that runs the tests in the project's README.
`

const rule = `# Working memory

- Keep YOU ARE HERE true: switch_focus when you change task, complete_current_task when done.
- Record decisions (memory_add_decision) and fixed mistakes (memory_add_mistake) as you go.
- On an error, run diagnose_error before debugging from scratch.
`

const skill = `---
name: plan-with-cairn
description: Break a piece of work into a plan of tasks with dependencies, and keep focus on one.
expertise: [planning, task breakdown, dependencies]
---
1. Read what memory recalls about the work (memory_search).
2. Write each step as a task (create_task), with the dependencies between them.
3. Start the first ready step (get_next_task, then switch_focus).
4. Note progress in the task (update_current_task); finish it with complete_current_task.
`

const featureWorkflow = `---
name: feature
description: From a request to a merged change.
triggers: [feature, new, add, implement]
---
1. Classify the request (classify_task) and plan it (the plan_task prompt).
2. Work one task at a time; record the decisions made on the way.
3. Review before committing (the review_before_commit prompt).
4. Hand off or close the session with a summary (the handoff prompt).
`

const bugfixWorkflow = `---
name: bugfix
description: From a failure to a fix that stays fixed.
triggers: [bug, fix, error, failure, regression]
---
1. Look for the failure in memory first (diagnose_error).
2. Reproduce it with a test before changing code.
3. Fix the root cause, not the symptom; the test now passes.
4. Record the mistake (memory_add_mistake): root cause, fix, prevention.
`

const reviewerAgent = `---
name: reviewer
description: Reads a change before it is committed, against the project's conventions and known mistakes.
expertise: [code review, conventions, testing]
---
Read the diff with the task it serves. Check it against the conventions and
mistakes in memory (memory_search type convention, mistake). Say what must
change and why, most important first; approve only what you would maintain.
`

const decisionTemplate = `---
name: decision-record
description: A short record of an architectural decision.
---
# Decision: <title>

Context: what forced a choice.
Decision: what was chosen.
Alternatives: what else was weighed, and why not.
Consequences: what this makes easier, and harder.

(Record it in memory too: memory_add_decision.)
`
