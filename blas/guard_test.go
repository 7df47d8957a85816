package clblas

import (
	"flag"
	"fmt"
	"reflect"
	"strings"

	eng "github.com/gocompute/opencl/internal/engine"
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
	d, ok := shared.impl.dev32.(eng.ClDevice32)
	if !ok {
		return nil
	}
	var missing []string
	for _, iface := range []reflect.Type{reflect.TypeFor[deviceFloat64](), reflect.TypeFor[deviceFloat32]()} {
		if iface == reflect.TypeFor[deviceFloat64]() && !d.E.Prof.FP64 {
			continue
		}
		for i := range iface.NumMethod() {
			name := iface.Method(i).Name
			if name == "Close" {
				continue
			}
			if (name == "Dsdot" || name == "Sdsdot") && !d.E.Prof.FP64 {
				continue
			}
			if d.E.Launched.Of(name) == 0 {
				missing = append(missing, name)
			}
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("routines that never ran on the device in the whole test run: %s", strings.Join(missing, ", "))
	}
	return nil
}
