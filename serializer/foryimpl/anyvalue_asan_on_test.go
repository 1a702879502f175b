//go:build asan

package foryimpl

// anyAsan is set under -asan, whose allocator makes allocations of its own.
const anyAsan = true
