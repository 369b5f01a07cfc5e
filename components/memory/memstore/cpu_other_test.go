//go:build !unix

package memstore

// processCPU is the CPU time of the process so far, in nanoseconds; 0
// here, where it is not measured.
func processCPU() int64 { return 0 }
