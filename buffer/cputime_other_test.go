//go:build !linux

package buffer

func threadCPUTime() int64 { return -1 }
