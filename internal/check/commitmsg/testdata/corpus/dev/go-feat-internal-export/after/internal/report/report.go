package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
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

// CSV writes the totals as CSV with a header row.
func CSV(w io.Writer, totals map[string]int) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"name", "total"}); err != nil {
		return err
	}
	for k, v := range totals {
		if err := cw.Write([]string{k, strconv.Itoa(v)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
