package words

import (
	"fmt"
	"time"
)

// Duration words an elapsed time the one way Cairn shows it everywhere:
// "48s" under a minute, "12m" under an hour, "1h05m" under a day, "2d03h"
// beyond. It rounds to the nearest unit it shows, so 59.6 s is "1m" and
// 1 h 59 m 40 s is "2h"; a negative duration is "0s".
func Duration(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	if s := d.Round(time.Second); s < time.Minute {
		return fmt.Sprintf("%ds", s/time.Second)
	}
	if m := d.Round(time.Minute); m < time.Hour {
		return fmt.Sprintf("%dm", m/time.Minute)
	}
	if m := d.Round(time.Minute); m < 24*time.Hour {
		h, rest := m/time.Hour, (m%time.Hour)/time.Minute
		if rest == 0 {
			return fmt.Sprintf("%dh", h)
		}
		return fmt.Sprintf("%dh%02dm", h, rest)
	}
	h := d.Round(time.Hour)
	days, rest := h/(24*time.Hour), (h%(24*time.Hour))/time.Hour
	if rest == 0 {
		return fmt.Sprintf("%dd", days)
	}
	return fmt.Sprintf("%dd%02dh", days, rest)
}
