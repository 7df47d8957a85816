// Command devices lists every OpenCL platform and device this machine has,
// with what kernel choice reads about each, and says which device
// platform.Default picks and why.
//
//	go run ./examples/devices
//	GOCL_DEVICE=pocl go run ./examples/devices
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/platform"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "devices:", err)
		os.Exit(1)
	}
}

func run() error {
	plats, err := cl.Platforms()
	if errors.Is(err, cl.ErrNoRuntime) {
		return err // it says what to install
	}
	if err != nil {
		return fmt.Errorf("listing OpenCL platforms: %w\n%s", err, installHint)
	}
	devs, err := platform.Devices()
	if err != nil {
		return err
	}
	fmt.Printf("%d OpenCL platform(s), %d device(s)\n", len(plats), len(devs))
	for pi, p := range plats {
		fmt.Printf("\nplatform %d: %s\n", pi, p.Name())
		fmt.Printf("  vendor   %s\n", p.Vendor())
		fmt.Printf("  version  %s\n", p.Version())
		n := 0
		for _, d := range devs {
			if strings.HasPrefix(d.Index(), fmt.Sprintf("%d:", pi)) {
				printDevice(d)
				n++
			}
		}
		if n == 0 {
			fmt.Println("  (no devices)")
		}
	}
	if len(devs) == 0 {
		return fmt.Errorf("no OpenCL device found\n%s", installHint)
	}

	fmt.Println()
	d, err := platform.Default()
	if err != nil {
		return err
	}
	if spec := os.Getenv(platform.EnvDevice); strings.TrimSpace(spec) != "" {
		fmt.Printf("Default() picks %s\n  because %s=%q names it.\n", d, platform.EnvDevice, spec)
	} else {
		p := d.Profile()
		fmt.Printf("Default() picks %s\n  by ranking (%s unset): GPU over accelerator over CPU, then compute units × clock\n  (this one: %s, %d × %d MHz = %d), then a vendor's own driver over PoCL.\n",
			d, platform.EnvDevice, kind(p.Type), p.ComputeUnits, p.ClockMHz, p.ComputeUnits*p.ClockMHz)
	}
	fmt.Printf("  Set %s to P:D, gpu, cpu, a vendor (nvidia, amd, intel, pocl) or part of a name to choose another,\n  or to all, gpu:*, or a comma list (nvidia,pocl) for several at once.\n", platform.EnvDevice)
	printLayout(devs)
	return nil
}

const installHint = "Install an OpenCL driver; on Debian/Ubuntu: apt-get install ocl-icd-libopencl1 pocl-opencl-icd (PoCL runs OpenCL on the CPU)."

func kind(t cl.DeviceType) string {
	switch {
	case t&cl.DeviceTypeGPU != 0:
		return "GPU"
	case t&cl.DeviceTypeAccelerator != 0:
		return "accelerator"
	case t&cl.DeviceTypeCPU != 0:
		return "CPU"
	}
	return t.String()
}

func printDevice(d *platform.Device) {
	p := d.Profile()
	c := d.CL()
	row := func(k, format string, a ...any) { fmt.Printf("    %-24s "+format+"\n", append([]any{k}, a...)...) }
	fmt.Printf("\n  device %s  %s\n", d.Index(), p.Name)
	row("vendor", "%s (%s)", p.VendorName, p.Vendor)
	row("type", "%s", kind(p.Type))
	row("OpenCL", "%s (%s; %s)", p.OpenCL, c.Version(), c.OpenCLCVersion())
	row("driver", "%s", p.DriverVersion)
	row("compute units", "%d", p.ComputeUnits)
	row("clock", "%d MHz", p.ClockMHz)
	row("global memory", "%s (cache %s)", bytes(p.GlobalMemBytes), bytes(p.GlobalCacheBytes))
	local := "dedicated"
	if !p.LocalMemDedicated {
		local = "emulated in global memory"
	}
	row("local memory", "%s per work-group, %s", bytes(p.LocalMemBytes), local)
	row("max allocation", "%s", bytes(p.MaxAllocBytes))
	row("work-group size", "%d (per dimension %v)", p.MaxWorkGroupSize, p.MaxWorkItemSizes)
	if p.WarpSize > 0 {
		row("warp/wavefront", "%d", p.WarpSize)
	} else {
		row("warp/wavefront", "not reported")
	}
	row("fp64 / fp16 / subgroups", "%s / %s / %s", yes(p.FP64), yes(p.FP16), yes(p.SubGroups))
	row("preferred vector", "float %d, double %d", p.PreferredVectorFloat, p.PreferredVectorDouble)
	arch := p.Architecture
	if arch == "" {
		arch = "not reported"
	}
	if p.ComputeCapability != [2]int{} {
		arch += fmt.Sprintf(" (compute capability %d.%d)", p.ComputeCapability[0], p.ComputeCapability[1])
	}
	row("architecture", "%s", arch)
	row("unified host memory", "%s", yes(p.HostUnifiedMemory))
	row("topology", "%s", d.Topology())
	row("extensions", "%d listed", len(p.Extensions))
}

// printLayout prints the devices' layout in the host, and which of them
// a GOCL_DEVICE naming several (all, gpu:*, a list) would use.
func printLayout(devs []*platform.Device) {
	fmt.Printf("\nlayout:\n")
	for _, d := range devs {
		fmt.Printf("  %-5s %-12s %s  (%s)\n", d.Index(), kind(d.Profile().Type), d.Topology(), d.Profile().Name)
	}
	spec := os.Getenv(platform.EnvDevice)
	if !platform.IsMultiSpec(spec) {
		return
	}
	all, err := platform.SelectAll(spec)
	if err != nil {
		fmt.Printf("  %s=%q: %v\n", platform.EnvDevice, spec, err)
		return
	}
	fmt.Printf("  %s=%q uses %d device(s), the primary first:", platform.EnvDevice, spec, len(all))
	for _, d := range all {
		fmt.Printf(" %s", d.Index())
	}
	fmt.Println()
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func bytes(n int64) string {
	const k = 1024
	switch {
	case n >= k*k*k:
		return fmt.Sprintf("%.1f GiB", float64(n)/(k*k*k))
	case n >= k*k:
		return fmt.Sprintf("%.1f MiB", float64(n)/(k*k))
	case n >= k:
		return fmt.Sprintf("%.0f KiB", float64(n)/k)
	}
	return fmt.Sprintf("%d B", n)
}
