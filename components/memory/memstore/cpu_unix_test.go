//go:build unix

package memstore

import "syscall"

// processCPU is the user and system CPU time of the process so far, in
// nanoseconds (0 where unknown).
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
