package atomicfile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// OpenDescriptor returns the descriptor of this process that name, or a
// symbolic link on its way, names: /dev/stdin, /dev/stdout and /dev/stderr
// (0, 1, 2), /dev/fd/N, /proc/self/fd/N and /proc/PID/fd/N for this
// process's PID; -1 when it names none. Such a path is written through
// that descriptor, as the shell opened it (a file opened by ">>" keeps
// its content and is appended to), never replaced by a rename: "-o
// /dev/stdout >> app.log" appends to app.log.
func OpenDescriptor(name string) int {
	p := name
	for i := 0; i <= maxLinks; i++ {
		if fd := descriptorPath(p); fd >= 0 {
			return fd
		}
		lst, err := os.Lstat(p)
		if err != nil || lst.Mode()&os.ModeSymlink == 0 {
			return -1
		}
		link, err := os.Readlink(p)
		if err != nil {
			return -1
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	return -1
}

// descriptorPath returns the descriptor a path names by its spelling,
// or -1.
func descriptorPath(p string) int {
	p = filepath.Clean(p)
	switch p {
	case "/dev/stdin":
		return 0
	case "/dev/stdout":
		return 1
	case "/dev/stderr":
		return 2
	}
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/"} {
		if rest, ok := strings.CutPrefix(p, dir); ok {
			if n, err := strconv.Atoi(rest); err == nil && n >= 0 && strconv.Itoa(n) == rest {
				return n
			}
		}
	}
	return -1
}

// Target returns the file that writing name replaces, as an absolute path:
// name, or the final target of the symbolic links it names (which may not
// exist yet), with the links of its directory followed.
func Target(name string) string {
	p := name
	for i := 0; i < maxLinks; i++ {
		lst, err := os.Lstat(p)
		if err != nil || lst.Mode()&os.ModeSymlink == 0 {
			break
		}
		link, err := os.Readlink(p)
		if err != nil {
			break
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(p), link)
		}
		p = link
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}
