package main

import (
	"strings"
	"testing"
	"time"

	"github.com/gocompute/opencl/platform"
	"github.com/gocompute/opencl/platform/platformtest"
)

// TestDevicesSmoke runs the -devices report on tiny shapes over every
// device (one or more), so that a broken report fails CI rather than the
// next GPU session.
func TestDevicesSmoke(t *testing.T) {
	platformtest.Device(t)
	devs, err := platform.SelectAll("all")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, pinned := range []bool{false, true} {
		if err := devicesMain(&out, "all", []shape{{70, 40, 30}}, []string{"64", "32"}, 1, time.Millisecond, pinned); err != nil {
			t.Fatal(err)
		}
	}
	text := out.String()
	t.Log(text)
	if strings.Contains(text, "clblas:") || strings.Contains(text, "platform:") {
		t.Error("the report has an error in it")
	}
	for _, want := range []string{"together", "64    70x40x30", "32    70x40x30", "dev 0"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if got := strings.Count(text, "\ndevice "); got != 2*len(devs) {
		t.Errorf("the report lists %d devices, want %d", got, len(devs))
	}
	if strings.Count(text, "HostSlices") != 1 {
		t.Error("the -pinned report does not say it ran from HostSlices")
	}
	if err := devicesMain(&out, "no-such-device-anywhere,all", nil, nil, 1, time.Millisecond, false); err == nil {
		t.Error("a spec naming no device did not fail")
	}
}
