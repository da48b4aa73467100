package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	dir := flag.String("dir", ".", "module directory")
	asJSON := flag.Bool("json", false, "print the dependencies as a JSON array")
	flag.Parse()
	deps, err := readDeps(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(deps); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
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
