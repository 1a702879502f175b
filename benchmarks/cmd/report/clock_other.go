//go:build !linux

package main

import "time"

// threadCPUTime is Linux-only; elsewhere -clock thread is refused.
func threadCPUTime() (time.Duration, bool) { return 0, false }
