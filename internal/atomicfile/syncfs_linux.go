package atomicfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// canSyncFS: SyncFS syncs the file system of a directory (syncfs(2)).
const canSyncFS = true

// SyncFS makes durable every write to the file system that holds root,
// the files WriteDeferred wrote there among them, and their renames.
func SyncFS(root *os.Root) error {
	d, err := root.Open(".")
	if err != nil {
		return err
	}
	defer d.Close()
	return unix.Syncfs(int(d.Fd()))
}
