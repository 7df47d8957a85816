package platform

import (
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// PCIAddress is a device's place on the PCI bus, as Linux names it under
// /sys/bus/pci/devices ("0000:3b:00.0").
type PCIAddress struct {
	Domain, Bus, Device, Function int
}

// String is "DDDD:BB:DD.F" in hexadecimal.
func (a PCIAddress) String() string {
	return fmt.Sprintf("%04x:%02x:%02x.%x", a.Domain, a.Bus, a.Device, a.Function)
}

// Topology is where a device sits in the host: its PCI address where the
// driver reports one (cl_khr_pci_bus_info, NVIDIA's or AMD's own queries),
// and the NUMA node of that PCI device where the operating system says
// (Linux: /sys/bus/pci/devices/ADDRESS/numa_node).
type Topology struct {
	PCI    PCIAddress
	HasPCI bool
	// NUMANode is the host NUMA node the device is attached to, or -1
	// when unknown (no PCI address, not Linux, or a single-node host).
	NUMANode int
}

// String is "pci DDDD:BB:DD.F, NUMA node N", or what of it is known.
func (t Topology) String() string {
	if !t.HasPCI {
		return "PCI address not reported"
	}
	if t.NUMANode < 0 {
		return fmt.Sprintf("pci %s, NUMA node unknown", t.PCI)
	}
	return fmt.Sprintf("pci %s, NUMA node %d", t.PCI, t.NUMANode)
}

// OpenCL queries for a device's PCI address.
const (
	clDevicePCIBusInfoKHR = 0x410F // cl_khr_pci_bus_info: 4 × cl_uint
	clDevicePCIBusIDNV    = 0x4008 // cl_nv_device_attribute_query
	clDevicePCISlotIDNV   = 0x4009
	clDevicePCIDomainIDNV = 0x400A
	clDeviceTopologyAMD   = 0x4037 // cl_amd_device_attribute_query
)

// Topology returns where the device sits in the host (see Topology).
func (d *Device) Topology() Topology {
	t := Topology{NUMANode: -1}
	t.PCI, t.HasPCI = d.pciAddress()
	if t.HasPCI {
		t.NUMANode = numaNode("/sys/bus/pci/devices", t.PCI)
	}
	return t
}

// pciAddress asks the driver for the device's PCI address, by the
// standard extension first, then the vendors' own queries.
func (d *Device) pciAddress() (PCIAddress, bool) {
	c := d.cl
	if c == nil {
		return PCIAddress{}, false
	}
	u32 := func(b []byte, i int) int { return int(binary.NativeEndian.Uint32(b[4*i:])) }
	if b, err := c.Info(clDevicePCIBusInfoKHR); err == nil && len(b) >= 16 {
		return PCIAddress{u32(b, 0), u32(b, 1), u32(b, 2), u32(b, 3)}, true
	}
	if bus, err := c.Info(clDevicePCIBusIDNV); err == nil && len(bus) >= 4 {
		a := PCIAddress{Bus: u32(bus, 0)}
		if slot, err := c.Info(clDevicePCISlotIDNV); err == nil && len(slot) >= 4 {
			a.Device, a.Function = u32(slot, 0)>>3, u32(slot, 0)&7
		}
		if dom, err := c.Info(clDevicePCIDomainIDNV); err == nil && len(dom) >= 4 {
			a.Domain = u32(dom, 0)
		}
		return a, true
	}
	// AMD: a union whose PCIe form is {cl_uint type = 1; char pad[17];
	// char bus, device, function}.
	if b, err := c.Info(clDeviceTopologyAMD); err == nil && len(b) >= 24 && u32(b, 0) == 1 {
		return PCIAddress{Bus: int(b[21]), Device: int(b[22]), Function: int(b[23])}, true
	}
	return PCIAddress{}, false
}

// numaNode reads the NUMA node of PCI device a under root; -1 when the
// file is missing or says -1 (a host with one node).
func numaNode(root string, a PCIAddress) int {
	b, err := os.ReadFile(root + "/" + a.String() + "/numa_node")
	if err != nil {
		return -1
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || n < 0 {
		return -1
	}
	return n
}
