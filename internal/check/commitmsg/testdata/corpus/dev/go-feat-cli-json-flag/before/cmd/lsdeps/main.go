package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	dir := flag.String("dir", ".", "module directory")
	flag.Parse()
	deps, err := readDeps(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, d := range deps {
		fmt.Println(d)
	}
}

func readDeps(dir string) ([]string, error) {
	b, err := os.ReadFile(dir + "/go.mod")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 2 && strings.Contains(f[0], ".") {
			out = append(out, f[0]+"@"+f[1])
		}
	}
	return out, nil
}
