// Command cairn-load puts a Cairn server under load over Streamable HTTP and
// reports calls/s and latency percentiles per tool at each client count.
//
//	cairn serve --http 127.0.0.1:8080 &
//	cairn-load -url http://127.0.0.1:8080/mcp -clients 1,16,64 -duration 10s
//
// With -inproc it serves a fresh temporary project itself, in this process,
// which is how to take a CPU profile of the server (-cpuprofile).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cairn-dev/cairn/internal/testing/loadgen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "cairn-load:", err)
		os.Exit(1)
	}
}

// report is what -json prints.
type report struct {
	Label   string           `json:"label,omitempty"`
	InProc  bool             `json:"inProcess,omitempty"` // server stats include the generator
	URL     string           `json:"url"`
	Mix     string           `json:"mix"`
	Seeded  int              `json:"seededTasks"`
	Warmup  string           `json:"warmup"`
	Levels  []loadgen.Result `json:"levels"`
	Started time.Time        `json:"started"`
}

func run() error {
	var (
		url        = flag.String("url", "", "the server's MCP endpoint, e.g. http://127.0.0.1:8080/mcp")
		clients    = flag.String("clients", "1,16,64", "client counts to run, one level each, comma-separated")
		duration   = flag.Duration("duration", 10*time.Second, "measured time per level")
		warmup     = flag.Duration("warmup", 2*time.Second, "time per level before measuring")
		mixFlag    = flag.String("mix", loadgen.DefaultMix, "operations and their weights")
		token      = flag.String("token", os.Getenv("CAIRN_TOKEN"), "bearer token (env CAIRN_TOKEN)")
		asJSON     = flag.Bool("json", false, "print the results as JSON instead of a table")
		maxCalls   = flag.Int("calls", 0, "stop each client after this many calls, warmup included (0: run for -duration)")
		seedN      = flag.Int("seed", 1000, "plan tasks to create (with dependencies) before the first level; 0 for none")
		serverPID  = flag.Int("server-pid", 0, "the server's pid, to report its CPU time and memory (Linux)")
		wait       = flag.Duration("wait", 15*time.Second, "how long to wait for the server to answer")
		noSSE      = flag.Bool("no-sse", false, "do not open the standalone SSE stream per session")
		inproc     = flag.Bool("inproc", false, "serve a new temporary project in this process instead of -url")
		cpuprofile = flag.String("cpuprofile", "", "write a CPU profile of the measured levels to this file")
		logLevel   = flag.String("log-level", "warn", "debug, info, warn or error (to stderr)")
		label      = flag.String("label", "", "what is under test, e.g. sqlite or postgres; printed with the results")
	)
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q; every option is a flag (see -help)", flag.Args())
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return fmt.Errorf("-log-level %q: use debug, info, warn or error", *logLevel)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	counts, err := parseClients(*clients)
	if err != nil {
		return err
	}
	mix, err := loadgen.ParseMix(*mixFlag)
	if err != nil {
		return err
	}
	if *duration <= 0 || *warmup < 0 {
		return fmt.Errorf("-duration %v, -warmup %v: the duration must be positive and the warmup not negative", *duration, *warmup)
	}
	if *maxCalls < 0 {
		return fmt.Errorf("-calls %d: use 0 (no limit) or more", *maxCalls)
	}
	if *seedN < 0 {
		return fmt.Errorf("-seed %d: use 0 or more tasks", *seedN)
	}
	if (*url == "") == !*inproc {
		return errors.New("give either -url (the server's MCP endpoint, e.g. http://127.0.0.1:8080/mcp) or -inproc")
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if *inproc {
		dir, err := os.MkdirTemp("", "cairn-load-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		os.Unsetenv("CAIRN_PROJECT_ROOT")
		// The SDK logs every session at info; the server's own logs stay at warn.
		slog := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: max(level, slog.LevelWarn)}))
		srv, err := loadgen.ServeInProcess(ctx, dir, *token, slog)
		if err != nil {
			return err
		}
		defer srv.Close()
		*url = srv.URL
		*serverPID = os.Getpid()
		log.Info("serving in process", "url", srv.URL, "project", dir)
	}

	tr := loadgen.NewTransport()
	defer tr.CloseIdleConnections()
	target := loadgen.Target{URL: *url, Token: *token, HTTP: tr, NoSSE: *noSSE}
	wctx, cancel := context.WithTimeout(ctx, *wait)
	err = target.WaitReady(wctx, 100*time.Millisecond)
	cancel()
	if err != nil {
		return fmt.Errorf("%s: %w", *url, err)
	}

	rep := report{Label: *label, InProc: *inproc, URL: *url, Mix: mix.String(), Seeded: *seedN, Warmup: warmup.String(), Started: time.Now().UTC()}
	plan := &loadgen.Plan{}
	if *seedN > 0 {
		t0 := time.Now()
		if plan, err = loadgen.Seed(ctx, target, *seedN, 1); err != nil {
			return err
		}
		log.Info("seeded the plan", "tasks", len(plan.All), "took", time.Since(t0).Round(time.Millisecond))
	}

	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	runID := strconv.FormatInt(time.Now().Unix()%100000, 10)
	for _, n := range counts {
		log.Info("level", "clients", n)
		res, err := loadgen.Run(ctx, loadgen.Config{Target: target, Clients: n, Warmup: *warmup, Duration: *duration,
			Mix: mix, Plan: plan, RunID: runID, Seed: uint64(n), ServerPID: *serverPID, Log: log, MaxCalls: *maxCalls})
		if err != nil {
			return fmt.Errorf("%d clients: %w", n, err)
		}
		rep.Levels = append(rep.Levels, res)
	}

	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return err
		}
	} else {
		if *label != "" {
			fmt.Printf("[%s] ", *label)
		}
		fmt.Printf("%s  mix %s  seeded %d  warmup %s  duration %s\n", *url, rep.Mix, rep.Seeded, *warmup, *duration)
		if *inproc {
			fmt.Println("in-process: the server columns are this whole process, generator included")
		}
		if err := loadgen.WriteTable(os.Stdout, rep.Levels); err != nil {
			return err
		}
	}
	for _, r := range rep.Levels {
		if r.Overall.Errors > 0 {
			return fmt.Errorf("%d of %d calls failed at %d clients", r.Overall.Errors, r.Overall.Calls, r.Clients)
		}
	}
	return nil
}

func parseClients(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-clients %q: %q is not a client count; use whole numbers 1 or more, e.g. 1,16,64", s, f)
		}
		out = append(out, n)
	}
	return out, nil
}
