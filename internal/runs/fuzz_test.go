package runs

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func seedFixtures(f *testing.F, add func(fx fixture)) {
	for _, dir := range []string{"tests", "failures", "formats"} {
		for _, fx := range loadFixtures(f, dir) {
			add(fx)
		}
	}
}

func FuzzTest(f *testing.F) {
	seedFixtures(f, func(fx fixture) { f.Add(fx.command) })
	f.Add("bash -c 'bash -c \"bash -c \\\"go test\\\"\"'")
	f.Fuzz(func(t *testing.T, command string) {
		defer inTime(command)()
		r, ok := Test(command)
		if ok != (r != "") {
			t.Fatalf("Test(%q) = %q, %v", command, r, ok)
		}
	})
}

func FuzzParseTest(f *testing.F) {
	seedFixtures(f, func(fx fixture) { f.Add(fx.hookOutput(), fx.exit == 0) })
	f.Fuzz(func(t *testing.T, output string, exitOK bool) {
		defer inTime(output)()
		for _, r := range append([]Runner{Make, Other}, runnersOf()...) {
			checkResult(t, ParseTest(r, output, exitOK), exitOK)
		}
	})
}

func FuzzFailure(f *testing.F) {
	seedFixtures(f, func(fx fixture) { f.Add(fx.command, fx.hookOutput()) })
	f.Fuzz(func(t *testing.T, command, output string) {
		defer inTime(command + "\n" + output)()
		got := Failure(command, output)
		checkFailed(t, "fuzz", got)
		if again := Failure(command, output); again.Fingerprint != got.Fingerprint {
			t.Fatalf("fingerprint is not stable")
		}
	})
}

// inTime panics, naming the input, when a call takes more than two
// seconds: a fuzzer would otherwise only stall on it. Call the function
// it returns when the call is done.
func inTime(input string) func() {
	done := make(chan bool)
	go func() {
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			panic(fmt.Sprintf("slow on %q", clip(input, 300)))
		}
	}()
	return func() { close(done) }
}

func runnersOf() []Runner {
	var out []Runner
	for _, x := range readers {
		out = append(out, x.runner)
	}
	return out
}

// checkResult checks what holds for every test result.
func checkResult(t *testing.T, r TestResult, exitOK bool) {
	t.Helper()
	if r.Passed < 0 || r.Failed < 0 || r.Skipped < 0 || r.Errors < 0 {
		t.Fatalf("negative count: %+v", r)
	}
	if len(r.Summary) > maxShown || len(r.Failing) > maxFailing {
		t.Fatalf("unbounded: %+v", r)
	}
	for _, n := range r.Failing {
		if len(n) > maxShown {
			t.Fatalf("failing name of %d bytes", len(n))
		}
	}
	if !exitOK && r.Outcome == TestsPassed {
		t.Fatalf("a failed exit read as passed: %+v", r)
	}
	switch r.Outcome {
	case TestsPassed, TestsFailed, NoTests:
	default:
		t.Fatalf("outcome %q", r.Outcome)
	}
}

// hostileOutputs are megabytes of output shaped to defeat a reader.
func hostileOutputs() []string {
	return []string{
		strings.Repeat("x", 8<<20),
		strings.Repeat("\x1b[", 4<<20),
		strings.Repeat("Traceback (most recent call last):\n", 200_000),
		strings.Repeat("--- FAIL: TestX (0.00s)\n", 200_000),
		strings.Repeat("test result: ok. 1 passed; 0 failed;\n", 200_000),
		strings.Repeat("\r", 4<<20) + "ok  \tx\t0.1s",
		strings.Repeat("{\"Time\":\"x\",\"Action\":\"output\",\"Output\":\"--- PASS: T (0s)\\n\"}\n", 100_000),
		strings.Repeat("a: ", 3<<20),
	}
}

// hostileCommands are long, deeply nested command lines.
func hostileCommands() []string {
	return []string{
		strings.Repeat("(", 1<<20) + "go test" + strings.Repeat(")", 1<<20),
		strings.Repeat("$(", 1<<20),
		strings.Repeat("echo x && ", 1<<18) + "go test ./...",
		strings.Repeat("bash -c '", 1<<16),
		strings.Repeat("\"", 1<<20),
		strings.Repeat("timeout 1 ", 1<<16) + "go test",
	}
}

// TestHostileInput checks that megabytes of output and long, deeply
// nested commands are read without a panic into a well-formed result.
// How long they take is BenchmarkHostileInput's to say: a wall-clock
// bound here fails on a loaded machine and proves nothing on an idle one.
func TestHostileInput(t *testing.T) {
	for _, out := range hostileOutputs() {
		for _, r := range append([]Runner{Make}, runnersOf()...) {
			checkResult(t, ParseTest(r, out, false), false)
		}
		checkFailed(t, "huge", Failure("cmd", out))
	}
	for _, c := range hostileCommands() {
		Test(c)
		if f := Failure(c, ""); f.Fingerprint == "" {
			t.Errorf("command of %d bytes: no fingerprint", len(c))
		}
	}
}

// BenchmarkHostileInput reads each hostile output (about 40 MB in all)
// with every runner, and each hostile command line.
func BenchmarkHostileInput(b *testing.B) {
	outs, cmds := hostileOutputs(), hostileCommands()
	rs := append([]Runner{Make}, runnersOf()...)
	b.ReportAllocs()
	for b.Loop() {
		for _, out := range outs {
			for _, r := range rs {
				ParseTest(r, out, false)
			}
			Failure("cmd", out)
		}
		for _, c := range cmds {
			Test(c)
			Failure(c, "")
		}
	}
}
