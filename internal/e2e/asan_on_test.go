//go:build asan

package e2e_test

// asanBuild is set under -asan, whose allocator adds a redzone to every
// heap object: /gc/heap/allocs:bytes then counts more than the decoder
// asked for, so the allocation tests allow for it (allocSlack).
const asanBuild = true
