package clblas

import (
	"flag"
	"fmt"
	"reflect"
	"strings"
)

// checkEveryRoutineRan reports the device routines that never completed a
// call on the shared engine during a full run of the package's tests
// (without -run): the front end falls back to the CPU silently, so a
// conformance test alone cannot show that a routine ran on the device.
func checkEveryRoutineRan() error {
	if f := flag.Lookup("test.run"); f == nil || f.Value.String() != "" {
		return nil // a partial run proves nothing either way
	}
	if shared.impl == nil {
		return nil
	}
	d, ok := openclDevice[float32](shared.impl)
	if !ok {
		return nil
	}
	var missing []string
	// The device's methods are gonum's routines without the precision
	// letter; launches are counted under the routines' full names.
	for _, p := range []string{"D", "S"} {
		if p == "D" && !d.E.Prof.FP64 {
			continue
		}
		iface := reflect.TypeFor[device[float64]]()
		for i := range iface.NumMethod() {
			name := iface.Method(i).Name
			switch name {
			case "Close":
				continue
			case "Dsdot", "Sdsdot":
				if p == "D" || !d.E.Prof.FP64 {
					continue
				}
			case "Iamax":
				name = "I" + strings.ToLower(p) + "amax"
			default:
				name = p + strings.ToLower(name[:1]) + name[1:]
			}
			if d.E.Launched.Of(name) == 0 {
				missing = append(missing, name)
			}
		}
	}
	for name := range complexOnDevice { // TestComplexLevel3Shared
		r := name // complex128 where there is fp64, else complex64
		if !d.E.Prof.FP64 {
			r = "C" + name[1:]
		}
		if d.E.Launched.Of(r) == 0 {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("routines that never ran on the device in the whole test run: %s", strings.Join(missing, ", "))
	}
	return nil
}
