//go:build asan

package serializer_test

// asanBuild is set under -asan, whose instrumented build allocates where
// the normal one does not; allocation counts are checked without it (as
// internal/e2e does).
const asanBuild = true
