package setup

import (
	"fmt"
	"strings"
)

// Diff renders a change as a unified diff with three lines of context.
func Diff(c Change) string {
	if !c.Changed() {
		return ""
	}
	from := "a/" + c.Path
	var x []string
	if c.Before == nil {
		from = "/dev/null"
	} else {
		x = lines(string(c.Before))
	}
	y := lines(string(c.After))
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ b/%s\n", from, c.Path)
	if len(x)*len(y) > 4_000_000 {
		fmt.Fprintf(&b, "@@ (%d lines → %d lines; too large to compare line by line) @@\n", len(x), len(y))
		return b.String()
	}
	// lcs[i][j] is the length of the longest common subsequence of x[i:]
	// and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		kind   byte
		text   string
		xi, yi int // line numbers (0-based) before this op
	}
	var ops []op
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, op{' ', x[i], i, j})
			i, j = i+1, j+1
		case j < len(y) && (i == len(x) || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, op{'+', y[j], i, j})
			j++
		default:
			ops = append(ops, op{'-', x[i], i, j})
			i++
		}
	}
	const ctx = 3
	for k := 0; k < len(ops); {
		if ops[k].kind == ' ' {
			k++
			continue
		}
		start := max(0, k-ctx)
		end := k
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run-end > 2*ctx || run == len(ops) {
				end = min(end+ctx, len(ops))
				break
			}
			end = run
		}
		nx, ny := 0, 0
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				nx++
			}
			if o.kind != '-' {
				ny++
			}
		}
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", ops[start].xi+min(1, nx), nx, ops[start].yi+min(1, ny), ny)
		for _, o := range ops[start:end] {
			b.WriteString(string(o.kind) + o.text + "\n")
		}
		k = end
	}
	return b.String()
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
