//go:build !unix

package atomicfs

// MkdirScratch makes a scratch folder in the system's temporary folder.
// release removes it.
// Without flock there is no telling a live process's folder from a killed one's.
// So none is removed here.
func MkdirScratch(pattern string) (dir string, release func(), err error) {
	dir, err = temps.mkdirTemp("", pattern)
	if err != nil {
		return "", nil, err
	}
	return dir, func() { temps.remove(dir) }, nil
}

// RemoveStaleScratch does nothing where there is no flock.
func RemoveStaleScratch(pattern string) {}
