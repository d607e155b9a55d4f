package host

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	plugin "github.com/hashicorp/go-plugin"
)

// checkedBinary is a plugin binary open for reading that passed every check of
// Plugin.Verify. The host executes this open file (see execTarget), not the path again, so
// the bytes it hashed are the bytes that run.
type checkedBinary struct {
	f      *os.File
	real   string // the file's path with every symlink resolved
	script bool   // it starts with "#!": its interpreter reads it by path
}

// refusal is a binary the host will not start; its message names the plugin and says how to
// fix the problem. It unwraps to the cause (plugin.ErrChecksumsDoNotMatch, an *fs.PathError).
type refusal struct {
	msg string
	err error
}

func (r *refusal) Error() string { return r.msg }
func (r *refusal) Unwrap() error { return r.err }

// openChecked opens p's binary and checks, on the open file: that it is a regular file that
// resolves (symlinks followed) inside its manifest's folder; that neither it, nor the folders
// from the manifest's down to it, nor their ancestors can be written by other users; and that
// its SHA-256 is the manifest's. The caller closes the file.
func (p Plugin) openChecked() (*checkedBinary, error) {
	refuse := func(err error, format string, args ...any) error {
		return &refusal{msg: fmt.Sprintf("host: plugin %q: ", p.Name) + fmt.Sprintf(format, args...), err: err}
	}
	folder, err := filepath.EvalSymlinks(filepath.Dir(p.Manifest))
	if err != nil {
		return nil, refuse(err, "manifest %s: %v", p.Manifest, err)
	}
	f, err := os.Open(p.Path)
	if err != nil {
		return nil, refuse(err, "binary %s (manifest %s): %v", p.Path, p.Manifest, err)
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
		}
	}()
	fi, err := f.Stat()
	if err != nil {
		return nil, refuse(err, "binary %s: %v", p.Path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, refuse(nil, "binary %s (manifest %s) is not a regular file (%s)", p.Path, p.Manifest, fi.Mode().Type())
	}
	real, err := openedPath(f, p.Path)
	if err != nil {
		return nil, refuse(err, "binary %s: %v", p.Path, err)
	}
	if !within(folder, real) {
		return nil, refuse(nil, "binary %s resolves to %s, outside the plugin folder %s (the manifest's folder, %s); "+
			"a plugin folder must hold its binaries so that it can be copied whole: copy the binary into it instead of linking to it",
			p.Path, real, folder, p.Manifest)
	}
	if problem := othersCanWrite(real, fi, true); problem != "" {
		return nil, refuse(fs.ErrPermission, "%s", problem)
	}
	for d := filepath.Dir(real); ; d = filepath.Dir(d) {
		di, err := os.Stat(d)
		if err != nil {
			return nil, refuse(err, "folder %s: %v", d, err)
		}
		if problem := othersCanWrite(d, di, within(folder, d)); problem != "" {
			return nil, refuse(fs.ErrPermission, "%s", problem)
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, refuse(err, "reading binary %s: %v", p.Path, err)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != p.SHA256 {
		return nil, refuse(plugin.ErrChecksumsDoNotMatch,
			"binary %s does not match the sha256 checksum in its manifest %s (it has %s, the manifest says %s)",
			p.Path, p.Manifest, sum, p.SHA256)
	}
	head := make([]byte, 2)
	n, _ := f.ReadAt(head, 0)
	ok = true
	return &checkedBinary{f: f, real: real, script: bytes.Equal(head[:n], []byte("#!"))}, nil
}

// within reports whether path is dir or lies under it; both are clean absolute paths.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// othersCanWrite says why users other than the current one and root can write to a file or
// folder, or returns "" if they cannot: by its mode (group or world writable; a sticky folder
// such as /tmp is allowed above the plugin folder, since others cannot rename what they do not
// own there) and, when owned is set (the plugin's own folder, its binary, its manifest), by
// its owner, who can always change the mode. The text says how to fix it.
func othersCanWrite(path string, fi fs.FileInfo, owned bool) string {
	mode := fi.Mode()
	sticky := mode&fs.ModeSticky != 0 && mode.IsDir()
	what := "binary"
	switch {
	case mode.IsDir():
		what = "folder"
	case strings.HasSuffix(path, ".json"):
		what = "manifest"
	}
	if mode.Perm()&0o022 != 0 && (owned || !sticky) {
		return fmt.Sprintf("%s %s is writable by other users (mode %s), so any of them could change what runs; run: chmod go-w %s",
			what, path, mode.Perm(), path)
	}
	if owned {
		if uid, ok := fileOwner(fi); ok && uid != os.Geteuid() && uid != 0 {
			return fmt.Sprintf("%s %s is owned by uid %d, neither you (uid %d) nor root, so its owner could change what runs; "+
				"use a copy of your own, or have root chown it", what, path, uid, os.Geteuid())
		}
	}
	return ""
}
