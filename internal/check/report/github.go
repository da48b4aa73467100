package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

// GitHub writes findings as GitHub Actions workflow commands, one line
// each: "::error file=F,line=L,endLine=E,col=C,endColumn=D,title=T::M".
// Info findings are notices. The runner turns them into annotations on
// the pull request's files.
func GitHub(w io.Writer, findings []check.Finding) error {
	for _, f := range findings {
		cmd := "notice"
		switch f.Severity {
		case check.Error:
			cmd = "error"
		case check.Warning:
			cmd = "warning"
		}
		var props []string
		add := func(k, v string) { props = append(props, k+"="+escapeProperty(v)) }
		if f.File != "" {
			add("file", f.File)
			if f.Line > 0 {
				add("line", strconv.Itoa(f.Line))
				if f.EndLine >= f.Line {
					add("endLine", strconv.Itoa(f.EndLine))
				}
				if f.Col > 0 {
					add("col", strconv.Itoa(f.Col))
					if f.EndCol > 0 && f.EndLine == f.Line {
						add("endColumn", strconv.Itoa(f.EndCol))
					}
				}
			}
		}
		add("title", f.Rule)
		msg := f.Message
		if f.Fix != "" {
			msg += "\nFix: " + f.Fix
		}
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", cmd, strings.Join(props, ","), escapeData(msg)); err != nil {
			return err
		}
	}
	return nil
}

// escapeData escapes a command's message as the toolkit does.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a property value: data's escapes plus : and ,.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
