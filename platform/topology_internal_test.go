package platform

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPCIAddressAndNUMA(t *testing.T) {
	a := PCIAddress{Domain: 0, Bus: 0x3b, Device: 0, Function: 1}
	if got := a.String(); got != "0000:3b:00.1" {
		t.Errorf("String() = %q", got)
	}
	root := t.TempDir()
	for addr, content := range map[string]string{"0000:3b:00.1": "1\n", "0000:5e:00.0": "-1\n", "0000:af:00.0": "x"} {
		dir := filepath.Join(root, addr)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "numa_node"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		a    PCIAddress
		want int
	}{
		{a, 1},
		{PCIAddress{Bus: 0x5e}, -1},
		{PCIAddress{Bus: 0xaf}, -1},
		{PCIAddress{Bus: 0x01}, -1}, // no such device
	} {
		if got := numaNode(root, tc.a); got != tc.want {
			t.Errorf("numaNode(%s) = %d, want %d", tc.a, got, tc.want)
		}
	}
	tp := Topology{PCI: a, HasPCI: true, NUMANode: 1}
	if got := tp.String(); got != "pci 0000:3b:00.1, NUMA node 1" {
		t.Errorf("Topology.String() = %q", got)
	}
	if got := (Topology{NUMANode: -1}).String(); got != "PCI address not reported" {
		t.Errorf("Topology.String() = %q", got)
	}
}
