package semver

// Compare orders two dotted versions numerically.
func Compare(a, b string) int { return 0 }
