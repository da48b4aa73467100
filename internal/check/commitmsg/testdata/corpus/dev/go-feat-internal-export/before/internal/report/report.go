package report

import (
	"fmt"
	"io"
)

// Text writes the totals as text.
func Text(w io.Writer, totals map[string]int) error {
	for k, v := range totals {
		if _, err := fmt.Fprintf(w, "%s\t%d\n", k, v); err != nil {
			return err
		}
	}
	return nil
}
