package platform

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/gocompute/opencl/cl"
)

// Several devices at once. Besides the single-device specs of Select, a
// spec may name several devices:
//
//   - "all": every device,
//   - "WORD:*": every device WORD matches ("gpu:*", "pocl:*", "nvidia:*"),
//     or "P:*": every device of platform P,
//   - a comma-separated list of specs ("nvidia,pocl", "0:0,1:0", "gpu:*,cpu"):
//     each element names one device as Select does (or several, by the two
//     forms above); a device named twice is listed once, and so is a chip
//     that two drivers list (same PCI address: the vendor's driver stays).
//
// SelectAll resolves such a spec; IsMultiSpec tells it from a single one.

// IsMultiSpec reports whether spec uses one of the several-device forms
// ("all", "…:*", or a list with a comma). Such a spec may still resolve to
// a single device (on a machine with one GPU, "gpu:*" is that GPU).
func IsMultiSpec(spec string) bool {
	spec = strings.TrimSpace(spec)
	return strings.EqualFold(spec, "all") || strings.Contains(spec, ",") || strings.HasSuffix(spec, ":*")
}

// DefaultAll returns the devices GOCL_DEVICE names, several when it uses
// a several-device form, else the one Default returns.
func DefaultAll() ([]*Device, error) { return SelectAll(os.Getenv(EnvDevice)) }

// SelectAll returns the devices spec names (see IsMultiSpec; a single spec
// or an empty one gives the one device Select gives), best first (by
// Default's rule, see Best) and the others in list order. Any element that
// matches nothing, or an empty element, is an error listing the devices
// that exist.
func SelectAll(spec string) ([]*Device, error) {
	if !IsMultiSpec(spec) {
		d, err := Select(spec)
		if err != nil {
			return nil, err
		}
		return []*Device{d}, nil
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
	return selectAll(all, spec)
}

// selectAll is SelectAll on the device list all.
func selectAll(all []*Device, spec string) ([]*Device, error) {
	var out []*Device
	for _, el := range strings.Split(spec, ",") {
		el = strings.TrimSpace(el)
		var got []*Device
		switch {
		case el == "":
			return nil, specError(all, spec, "an empty element")
		case strings.EqualFold(el, "all"):
			got = all
		case strings.HasSuffix(el, ":*"):
			w := strings.TrimSuffix(el, ":*")
			if p, err := strconv.Atoi(w); err == nil {
				for _, d := range all {
					if d.platformIndex == p {
						got = append(got, d)
					}
				}
			} else if w != "" {
				got = match(all, w)
			}
		default:
			if m := match(all, el); len(m) > 0 {
				got = []*Device{best(m)}
			}
		}
		if len(got) == 0 {
			return nil, specError(all, spec, fmt.Sprintf("%q matches no device", el))
		}
		for _, d := range got {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	out = oneDriverPerChip(out)
	b := best(out)
	i := slices.Index(out, b)
	return append(append([]*Device{b}, out[:i]...), out[i+1:]...), nil
}

// pciOf is a device's PCI address (a variable so that tests can give
// hand-made devices one).
var pciOf = (*Device).pciAddress

// oneDriverPerChip drops a device whose PCI address an earlier one has
// (one chip that two drivers list, such as an NVIDIA GPU under NVIDIA's
// driver and PoCL's CUDA back end), keeping the better of the two (best:
// a vendor's own driver over PoCL) in the earlier one's place. Devices
// without a PCI address are all kept.
func oneDriverPerChip(ds []*Device) []*Device {
	var out []*Device
	at := map[PCIAddress]int{}
	for _, d := range ds {
		a, ok := pciOf(d)
		if !ok {
			out = append(out, d)
			continue
		}
		if i, seen := at[a]; seen {
			out[i] = best([]*Device{out[i], d})
			continue
		}
		at[a] = len(out)
		out = append(out, d)
	}
	return out
}

// specError is the error for a several-device spec that names no device.
func specError(all []*Device, spec, why string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "platform: %s=%q: %s; devices are:", EnvDevice, spec, why)
	for _, d := range all {
		fmt.Fprintf(&b, "\n  %s", d)
	}
	b.WriteString("\n(use all, WORD:*, P:*, or a comma-separated list of P:D, gpu, cpu, accelerator, a vendor such as nvidia/amd/intel/pocl, or part of a device name)")
	return errors.New(b.String())
}

// Best returns the device Default would choose among ds: a GPU over an
// accelerator over a CPU, then the most compute units × clock, then a
// vendor's own driver over PoCL; nil for an empty list.
func Best(ds []*Device) *Device {
	if len(ds) == 0 {
		return nil
	}
	return best(ds)
}
