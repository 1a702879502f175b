package main

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestThreadCPUTime: the thread clock advances while the thread computes and
// (almost) not while it sleeps, which is what keeps other processes' CPU use
// out of the report's numbers.
func TestThreadCPUTime(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, ok := threadCPUTime()
	require.True(t, ok)
	time.Sleep(50 * time.Millisecond)
	t1, _ := threadCPUTime()
	assert.Less(t, t1-t0, 20*time.Millisecond, "sleeping used CPU time")
	x, deadline := uint64(1), time.Now().Add(30*time.Millisecond)
	for time.Now().Before(deadline) {
		for i := 0; i < 1000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	t2, _ := threadCPUTime()
	assert.Greater(t, t2-t1, time.Millisecond, "computing used no CPU time (x=%d)", x)
	assert.Equal(t, "thread", defaultClock())
}
