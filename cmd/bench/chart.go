package main

import (
	"fmt"
	"image/color"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// chart draws GFLOP/s against n for the square NN rows, one line per
// implementation and precision, and saves it as a PNG.
func chart(rows []row, path, device string) error {
	p := plot.New()
	p.Title.Text = "GEMM on " + device
	p.X.Label.Text = "n (m = n = k)"
	p.Y.Label.Text = "GFLOP/s"
	p.Add(plotter.NewGrid())

	type series struct {
		name string
		get  func(row) float64
	}
	all := []series{
		{"ours, resident", func(r row) float64 { return r.resident }},
		{"CLBlast, resident", func(r row) float64 { return r.clblast }},
		{"ours, from Go slices", func(r row) float64 { return r.slices }},
		{"gonum (Go)", func(r row) float64 { return r.gn }},
	}
	colors := []color.Color{
		color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 255}, color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 255},
		color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 255}, color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 255},
	}
	for si, s := range all {
		for _, prec := range []int{32, 64} {
			var pts plotter.XYs
			for _, r := range rows {
				if r.prec != prec || r.trans != "NN" || r.shape.m != r.shape.n || r.shape.n != r.shape.k {
					continue
				}
				if v := s.get(r); v > 0 {
					pts = append(pts, plotter.XY{X: float64(r.shape.n), Y: v})
				}
			}
			if len(pts) == 0 {
				continue
			}
			l, sc, err := plotter.NewLinePoints(pts)
			if err != nil {
				return err
			}
			l.Color, sc.Color = colors[si], colors[si]
			if prec == 64 {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
				sc.Shape = draw.TriangleGlyph{}
			}
			p.Add(l, sc)
			p.Legend.Add(fmt.Sprintf("%s, fp%d", s.name, prec), l, sc)
		}
	}
	p.X.Scale = plot.LogScale{}
	// A tick at every size measured: LogTicks labels only powers of ten.
	var ticks []plot.Tick
	seen := map[int]bool{}
	for _, r := range rows {
		if n := r.shape.n; r.shape.m == n && n == r.shape.k && !seen[n] {
			seen[n] = true
			ticks = append(ticks, plot.Tick{Value: float64(n), Label: fmt.Sprint(n)})
		}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	return saveBesideLegend(p, 10*vg.Inch, 5*vg.Inch, path)
}

// saveBesideLegend saves p as a PNG with its legend in a column of its own
// to the right of the axes, where it cannot cover a line: inside the axes
// it hid the points of whichever series ran through its corner.
func saveBesideLegend(p *plot.Plot, w, h vg.Length, path string) error {
	img := vgimg.New(w, h)
	dc := draw.New(img)
	legend := p.Legend
	legend.Top, legend.Left = true, true
	r := legend.Rectangle(dc)
	lw := r.Max.X - r.Min.X + vg.Points(12)
	p.Legend = plot.NewLegend() // empty: the axes are drawn without it
	p.Draw(draw.Crop(dc, 0, -lw, 0, 0))
	p.Legend = legend
	legend.Draw(draw.Crop(dc, w-lw+vg.Points(6), 0, 0, -vg.Points(24)))
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
