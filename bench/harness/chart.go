package harness

import (
	"fmt"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Chart draws the server CPU per request of every target at the highest
// concurrency, one group of bars per mode and workload.
func Chart(s *SuiteResult, path string) error {
	cfg := s.Config
	c := slices.Max(cfg.Concurrency)
	var groups []string
	for _, m := range cfg.Modes {
		for _, w := range cfg.Workloads {
			groups = append(groups, fmt.Sprintf("%s\n%s", m, w))
		}
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Server CPU time per request, c=%d (lower is better)", c)
	p.Y.Label.Text = "µs of CPU per request"
	p.Legend.Top = true
	p.Legend.Left = true
	width := vg.Points(11)
	n := len(cfg.Targets)
	for i, t := range cfg.Targets {
		var vals plotter.Values
		for _, m := range cfg.Modes {
			for _, w := range cfg.Workloads {
				sum, _ := s.Summarize(CellKey{t.Name, m, w, c})
				vals = append(vals, float64(sum.CPUPerReq.Nanoseconds())/1000)
			}
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return err
		}
		bars.LineStyle.Width = 0
		bars.Color = chartColors[i%len(chartColors)]
		bars.Offset = vg.Length(float64(i)-float64(n-1)/2) * width
		p.Add(bars)
		p.Legend.Add(t.Name, bars)
	}
	p.NominalX(groups...)
	return p.Save(vg.Length(len(groups))*vg.Points(70)+vg.Points(80), 5*vg.Inch, path)
}

// ClientChart draws each client's CPU per call, one group of bars per mode
// and workload of the client benchmark.
func ClientChart(r *ClientResult, path string) error {
	cfg := r.Config
	var groups []string
	for _, m := range cfg.Modes {
		for _, w := range cfg.Workloads {
			groups = append(groups, fmt.Sprintf("%s\n%s", m.Name, w))
		}
	}
	p := plot.New()
	p.Title.Text = "Client CPU time per call, one call at a time, against peer-raw (lower is better)"
	p.Y.Label.Text = "µs of CPU per call"
	p.Legend.Top = true
	p.Legend.Left = true
	width := vg.Points(11)
	n := len(cfg.Clients)
	for i, c := range cfg.Clients {
		var vals plotter.Values
		for _, m := range cfg.Modes {
			for _, w := range cfg.Workloads {
				s, _ := r.Summarize(ClientKey{c, m.Name, w})
				vals = append(vals, float64(s.CPU.Nanoseconds())/1000)
			}
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return err
		}
		bars.LineStyle.Width = 0
		bars.Color = chartColors[i%len(chartColors)]
		bars.Offset = vg.Length(float64(i)-float64(n-1)/2) * width
		p.Add(bars)
		p.Legend.Add(c, bars)
	}
	p.NominalX(groups...)
	return p.Save(vg.Length(len(groups))*vg.Points(70)+vg.Points(80), 5*vg.Inch, path)
}

// chartColors are the bars' colours, one per target or client in order.
var chartColors = []color.Color{
	color.RGBA{0x1f, 0x77, 0xb4, 0xff}, color.RGBA{0x7f, 0x7f, 0x7f, 0xff},
	color.RGBA{0xff, 0x7f, 0x0e, 0xff}, color.RGBA{0x2c, 0xa0, 0x2c, 0xff},
}
