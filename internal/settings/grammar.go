package settings

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Word is v as the grammar compares it: surrounding space removed, lower
// case.
func Word(v string) string { return strings.ToLower(strings.TrimSpace(v)) }

// parseError is what a parser returns for a value it does not accept; the
// setting's Check turns it into an *Error.
type parseError struct {
	value  string
	want   string
	detail error
}

func (e *parseError) Error() string {
	msg := fmt.Sprintf("invalid value %q (want %s)", e.value, e.want)
	if e.detail != nil {
		msg += ": " + e.detail.Error()
	}
	return msg
}

// choose returns the canonical word that v (by the grammar) stands for in
// words, a map from every accepted spelling to its canonical word. The
// empty value is def.
func choose(v, def string, words map[string]string, want string) (string, error) {
	w := Word(v)
	if w == "" {
		return def, nil
	}
	if c, ok := words[w]; ok {
		return c, nil
	}
	return "", &parseError{value: v, want: want}
}

// ParseOffload parses a GOCL_OFFLOAD value: "auto" (the default),
// "always" or "never".
func ParseOffload(v string) (string, error) {
	return choose(v, "auto", map[string]string{"auto": "auto", "always": "always", "never": "never"}, "auto, always or never")
}

// ParseComplexGemm parses a GOCL_COMPLEX_GEMM value: "auto" (the
// default), "4m" or "3m".
func ParseComplexGemm(v string) (string, error) {
	return choose(v, "auto", map[string]string{"auto": "auto", "4m": "4m", "3m": "3m"}, "auto, 4m or 3m")
}

// ParseL2Share parses a GOCL_L2_SHARE value: "auto" (the default) or
// "off".
func ParseL2Share(v string) (string, error) {
	return choose(v, "auto", map[string]string{"auto": "auto", "off": "off"}, "auto or off")
}

// ParseTensor parses a GOCL_TENSOR value: "auto" (the default), "off",
// or "tf32x3" ("on" is tf32x3).
func ParseTensor(v string) (string, error) {
	return choose(v, "auto", map[string]string{"auto": "auto", "off": "off", "on": "tf32x3", "tf32x3": "tf32x3"}, "auto, off, on or tf32x3")
}

// The words of a switch (ParseSwitch, ParseBool).
var onWords, offWords = []string{"on", "1", "true"}, []string{"off", "0", "false"}

func switchWords(auto bool) map[string]string {
	m := map[string]string{}
	for _, w := range onWords {
		m[w] = "on"
	}
	for _, w := range offWords {
		m[w] = "off"
	}
	if auto {
		m["auto"] = "auto"
	}
	return m
}

// ParseSwitch parses a three-way switch (GOCL_ZERO_COPY): "auto" (the
// default), "on" (or 1, true) or "off" (or 0, false).
func ParseSwitch(v string) (string, error) {
	return choose(v, "auto", switchWords(true), "auto, on or off")
}

// ParseBool parses a two-way switch (GOCL_REQUIRE_DEVICE): "on" (or 1,
// true) or "off" (or 0, false, the default).
func ParseBool(v string) (bool, error) {
	c, err := choose(v, "off", switchWords(false), "on or off")
	return c == "on", err
}

// Pipeline is a parsed GOCL_GEMM_PIPELINE: how GEMM moves host slices.
type Pipeline struct {
	Off   bool // plain transfers from Go memory ("off")
	Force bool // staged and pipelined on any device, whatever the size ("on")
	Tile  int  // tiles of Tile×Tile elements of C ("tile=N"); 0 chooses
	// Slab is the schedule by full-width row slabs: 0 chooses, -1 never
	// ("slab=off"), N > 0 always, with N k-chunks ("slab=N").
	Slab int
	// Timeline is the file each staged call's command timeline is
	// appended to ("timeline=FILE"); "" for none.
	Timeline string
}

const pipelineWant = "a comma-separated list of auto, on, off, tile=N, slab=off, slab=N, timeline=FILE (N > 0)"

// ParsePipeline parses a GOCL_GEMM_PIPELINE value: a comma-separated list
// of "auto" (the default), "on" (or 1, true, always, force), "off" (or 0,
// false, never), "tile=N", "slab=off", "slab=N" (N > 0) and
// "timeline=FILE" (the file name keeps its case). Empty items are
// ignored.
func ParsePipeline(v string) (Pipeline, error) {
	var p Pipeline
	for _, tok := range strings.Split(v, ",") {
		if err := p.add(strings.TrimSpace(tok)); err != nil {
			return Pipeline{}, &parseError{value: v, want: pipelineWant, detail: err}
		}
	}
	if p.Off && p.Force {
		return Pipeline{}, &parseError{value: v, want: pipelineWant, detail: errors.New("both on and off")}
	}
	return p, nil
}

func (p *Pipeline) add(tok string) error {
	key, val, hasVal := strings.Cut(tok, "=")
	key = Word(key)
	if !hasVal {
		switch key {
		case "", "auto":
		case "off", "0", "false", "never":
			p.Off = true
		case "on", "1", "true", "always", "force":
			p.Force = true
		default:
			return fmt.Errorf("unknown item %q", tok)
		}
		return nil
	}
	switch key {
	case "timeline":
		if strings.TrimSpace(val) == "" {
			return errors.New("timeline needs a file name")
		}
		p.Timeline = val
	case "tile":
		n, err := positive(val)
		if err != nil {
			return fmt.Errorf("tile: %w", err)
		}
		p.Tile = n
	case "slab":
		if Word(val) == "off" {
			p.Slab = -1
			return nil
		}
		n, err := positive(val)
		if err != nil {
			return fmt.Errorf("slab: %w", err)
		}
		p.Slab = n
	default:
		return fmt.Errorf("unknown item %q", tok)
	}
	return nil
}

func positive(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a positive integer", v)
	}
	return n, nil
}
