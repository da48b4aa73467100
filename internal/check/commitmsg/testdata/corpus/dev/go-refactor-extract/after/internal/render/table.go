package render

import (
	"fmt"
	"strings"
)

// Table renders rows as an aligned text table.
func Table(header []string, rows [][]string) string {
	widths := columnWidths(header, rows)
	var b strings.Builder
	writeRow(&b, widths, header)
	for _, r := range rows {
		writeRow(&b, widths, r)
	}
	return b.String()
}

// columnWidths is the widest cell of each column, header included.
func columnWidths(header []string, rows [][]string) []int {
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = len(h)
	}
	for _, r := range rows {
		for i, c := range r {
			if i < len(widths) && len(c) > widths[i] {
				widths[i] = len(c)
			}
		}
	}
	return widths
}

func writeRow(b *strings.Builder, widths []int, cells []string) {
	for i, c := range cells {
		fmt.Fprintf(b, "%-*s  ", widths[i], c)
	}
	b.WriteString("\n")
}
