//go:build !unix

package grpccodec_test

import "time"

// processCPU is not measured on this platform; the cpu-ns/op metric is left
// out.
func processCPU() time.Duration { return 0 }
