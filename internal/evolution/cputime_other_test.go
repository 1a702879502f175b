//go:build !unix

package evolution_test

import "time"

// processCPU is not available here; the benchmarks then report wall time only.
func processCPU() (time.Duration, bool) { return 0, false }
