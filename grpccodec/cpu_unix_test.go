//go:build unix

package grpccodec_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user + system) this process has used. The
// loopback benchmarks report it per call next to wall time because on a
// shared machine wall time measures the neighbours too.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
