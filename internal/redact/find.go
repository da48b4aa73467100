package redact

import "slices"

// Secret is one secret FindSecrets found: its kind and its byte span in the
// text, the secret alone (without the "password=" that told it apart).
type Secret struct {
	Kind       Kind
	Start, End int
}

// FindSecrets returns the secrets Redact's rules would remove from s, in
// order of position, for a scanner that reports where they are rather than
// removing them. Private spans are not secrets and are not reported; the
// provider shapes Redact also removes are FindShapes'. The rules run in
// Redact's order and a span an earlier rule claimed is not claimed again,
// so a GitHub token after "token=" is a github_token, not a credential.
// The rules of the kinds in skip are not run: a scanner that judges those
// kinds itself (credential assignments, at a higher bar than a memory entry
// is redacted at) skips them.
func FindSecrets(s string, skip ...Kind) []Secret {
	lower := asciiLower(s)
	var claimed []Secret // disjoint, by position
	var found []Secret
	for i := range secretRules {
		rule := &secretRules[i]
		if slices.Contains(skip, rule.kind) {
			continue
		}
		found = found[:0]
		rule.spans(s, lower, func(start, end int) {
			found = append(found, Secret{Kind: rule.kind, Start: start, End: end})
		})
		if len(found) > 0 {
			claimed = mergeDisjoint(claimed, found)
		}
	}
	return claimed
}

// mergeDisjoint adds to claimed (disjoint, sorted) each span of add (sorted,
// disjoint) that overlaps none of claimed, in one pass over both.
func mergeDisjoint(claimed, add []Secret) []Secret {
	out := make([]Secret, 0, len(claimed)+len(add))
	i := 0
	for _, a := range add {
		for i < len(claimed) && claimed[i].End <= a.Start {
			out = append(out, claimed[i])
			i++
		}
		// claimed[i] is the first that ends after a starts; out's last ends at or before a.Start.
		if i < len(claimed) && claimed[i].Start < a.End {
			continue
		}
		out = append(out, a)
	}
	return append(out, claimed[i:]...)
}
