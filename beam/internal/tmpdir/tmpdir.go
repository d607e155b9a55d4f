// Package tmpdir gives a process that runs Beam pipelines a temporary folder of its own.
//
// Beam's loopback mode (Prism in this process, chunkbeam's default runner and its tests')
// creates an empty file named beamloopbackworker-* in os.TempDir for every pipeline it runs,
// keeps it open and never removes it (runnerlib.Execute in the Go SDK, apache/beam#27569). A
// user running chunkbeam a thousand times would find a thousand such files in /tmp.
package tmpdir

import (
	"fmt"
	"os"
)

// Own points $TMPDIR, and so os.TempDir, at a new folder inside the temporary folder in use,
// and returns a function that removes the folder, with whatever is left in it, and sets
// $TMPDIR back. Call it before a pipeline runs and call the function when the process is done
// with pipelines; $TMPDIR is the process's, so nothing else should set it meanwhile.
func Own() (restore func() error, err error) {
	dir, err := os.MkdirTemp("", "chunkbeam-")
	if err != nil {
		return nil, fmt.Errorf("a temporary folder for the pipeline: %w", err)
	}
	old, had := os.LookupEnv("TMPDIR")
	if err := os.Setenv("TMPDIR", dir); err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("a temporary folder for the pipeline: %w", err)
	}
	return func() error {
		if had {
			os.Setenv("TMPDIR", old)
		} else {
			os.Unsetenv("TMPDIR")
		}
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("removing the pipeline's temporary folder: %w", err)
		}
		return nil
	}, nil
}
