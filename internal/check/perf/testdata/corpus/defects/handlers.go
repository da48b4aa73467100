package legacy

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"time"
)

func countDigits(lines []string) int {
	n := 0
	for _, l := range lines {
		if regexp.MustCompile(`^\d+$`).MatchString(l) {
			n++
		}
	}
	return n
}

func search(w http.ResponseWriter, r *http.Request) {
	word := regexp.MustCompile(`[a-z]+`)
	fmt.Fprintln(w, word.FindAllString(r.URL.Query().Get("q"), -1))
}

func readAll(paths []string) error {
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
	}
	return nil
}

func render(words []string) string {
	out := ""
	for _, w := range words {
		out += w + " "
	}
	return out
}

func listen(ch <-chan string) {
	for {
		select {
		case m := <-ch:
			fmt.Println(m)
		case <-time.After(time.Minute):
			return
		}
	}
}
