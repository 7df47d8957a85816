package cl

import (
	"path/filepath"

	"golang.org/x/sys/windows"
)

var defaultLibraries = []string{"OpenCL.dll"}

// openLibrary loads a bare DLL name from the system directory only (where
// GPU drivers install OpenCL.dll), never from the current or program
// directory; a path is loaded as given.
func openLibrary(path string) (uintptr, error) {
	var flags uintptr
	if filepath.Base(path) == path {
		flags = windows.LOAD_LIBRARY_SEARCH_SYSTEM32
	}
	h, err := windows.LoadLibraryEx(path, 0, flags)
	return uintptr(h), err
}

// sym returns the address of the named function, 0 when the library has
// none.
func sym(h uintptr, name string) uintptr {
	p, err := windows.GetProcAddress(windows.Handle(h), name)
	if err != nil {
		return 0
	}
	return p
}

func closeLibrary(h uintptr) { windows.FreeLibrary(windows.Handle(h)) }
