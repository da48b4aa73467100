package sync

import (
	"time"

	"example.com/app/internal/retry"
)

func wait(attempt int) { time.Sleep(retry.Backoff(attempt, time.Second, time.Minute)) }
