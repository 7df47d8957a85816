package main

import "os"

// isTerminal reports whether f looks like a terminal (a character device):
// the progress bar redraws its line with carriage returns, which a log
// file or a CI job's pipe would keep as one line per redraw. /dev/null is a
// character device too; a bar drawn there is lost, which does no harm.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
