//go:build !asan

package e2e_test

// asanBuild is set under -asan (see asan_on_test.go).
const asanBuild = false
