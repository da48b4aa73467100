//go:build !linux

package mcpserver

// threadCPU is not measured here: the benchmarks report 0 cpu-ns/op.
func threadCPU() int64 { return 0 }
