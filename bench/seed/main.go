// Command seed prepares a Cairn project for benchmarks: a directory with
// .cairn/cairn.db holding a tree of tasks (10,000 by default) and the default
// agent's focus in its middle, or with -plan a plan of tasks with
// dependencies (benchseed.DefaultPlan).
//
//	go run ./bench/seed [-roots 100 -children 9 -grandchildren 10 -body 120] DIR
//	go run ./bench/seed -plan [-tasks 10000] DIR
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/cairn-dev/cairn/internal/testing/benchseed"
)

func main() {
	s := benchseed.Default
	flag.IntVar(&s.Roots, "roots", s.Roots, "root tasks")
	flag.IntVar(&s.Children, "children", s.Children, "children of each root")
	flag.IntVar(&s.Grandchildren, "grandchildren", s.Grandchildren, "children of each child")
	flag.IntVar(&s.BodyLen, "body", s.BodyLen, "bytes of body on every task")
	plan := flag.Bool("plan", false, "seed a plan with dependencies (benchseed.DefaultPlan) instead of a tree")
	p := benchseed.DefaultPlan
	flag.IntVar(&p.Tasks, "tasks", p.Tasks, "with -plan: how many tasks")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: seed [flags] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	start := time.Now()
	if *plan {
		res, err := benchseed.SeedPlan(context.Background(), flag.Arg(0), p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "seed:", err)
			os.Exit(1)
		}
		fmt.Printf("seeded %s: a plan of %d tasks (%d subtasks, %d open), %d dependencies, in %s\n",
			flag.Arg(0), res.Tasks, res.Subtasks, res.Open, res.Deps, time.Since(start).Round(time.Millisecond))
		return
	}
	res, err := benchseed.Seed(context.Background(), flag.Arg(0), s)
	if err != nil {
		fmt.Fprintln(os.Stderr, "seed:", err)
		os.Exit(1)
	}
	fmt.Printf("seeded %s: %d tasks, focus on task %s, in %s\n", flag.Arg(0), res.Tasks, res.Focus, time.Since(start).Round(time.Millisecond))
}
