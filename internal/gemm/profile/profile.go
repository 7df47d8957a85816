// Package profile describes an OpenCL device, as package platform profiles
// it, in the plain terms package gemm chooses by (gemm itself makes no
// OpenCL call and imports no OpenCL package).
package profile

import (
	"github.com/gocompute/opencl/internal/gemm"
	"github.com/gocompute/opencl/platform"
)

// Device describes p for the GEMM choice.
func Device(p platform.Profile) gemm.Device {
	return gemm.Device{
		Name: p.Name, Vendor: string(p.Vendor), VendorName: p.VendorName, Platform: p.Platform,
		CPU: p.IsCPU(), GPU: p.IsGPU(), ComputeCapability: p.ComputeCapability,
		ComputeUnits: p.ComputeUnits, MaxWorkGroupSize: p.MaxWorkGroupSize, LocalMemBytes: p.LocalMemBytes,
		FP64: p.FP64, PreferredVectorFloat: p.PreferredVectorFloat, PreferredVectorDouble: p.PreferredVectorDouble,
	}
}
