//go:build !asan

package serializer_test

const asanBuild = false
