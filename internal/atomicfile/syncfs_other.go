//go:build !unix

package atomicfile

import "os"

// canSyncFS: no call syncs a file system here, so WriteDeferred syncs
// each file as Write does.
const canSyncFS = false

// SyncFS has nothing to do: WriteDeferred synced each file.
func SyncFS(*os.Root) error { return nil }
