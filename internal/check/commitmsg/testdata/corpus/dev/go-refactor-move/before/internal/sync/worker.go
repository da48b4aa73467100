package sync

import (
	"time"

	"example.com/app/internal/util"
)

func wait(attempt int) { time.Sleep(util.Backoff(attempt, time.Second, time.Minute)) }
