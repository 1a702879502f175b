//go:build unix

package evolution_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user + system) the process has used. The
// benchmarks report it per op next to wall time: on a shared machine wall
// time includes waiting for a CPU, CPU time does not.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
