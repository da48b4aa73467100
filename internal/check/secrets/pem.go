package secrets

import "strings"

// privateKeyHint is in every private-key PEM label. The scanner finds PEM
// blocks itself (findPEM) and skips Cairn's private-key shape: that
// shape's regexp looks ahead for the END line from every BEGIN, which is
// quadratic on a file of many BEGIN lines without one, where findPEM pairs
// BEGINs with ENDs in one pass.
const privateKeyHint = "PRIVATE KEY"

// findPEM returns the spans of the private-key PEM blocks in s: from a
// BEGIN line naming a private key to its END line or, when the END line is
// missing, through the lines after it that are all base64.
func findPEM(s string) [][2]int {
	if !strings.Contains(s, privateKeyHint) {
		return nil
	}
	var ends []int // the starts of "-----END" markers, in order
	for from := 0; ; {
		i := strings.Index(s[from:], "-----END")
		if i < 0 {
			break
		}
		ends = append(ends, from+i)
		from += i + 8
	}
	var out [][2]int
	e := 0
	for from := 0; from < len(s); {
		i := strings.Index(s[from:], "-----BEGIN")
		if i < 0 {
			break
		}
		start := from + i
		hdrEnd, ok := pemHeader(s, start+len("-----BEGIN"), "-----")
		if !ok {
			from = start + 1
			continue
		}
		for e < len(ends) && ends[e] < hdrEnd {
			e++
		}
		end := -1
		if e < len(ends) {
			// The END belongs to this block unless another BEGIN comes first.
			if next := strings.Index(s[hdrEnd:ends[e]], "-----BEGIN"); next < 0 {
				if fe, ok := pemHeader(s, ends[e]+len("-----END"), "-----"); ok {
					end = fe
				}
			}
		}
		if end < 0 {
			end = base64Lines(s, hdrEnd)
		}
		out = append(out, [2]int{start, end})
		from = max(end, start+1)
	}
	return out
}

// pemHeader reads the rest of a BEGIN or END line from i: a label of
// capitals, digits and spaces naming a private key, and the closing
// dashes; it returns where the line's marker ends.
func pemHeader(s string, i int, closing string) (int, bool) {
	j := i
	for j < len(s) && j-i < 80 && (s[j] == ' ' || 'A' <= s[j] && s[j] <= 'Z' || '0' <= s[j] && s[j] <= '9') {
		j++
	}
	label := s[i:j]
	if !strings.HasSuffix(label, privateKeyHint) && !strings.HasSuffix(label, privateKeyHint+" BLOCK") {
		return 0, false
	}
	if !strings.HasPrefix(s[j:], closing) {
		return 0, false
	}
	return j + len(closing), true
}

// base64Lines returns the end of the run of lines after i (the rest of
// i's line included) that hold only base64.
func base64Lines(s string, i int) int {
	end := i
	for j := i; j < len(s); {
		k := strings.IndexByte(s[j:], '\n')
		line := s[j:]
		if k >= 0 {
			line = s[j : j+k]
		}
		line = strings.TrimRight(line, "\r")
		if j > i && line == "" {
			break
		}
		for c := 0; c < len(line); c++ {
			if !isBase64(line[c]) {
				return end
			}
		}
		end = j + len(line)
		if k < 0 {
			break
		}
		j += k + 1
	}
	return end
}
