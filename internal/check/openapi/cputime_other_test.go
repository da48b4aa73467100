//go:build !unix

package openapi

import "time"

func cpuTime() time.Duration { return 0 }
