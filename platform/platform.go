// Package platform finds OpenCL devices, chooses one, describes it, and
// owns what running on it needs: a context, queues, and programs built from
// sources with an in-memory and an on-disk binary cache.
//
// The device is chosen by [Default], which honours GOCL_DEVICE, or by
// [Select] with an explicit spec. A spec is one of
//
//   - an index pair "P:D" (platform P, device D, as [Devices] lists them),
//   - a type word: "gpu", "cpu" or "accelerator",
//   - a vendor or platform word: "nvidia", "amd", "intel", "apple", "pocl", …
//     (matched against the platform's and the device's vendor and name),
//   - a substring of the device name ("H200").
//
// With no spec, the best device is a GPU over an accelerator over a CPU, and
// among equals the one with the most compute units × clock.
package platform

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gocompute/opencl/cl"
	"github.com/gocompute/opencl/internal/settings"
)

// Device is one OpenCL device, with its position in the platform list and
// its [Profile].
type Device struct {
	cl            *cl.Device
	platformIndex int
	deviceIndex   int
	profile       Profile
}

// CL returns the underlying binding's device.
func (d *Device) CL() *cl.Device { return d.cl }

// Index returns the device's "P:D" position, as GOCL_DEVICE accepts it.
func (d *Device) Index() string { return fmt.Sprintf("%d:%d", d.platformIndex, d.deviceIndex) }

// Profile describes the device.
func (d *Device) Profile() Profile { return d.profile }

// String is "P:D name (platform, type)".
func (d *Device) String() string {
	return fmt.Sprintf("%s %s (%s, %s)", d.Index(), d.profile.Name, d.profile.Platform, d.profile.Type)
}

// Devices returns every device of every platform, platforms in the ICD
// loader's order and devices in each platform's order. A machine without
// OpenCL drivers, or with no OpenCL library at all, returns an empty list,
// not an error (Default and Select then say why).
//
// The list is read once per process (the ICD loader loads its drivers once)
// and later calls return the same *Device values in a new slice. Calls are
// serialised: some drivers and ICD loaders do not survive being enumerated
// from several threads at once.
func Devices() ([]*Device, error) {
	enum.mu.Lock()
	defer enum.mu.Unlock()
	if !enum.done {
		ds, err := enumerate()
		if err != nil {
			return nil, err
		}
		enum.devices, enum.done = ds, true
	}
	return slices.Clone(enum.devices), nil
}

var enum struct {
	mu      sync.Mutex
	done    bool
	devices []*Device
}

func enumerate() ([]*Device, error) {
	ps, err := cl.Platforms()
	if errors.Is(err, cl.ErrNoRuntime) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("platform: listing OpenCL platforms: %w", err)
	}
	var out []*Device
	for pi, p := range ps {
		ds, err := p.Devices(cl.DeviceTypeAll)
		if err != nil {
			return nil, fmt.Errorf("platform: listing devices of %q: %w", p.Name(), err)
		}
		for di, d := range ds {
			out = append(out, &Device{cl: d, platformIndex: pi, deviceIndex: di, profile: newProfile(d)})
		}
	}
	return out, nil
}

// EnvDevice is the environment variable Default reads.
const EnvDevice = settings.Device

// ErrNoDevice is returned when no OpenCL device exists at all. When no
// OpenCL library could be loaded, the error wraps it and cl.ErrNoRuntime,
// which names the paths tried.
var ErrNoDevice = errors.New("platform: no OpenCL device found (install an OpenCL driver; on Debian: apt-get install ocl-icd-libopencl1 pocl-opencl-icd)")

// Default returns the device named by GOCL_DEVICE, or, when it is unset,
// the best device: a GPU over an accelerator over a CPU, then the most
// compute units × clock.
func Default() (*Device, error) {
	return Select(os.Getenv(EnvDevice))
}

// Select returns the device a spec names (see the package comment); an
// empty spec picks the best device. A spec that matches nothing is an
// error listing the devices that exist. When several devices match, the
// best of them is returned. A spec naming several devices (IsMultiSpec)
// gives the first of SelectAll's: the best of them.
func Select(spec string) (*Device, error) {
	if IsMultiSpec(spec) {
		ds, err := SelectAll(spec)
		if err != nil {
			return nil, err
		}
		return ds[0], nil
	}
	all, err := Devices()
	if err != nil {
		return nil, err
	}
	if len(all) == 0 {
		if err := cl.LoadRuntime(); err != nil {
			return nil, noRuntimeError{err}
		}
		return nil, ErrNoDevice
	}
	spec = strings.TrimSpace(spec)
	matches := all
	if spec != "" {
		matches = match(all, spec)
	}
	if len(matches) == 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "platform: %s=%q matches no device; devices are:", EnvDevice, spec)
		for _, d := range all {
			fmt.Fprintf(&b, "\n  %s", d)
		}
		b.WriteString("\n(use P:D, gpu, cpu, accelerator, a vendor such as nvidia/amd/intel/pocl, or part of a device name)")
		return nil, errors.New(b.String())
	}
	return best(matches), nil
}

func match(all []*Device, spec string) []*Device {
	if p, d, ok := strings.Cut(spec, ":"); ok {
		pi, err1 := strconv.Atoi(p)
		di, err2 := strconv.Atoi(d)
		if err1 == nil && err2 == nil {
			for _, x := range all {
				if x.platformIndex == pi && x.deviceIndex == di {
					return []*Device{x}
				}
			}
			return nil
		}
	}
	word := strings.ToLower(spec)
	var typ cl.DeviceType
	switch word {
	case "gpu":
		typ = cl.DeviceTypeGPU
	case "cpu":
		typ = cl.DeviceTypeCPU
	case "accelerator", "acc":
		typ = cl.DeviceTypeAccelerator
	}
	var out []*Device
	if typ != 0 {
		for _, d := range all {
			if d.profile.Type&typ != 0 {
				out = append(out, d)
			}
		}
		return out
	}
	// A vendor or platform word first, then a name substring.
	for _, d := range all {
		p := d.profile
		if string(p.Vendor) == word || strings.Contains(strings.ToLower(p.Platform), word) ||
			strings.Contains(strings.ToLower(p.VendorName), word) {
			out = append(out, d)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, d := range all {
		if strings.Contains(strings.ToLower(d.profile.Name), word) {
			out = append(out, d)
		}
	}
	return out
}

func typeRank(t cl.DeviceType) int {
	switch {
	case t&cl.DeviceTypeGPU != 0:
		return 3
	case t&cl.DeviceTypeAccelerator != 0:
		return 2
	case t&cl.DeviceTypeCPU != 0:
		return 1
	}
	return 0
}

// native ranks a vendor's own driver above PoCL, which can also drive some
// GPUs (its CUDA and Level Zero back ends) and then reports the same chip.
func native(p Profile) int {
	if p.Vendor == VendorPoCL {
		return 0
	}
	return 1
}

// best orders by type, then by compute units × clock, then a vendor's own
// driver over PoCL; remaining ties keep list order.
func best(ds []*Device) *Device {
	return slices.MaxFunc(ds, func(a, b *Device) int {
		if c := cmp.Compare(typeRank(a.profile.Type), typeRank(b.profile.Type)); c != 0 {
			return c
		}
		if c := cmp.Compare(a.profile.ComputeUnits*a.profile.ClockMHz, b.profile.ComputeUnits*b.profile.ClockMHz); c != 0 {
			return c
		}
		return cmp.Compare(native(a.profile), native(b.profile))
	})
}
