//go:build darwin || freebsd || linux || netbsd

package cl

import "github.com/ebitengine/purego"

func openLibrary(path string) (uintptr, error) {
	return purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
}

// sym returns the address of the named function, 0 when the library has
// none.
func sym(h uintptr, name string) uintptr {
	p, err := purego.Dlsym(h, name)
	if err != nil {
		return 0
	}
	return p
}

func closeLibrary(h uintptr) { purego.Dlclose(h) }
