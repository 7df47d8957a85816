package clblas

import (
	"slices"
	"testing"
)

// TestKeepJoining: CPU devices leave a split that has a discrete device;
// devices of one kind all stay.
func TestKeepJoining(t *testing.T) {
	gpu, igpu, cpu := memberKind{discrete: true}, memberKind{}, memberKind{cpu: true}
	for _, c := range []struct {
		name  string
		kinds []memberKind
		want  []int
	}{
		{"gpu and cpu", []memberKind{gpu, cpu}, []int{0}},
		{"cpu first", []memberKind{cpu, gpu, gpu}, []int{1, 2}},
		{"two cpus", []memberKind{cpu, cpu}, []int{0, 1}},
		{"integrated gpu and cpu", []memberKind{igpu, cpu}, []int{0, 1}},
		{"two gpus", []memberKind{gpu, gpu}, []int{0, 1}},
		{"cpus staged (zero copy off)", []memberKind{{cpu: true, discrete: true}, {cpu: true, discrete: true}}, []int{0, 1}},
	} {
		idx := make([]int, len(c.kinds))
		for i := range idx {
			idx[i] = i
		}
		if got := keepJoining(idx, c.kinds); !slices.Equal(got, c.want) {
			t.Errorf("%s: kept %v, want %v", c.name, got, c.want)
		}
	}
}
