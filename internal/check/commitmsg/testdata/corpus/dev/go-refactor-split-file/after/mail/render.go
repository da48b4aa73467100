package mail

import (
	"fmt"
	"strings"
)

func render(m Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\n", m.From)
	fmt.Fprintf(&b, "To: %s\r\n", strings.Join(m.To, ", "))
	fmt.Fprintf(&b, "Subject: %s\r\n\r\n", encodeHeader(m.Subject))
	b.WriteString(m.Body)
	return b.String()
}

func encodeHeader(s string) string {
	for _, r := range s {
		if r > 127 {
			return "=?UTF-8?Q?" + strings.ReplaceAll(s, " ", "_") + "?="
		}
	}
	return s
}
