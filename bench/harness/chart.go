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
	var keys []CellKey
	for _, m := range cfg.Modes {
		for _, w := range cfg.Workloads {
			groups = append(groups, fmt.Sprintf("%s\n%s", m, w))
			keys = append(keys, CellKey{Mode: m, Workload: w, Conc: c})
		}
	}
	var names []string
	for _, t := range cfg.Targets {
		names = append(names, t.Name)
	}
	return barChart(path, fmt.Sprintf("Server CPU time per request, c=%d (lower is better)", c), "µs of CPU per request", groups, names,
		func(series, group int) float64 {
			k := keys[group]
			k.Target = names[series]
			sum, _ := s.Summarize(k)
			return float64(sum.CPUPerReq.Nanoseconds()) / 1000
		})
}

// ClientChart draws each client's CPU per call, one group of bars per mode
// and workload of the client benchmark.
func ClientChart(r *ClientResult, path string) error {
	cfg := r.Config
	var groups []string
	var keys []ClientKey
	for _, m := range cfg.Modes {
		for _, w := range cfg.Workloads {
			groups = append(groups, fmt.Sprintf("%s\n%s", m.Name, w))
			keys = append(keys, ClientKey{Mode: m.Name, Workload: w})
		}
	}
	return barChart(path, "Client CPU time per call, one call at a time, against peer-raw (lower is better)", "µs of CPU per call", groups, cfg.Clients,
		func(series, group int) float64 {
			k := keys[group]
			k.Client = cfg.Clients[series]
			s, _ := r.Summarize(k)
			return float64(s.CPU.Nanoseconds()) / 1000
		})
}

// barChart draws one bar per series in each group, of height value(series,
// group), and saves the chart as a PNG at path.
func barChart(path, title, ylabel string, groups, series []string, value func(series, group int) float64) error {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = ylabel
	p.Legend.Top = true
	p.Legend.Left = true
	width := vg.Points(11)
	n := len(series)
	for i, name := range series {
		vals := make(plotter.Values, len(groups))
		for g := range groups {
			vals[g] = value(i, g)
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return err
		}
		bars.LineStyle.Width = 0
		bars.Color = chartColors[i%len(chartColors)]
		bars.Offset = vg.Length(float64(i)-float64(n-1)/2) * width
		p.Add(bars)
		p.Legend.Add(name, bars)
	}
	p.NominalX(groups...)
	return p.Save(vg.Length(len(groups))*vg.Points(70)+vg.Points(80), 5*vg.Inch, path)
}

// chartColors are the bars' colours, one per target or client in order.
var chartColors = []color.Color{
	color.RGBA{0x1f, 0x77, 0xb4, 0xff}, color.RGBA{0x7f, 0x7f, 0x7f, 0xff},
	color.RGBA{0xff, 0x7f, 0x0e, 0xff}, color.RGBA{0x2c, 0xa0, 0x2c, 0xff},
}
