package refs

import (
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"
)

// Messages written by other languages' Fory with reference tracking on, as
// observed from pyfory built from apache/fory c8bf233 (issue 23): they are
// data, kept as hex.
var peerMessages = []struct {
	name, hex string
	want      func() *TreeNode
}{
	// pyfory, ref=True, compatible: TreeNode{name "r", children
	// [TreeNode{name "c"}]}. The list of structs has header 09 (tracking,
	// same type, element type meta after the header) and a reference flag
	// before the element; pyfory's TypeDef declares the element not
	// nullable, so the list is read through the evolved path.
	{"pyfory_tree_compatible",
		"01001c0017a0307d15254b3bc3cb0154167088e858e246804815340c204f1c3c11236601091c0100000463fd0472fd",
		func() *TreeNode {
			return &TreeNode{Name: "r", Children: []*TreeNode{{Name: "c", Children: []*TreeNode{}}}}
		}},
}

func TestPeerTrackedLists(t *testing.T) {
	for _, pm := range peerMessages {
		t.Run(pm.name, func(t *testing.T) {
			data, err := hex.DecodeString(pm.hex)
			require.NoError(t, err)
			var got TreeNode
			require.NoError(t, fory(true, true).Deserialize(data, &got))
			require.Equal(t, pm.want(), &got)
		})
	}
}
