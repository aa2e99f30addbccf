//go:build unix && !linux

package atomicfile

import (
	"os"
	"syscall"
)

// canSyncFS: SyncFS syncs every file system (sync(2)), where no call syncs
// one.
const canSyncFS = true

// SyncFS makes durable every write to the file systems, the files
// WriteDeferred wrote in root among them, and their renames.
func SyncFS(*os.Root) error {
	syscall.Sync()
	return nil
}
