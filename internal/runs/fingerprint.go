package runs

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"sync"
)

// volatile are the parts of a failure's line that change between two
// runs of the same failure, and what they become.
var volatile = sync.OnceValue(func() []struct {
	re *regexp.Regexp
	to string
} {
	return []struct {
		re *regexp.Regexp
		to string
	}{
		{regexp.MustCompile(`(/private)?/var/folders/[^\s'":,)\]]*|/tmp/[^\s'":,)\]]*|/var/tmp/[^\s'":,)\]]*|(?i)[a-z]:\\Users\\[^\\]+\\AppData\\Local\\Temp\\[^\s'":,)\]]*`), "<tmp>"},
		{regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`), "<uuid>"},
		{regexp.MustCompile(`0x[0-9a-fA-F]+`), "0x?"},
		{regexp.MustCompile(`\b[0-9a-f]{12,}\b`), "<hex>"},
	}
})

// fingerprint identifies a failure by its kind and line with the
// volatile parts taken out, or by its command when it has no line.
func fingerprint(command, kind, line string) string {
	text := kind + "\n" + normalize(line)
	if line == "" {
		text = "command\n" + normalize(strings.Join(strings.Fields(clip(command, maxCommand)), " "))
	}
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:8])
}

// normalize takes out of a line what changes from run to run: temporary
// paths, UUIDs, addresses, hashes, and numbers that do not belong to a
// name (line numbers, durations, PIDs, ports, times).
func normalize(s string) string {
	for _, v := range volatile() {
		s = v.re.ReplaceAllString(s, v.to)
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' || i > 0 && (isWordByte(s[i-1]) && !isDigit(s[i-1])) {
			b.WriteByte(s[i])
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		b.WriteByte('N')
		i = j - 1
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
