package platform

import (
	"testing"

	"github.com/gocompute/opencl/cl"
)

func TestParseParams(t *testing.T) {
	ps, err := parseParams("const float a, __global const float* restrict x, unsigned int n2, __global double *y, float4 v")
	if err != nil {
		t.Fatal(err)
	}
	want := []param{
		{typ: "float", name: "a"},
		{typ: "float", name: "x", pointer: true},
		{typ: "uint", name: "n2"},
		{typ: "double", name: "y", pointer: true},
		{typ: "float4", name: "v"},
	}
	if len(ps) != len(want) {
		t.Fatalf("%d parameters, want %d: %+v", len(ps), len(want), ps)
	}
	for i, w := range want {
		if ps[i].typ != w.typ || ps[i].name != w.name || ps[i].pointer != w.pointer {
			t.Errorf("parameter %d = %+v, want %+v", i, ps[i], w)
		}
	}
	if err := ps[2].accepts(uint32(1)); err != nil {
		t.Errorf("uint takes a uint32: %v", err)
	}
	if err := ps[2].accepts(int32(1)); err == nil {
		t.Error("uint took an int32")
	}
	if err := ps[4].accepts([]byte{1}); err != nil {
		t.Errorf("float4 (not checked here) refused a []byte: %v", err)
	}
	if err := ps[3].accepts((*cl.Array[float32])(nil)); err == nil {
		t.Error("a double pointer took a *cl.Array[float32]")
	}
	if _, err := parseParams("float"); err == nil {
		t.Error("a parameter with no name was accepted")
	}
}
