package main

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"time"
)

var slug = regexp.MustCompile(`^[a-z0-9-]+$`)

func products(w http.ResponseWriter, r *http.Request) {
	if !slug.MatchString(r.URL.Query().Get("slug")) {
		http.Error(w, "bad slug", http.StatusBadRequest)
		return
	}
	fmt.Fprintln(w, "ok")
}

// filter compiles patterns the user gave: one per pattern, at run time.
func filter(patterns []string, lines []string) int {
	n := 0
	for _, p := range patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			continue
		}
		for _, l := range lines {
			if re.MatchString(l) {
				n++
			}
		}
	}
	return n
}

func sizes(paths []string) (int64, error) {
	var total int64
	for _, p := range paths {
		err := func() error {
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			fi, err := f.Stat()
			if err != nil {
				return err
			}
			total += fi.Size()
			return nil
		}()
		if err != nil {
			return 0, err
		}
	}
	return total, nil
}

func join(words []string) string {
	var b strings.Builder
	count := 0
	for _, w := range words {
		b.WriteString(w)
		count += len(w)
	}
	return b.String()
}

func drain(ch <-chan string) {
	t := time.NewTimer(time.Minute)
	defer t.Stop()
	for {
		select {
		case m := <-ch:
			fmt.Println(m)
			t.Reset(time.Minute)
		case <-t.C:
			return
		}
	}
}

func main() {
	http.HandleFunc("/products", products)
	_ = http.ListenAndServe("127.0.0.1:8080", nil)
}
