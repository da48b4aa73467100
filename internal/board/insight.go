package board

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/service/insight"
)

// Chart geometry, in SVG user units: a label column, then bars.
const (
	chartLabelW = 180
	chartBarW   = 300
	chartRowH   = 24
)

// barRow is one bar of a chart: its label, its value as text, and its
// geometry (Y its top; W its length; Lo and Hi an interval's ends, when
// HasCI).
type barRow struct {
	Label, Value string
	Y, W, Lo, Hi float64
	HasCI        bool
	Bad          bool
}

// chart is a horizontal bar chart.
type chart struct {
	Title string
	Rows  []barRow
	H     int
}

func newChart(title string) *chart { return &chart{Title: title} }

// add appends a bar of share (0 to 1) of the bar width.
func (c *chart) add(label, value string, share float64) *barRow {
	share = max(0, min(1, share))
	c.Rows = append(c.Rows, barRow{Label: label, Value: value, Y: float64(len(c.Rows) * chartRowH), W: share * chartBarW})
	c.H = len(c.Rows)*chartRowH + 4
	return &c.Rows[len(c.Rows)-1]
}

// componentRow is a health component as the page lists it.
type componentRow struct {
	Name, Score, Trend, Detail string
	Weight                     float64
	HasData                    bool
}

// insightData is the Insight page.
type insightData struct {
	Days       int
	Score      int
	ScoreW     float64
	Components []componentRow
	Bottleneck string
	// Daily is the tests-passing line: polyline points, and the days
	// with data.
	Daily      string
	DailyDays  int
	DailyFirst string
	DailyLast  string
	Charts     []*chart
	Sessions   int
	Calls      int
}

// insightPage shows what the insight tools measure: health and its
// components, tests passing day by day, the models side by side, tool
// usage and lifecycle phase times, as server-rendered SVG.
func (b *Board) insightPage(w http.ResponseWriter, r *http.Request) {
	set, err := b.services(r)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	days := 30
	if v, err := strconv.Atoi(r.URL.Query().Get("days")); err == nil && v >= 1 && v <= 3650 {
		days = v
	}
	ctx := r.Context()
	h, err := set.Insight.Health(ctx, days)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	perf, err := set.Insight.Performance(ctx, insight.Query{Days: days})
	if err != nil {
		b.fail(w, r, err)
		return
	}
	daily, err := set.Insight.Daily(ctx, days)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	use, err := set.Insight.ToolUsage(ctx, days, "", 10)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	d := insightData{Days: days, Score: h.Score, ScoreW: float64(h.Score) / 100 * chartBarW, Bottleneck: h.Bottleneck, Sessions: perf.Sessions, Calls: use.Calls}
	for _, c := range h.Components {
		row := componentRow{Name: c.Name, Trend: c.Trend, Detail: c.Detail, Weight: c.Weight, HasData: c.HasData, Score: "—"}
		if c.HasData {
			row.Score = fmt.Sprintf("%.0f", 100*c.Score)
		}
		d.Components = append(d.Components, row)
	}
	d.Daily, d.DailyDays = dailyLine(daily)
	if len(daily) > 0 {
		d.DailyFirst, d.DailyLast = daily[0].Day.Format("Jan 2"), daily[len(daily)-1].Day.Format("Jan 2")
	}
	if len(perf.Groups) > 0 {
		c := newChart("Tests passing at session end, by model (95% interval)")
		for _, g := range perf.Groups {
			if g.TestPass.N == 0 {
				c.add(g.Key, "no test runs", 0)
				continue
			}
			row := c.add(g.Key, fmt.Sprintf("%.0f%% of %d", 100*g.TestPass.P, g.TestPass.N), g.TestPass.P)
			row.HasCI, row.Lo, row.Hi = true, g.TestPass.Lo*chartBarW, g.TestPass.Hi*chartBarW
		}
		d.Charts = append(d.Charts, c)
	}
	if len(use.Tools) > 0 {
		c := newChart("Tool calls (errors in red)")
		most := float64(use.Tools[0].Calls)
		for _, t := range use.Tools {
			row := c.add(t.Tool, fmt.Sprintf("%d calls, %.0f%% errors, p50 %s", t.Calls, 100*t.Errors.P, t.P50.Round(10_000)), float64(t.Calls)/most)
			row.Bad = t.Errors.P > 0.1
		}
		d.Charts = append(d.Charts, c)
	}
	for _, comp := range h.Components {
		if len(comp.Phases) == 0 {
			continue
		}
		c := newChart("Median time per lifecycle phase (hours, 95% interval)")
		most := 0.0
		for _, p := range comp.Phases {
			most = max(most, p.Median.Hi)
		}
		for _, p := range comp.Phases {
			row := c.add(p.Phase, fmt.Sprintf("%.3gh of %d", p.Median.Mid, p.Median.N), p.Median.Mid/most)
			row.HasCI, row.Lo, row.Hi = true, p.Median.Lo/most*chartBarW, p.Median.Hi/most*chartBarW
			row.Bad = p.Phase == h.Bottleneck
		}
		d.Charts = append(d.Charts, c)
	}
	b.render(w, r, http.StatusOK, "insight", "Insight", d)
}

// dailyLine draws the daily test pass rates as polyline points in a 600 ×
// 80 box (days without test runs are skipped), and counts the days drawn.
func dailyLine(days []insight.Day) (string, int) {
	var pts []string
	n := 0
	for i, d := range days {
		if d.TestPass.N == 0 {
			continue
		}
		x := 600 * float64(i) / float64(max(1, len(days)-1))
		y := 80 - 80*d.TestPass.P
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
		n++
	}
	return strings.Join(pts, " "), n
}
